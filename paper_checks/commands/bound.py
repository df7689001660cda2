"""``specbound bound [MODEL]``: every matrix's spectrum and post hoc p, and the proxies B_ours and B_Edelman.

The numbers are those of :func:`numerics.proxies.proxies` (SPEC.md section 3, exact: the authors'
``bounds.py`` formulas from :mod:`theory.proxy`, evaluated in mpmath at ``--dps`` digits). The JSON layout
is the one of DESIGN.md; a number beyond float64's range (B_Edelman or alpha of a very deep model) is
written as a decimal string instead of a JSON number, never as inf.
"""

from __future__ import annotations

import argparse
import csv
import json
from collections.abc import Sequence
from typing import Any

import mpmath

from numerics.evaluate import DEFAULT_DPS
from numerics.loading import open_checkpoint
from numerics.loading.coverage import coverage_lines
from numerics.proxies import MatrixProxy, ProxyReport, proxies
from numerics.workers import default_jobs
from paper_checks.commands._model import add_model_arguments
from theory.errors import InvalidArgument
from theory.proxy import MatrixKind

HELP = "per-matrix spectra and post hoc p, and the proxies B_ours and B_Edelman of a checkpoint"

MATRIX_KEYS = (
    "layer",
    "head",
    "kind",
    "rows",
    "cols",
    "rank",
    "spectral_norm",
    "frobenius_norm",
    "norm_21",
    "alpha",
    "gamma",
    "p_opt",
    "contribution",
    "p_continuous",
    "contribution_continuous",
    "scale",
    "nuclear_norm",
    "norm_11",
    "stable_rank",
    "svd_path",
)
"""Columns of the per-matrix rows: DESIGN.md's keys first, then extras."""


def register(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``bound``."""
    add_model_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print the report as JSON (DESIGN.md layout)")
    parser.add_argument("--csv", metavar="FILE", help="also write one row per matrix to FILE as CSV")
    parser.add_argument(
        "--dps", type=int, default=DEFAULT_DPS, metavar="D", help=f"decimal digits (default {DEFAULT_DPS})"
    )
    parser.add_argument(
        "--grid-m", type=int, metavar="M", help="grid P_m = {0, 1/M, ..., 2} (default ceil(L + ln N))"
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=default_jobs(),
        metavar="N",
        help="worker processes sharing the layers (default: all cores, here %(default)s; 1 = serial); "
        "the numbers are identical to the serial run's",
    )
    parser.add_argument(
        "--fast-svd",
        action="store_true",
        help="singular values of large dense matrices from their Gram matrix where an a posteriori bound "
        "decides the rank and every S_p to relative 1e-8, the SVD elsewhere (JSON svd_path says which); "
        "faster, but the last digits differ from the default path's",
    )
    parser.add_argument(
        "--certify",
        action="store_true",
        help="also enclose every value in a rigorous interval (arb ball arithmetic, needs python-flint) "
        "and decide B_ours < B_Edelman by the intervals",
    )


def number(value: mpmath.mpf) -> float | str:
    """A JSON-ready number: the float when it is finite in float64, else a 17-digit decimal string."""
    as_float = float(value)
    return as_float if abs(as_float) != float("inf") else mpmath.nstr(value, 17)


def matrix_row(row: MatrixProxy) -> dict[str, Any]:
    """One matrix as a dict with the keys of :data:`MATRIX_KEYS`."""
    spec = row.spectrum
    rows, cols = spec.shape
    return {
        "layer": row.matrix.layer,
        "head": row.matrix.head,
        "kind": row.matrix.kind.value,
        "rows": rows,
        "cols": cols,
        "rank": spec.rank,
        "spectral_norm": spec.spectral_norm,
        "frobenius_norm": spec.frobenius_norm,
        "norm_21": spec.norm_21,
        "alpha": number(row.alpha),
        "gamma": number(row.gamma),
        "p_opt": float(row.p_opt),
        "contribution": number(row.contribution),
        "p_continuous": row.choice.p_continuous,
        "contribution_continuous": number(row.choice.value_continuous),
        "scale": number(row.scale),
        "nuclear_norm": spec.nuclear_norm,
        "norm_11": spec.norm_11,
        "stable_rank": spec.stable_rank,
        "svd_path": spec.svd_path,
    }


def report_json(report: ProxyReport, model: str) -> dict[str, Any]:
    """The DESIGN.md layout: model, L, N, heads, m, proxies {ours, edelman}, matrices; plus signature."""
    return {
        "model": model,
        "L": report.num_layers,
        "N": report.hidden_size,
        "heads": report.num_heads,
        "m": report.m,
        "proxies": {"ours": number(report.ours), "edelman": number(report.edelman)},
        "matrices": [matrix_row(row) for row in report.matrices],
        "source": report.source,
        "provenance": "exact (SPEC.md section 3; authors' bounds.py)",
        "signature": report.signature,
    }


def write_csv(path: str, rows: Sequence[dict[str, Any]]) -> None:
    """One line per matrix, the columns of :data:`MATRIX_KEYS`."""
    try:
        with open(path, "w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=MATRIX_KEYS)
            writer.writeheader()
            writer.writerows(rows)
    except OSError as error:
        raise InvalidArgument(f"--csv {path!r} cannot be written: {error.strerror}") from None


def _spread(values: Sequence[Any]) -> str:
    """min/median/max of a non-empty sequence, compactly; one value when they coincide."""
    ordered = sorted(values)
    middle = (ordered[(len(ordered) - 1) // 2] + ordered[len(ordered) // 2]) / 2
    parts = [_short(v) for v in (ordered[0], middle, ordered[-1])]
    return parts[0] if len(set(parts)) == 1 else "/".join(parts)


def _short(value: Any) -> str:
    """Six significant digits; integers without a decimal point."""
    value = mpmath.mpf(value)
    return str(int(value)) if mpmath.isint(value) and abs(value) < 10**6 else mpmath.nstr(value, 6)


def format_table(report: ProxyReport, model: str) -> str:
    """One row per layer and matrix kind (heads summarised as min/median/max), then the two proxies."""
    header = ("layer", "kind", "count", "shape", "rank", "p_opt", "contribution", "alpha", "gamma")
    table = [header]
    for layer in range(report.num_layers):
        for kind in MatrixKind:
            rows = [r for r in report.matrices if r.matrix.layer == layer and r.matrix.kind is kind]
            shape = rows[0].spectrum.shape
            table.append(
                (
                    str(layer),
                    kind.value,
                    str(len(rows)),
                    f"{shape[0]}x{shape[1]}",
                    _spread([r.spectrum.rank for r in rows]),
                    _spread([float(r.p_opt) for r in rows]),
                    _spread([r.contribution for r in rows]),
                    _short(rows[0].alpha),
                    _spread([r.gamma for r in rows]),
                )
            )
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    lines = [
        f"model {model}: L={report.num_layers}, N={report.hidden_size}, heads={report.num_heads}, "
        f"grid m={report.m} ({2 * report.m + 1} points), {len(report.matrices)} matrices",
        "per layer and kind; heads summarised as min/median/max",
        "",
    ]
    lines += ["  ".join(cell.rjust(w) for cell, w in zip(line, widths, strict=True)) for line in table]
    lines += [
        "",
        f"B_ours     = {mpmath.nstr(report.ours, 12)}  (sum of per-matrix minima + sqrt(L); exact)",
        f"B_Edelman  = {mpmath.nstr(report.edelman, 12)}  ((1 + sum_l alpha_l^(2/3) xi_l)^(3/2); exact)",
        f"signature  {report.signature}",
    ]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Build the report (load, spectra, proxies), then render it as a table, JSON and/or CSV."""
    checkpoint = open_checkpoint(args.model, num_heads=args.num_heads)
    rows_wanted = args.json or bool(args.csv)  # only the JSON and CSV rows show the (1,1) norm
    report = proxies(
        checkpoint,
        m=args.grid_m,
        dps=args.dps,
        jobs=args.jobs,
        fast_svd=args.fast_svd,
        entrywise_norms=rows_wanted,
    )
    payload = report_json(report, args.model) if rows_wanted else {}
    coverage = checkpoint.coverage()
    payload["coverage"] = [record.as_json() for record in coverage]
    if args.csv:
        write_csv(args.csv, payload["matrices"])
    text = "\n".join([format_table(report, args.model), "", *coverage_lines(coverage)])
    if args.certify:
        from numerics.certify.certified import certify_proxies
        from numerics.certify.report import add_intervals, summary_lines

        certified = certify_proxies(checkpoint.weights(), m=report.m)
        if rows_wanted:
            add_intervals(payload, certified)
        text = "\n".join([text, *summary_lines(certified)])
    print(json.dumps(payload, indent=1) if args.json else text)
    return 0
