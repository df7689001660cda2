"""``specbound bound [MODEL]``: every matrix's spectrum and post hoc p, and the proxies B_ours and B_Edelman.

The numbers are those of :func:`numerics.bounds.proxies.proxies` (docs: proxies, exact: the authors'
``bounds.py`` formulas from :mod:`theory.proxy`, evaluated in mpmath at ``--dps`` digits). The JSON layout
is documented in docs/architecture.md; a number beyond float64's range (B_Edelman or alpha of a very
deep model) is written as a decimal string instead of a JSON number, never as inf.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from numerics.batch.workers import default_jobs, free_cores
from numerics.formulas.precision import DEFAULT_DPS
from numerics.safe_io import os_problem
from paper_checks.commands._model import add_model_arguments
from paper_checks.output_files import atomic_path, check_target, checkpoint_inputs, json_text
from paper_checks.run_metadata import run_block, weights_sha256
from theory.errors import InvalidArgument, require
from theory.kinds import MatrixKind

if TYPE_CHECKING:
    import mpmath

    from numerics.bounds.composition import MatrixProxy, ProxyReport

HELP = "per-matrix spectra and post hoc p, and the proxies B_ours and B_Edelman of a checkpoint"


CLI_MAX_DPS = 2000
"""Largest ``--dps`` of the command line: about 5 s on minilm-l6; 30000 digits take minutes even on a
1 x 1 model (the library's :func:`numerics.formulas.evaluate.check_dps` allows more, for a caller who wants
it)."""

CLI_MAX_GRID_M = 10_000
"""Largest ``--grid-m`` of the command line (20001 grid points); memory and time grow linearly in M."""


def bounded(option: str, name: str, value: int, low: int, high: int) -> int:
    """``value`` if in [low, high]; else InvalidArgument naming the option, the value and the range."""
    if not low <= value <= high:
        raise InvalidArgument(f"{option}: {name}={value} is outside [{low}, {high}]")
    return value


def register(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``bound``."""
    add_model_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print the report as JSON (documented layout)")
    parser.add_argument(
        "--csv",
        metavar="FILE",
        help="also write one row per matrix to FILE as CSV (written atomically; an existing FILE is "
        "replaced only with --force, an input of the run never)",
    )
    parser.add_argument(
        "--force", action="store_true", help="let --csv or --parquet replace an existing file"
    )
    parser.add_argument(
        "--dps",
        type=int,
        default=DEFAULT_DPS,
        metavar="D",
        help=f"decimal digits, 15 to {CLI_MAX_DPS} (default {DEFAULT_DPS})",
    )
    parser.add_argument(
        "--parquet", metavar="FILE", help="also write one row per matrix to FILE as Parquet (needs pyarrow)"
    )
    parser.add_argument(
        "--grid-m",
        type=int,
        metavar="M",
        help=f"grid P_m = {{0, 1/M, ..., 2}}, M from 1 to {CLI_MAX_GRID_M} (default ceil(L + ln N))",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        help="worker processes sharing the layers (default: one per core the load average leaves free, here "
        f"{default_jobs()}; 1 = serial); the numbers are identical to the serial run's; the JSON says "
        "how many ran and why",
    )
    parser.add_argument(
        "--fast-svd",
        action="store_true",
        help="singular values of large dense matrices from their Gram matrix where an a posteriori bound "
        "decides the rank and every S_p to relative 1e-8, the SVD elsewhere (JSON svd_path says which); "
        "faster, but the last digits differ from the default path's",
    )
    parser.add_argument(
        "--device",
        choices=("cpu", "cuda"),
        help="compute the spectra with torch in float64 on this device (needs torch; default: numpy's "
        "LAPACK); the last digits may differ from numpy's, and the output names the backend",
    )
    parser.add_argument(
        "--certify",
        action="store_true",
        help="also enclose every value in a rigorous interval (arb ball arithmetic, needs python-flint) "
        "and decide B_ours < B_Edelman by the intervals",
    )


def number(value: mpmath.mpf) -> float | str:
    """A JSON-ready number: the float when it is finite in float64, else a 17-digit decimal string."""
    import mpmath

    if not mpmath.isfinite(value):
        raise InvalidArgument(f"a proxy evaluated to {value}; no output may hold a non-finite number")
    as_float = float(value)
    return as_float if abs(as_float) != float("inf") else mpmath.nstr(value, 17)


def matrix_row(row: MatrixProxy) -> dict[str, Any]:
    """One matrix as a JSON-ready dict with the keys of :data:`numerics.bounds.composition.ROW_COLUMNS`."""
    import mpmath

    return {k: number(v) if isinstance(v, mpmath.mpf) else v for k, v in row.row().items()}


def report_json(report: ProxyReport, model: str) -> dict[str, Any]:
    """The documented layout: model, L, N, heads, m, proxies {ours, edelman}, matrices; plus signature."""
    return {
        "model": model,
        "L": report.num_layers,
        "N": report.hidden_size,
        "heads": report.num_heads,
        "m": report.m,
        "proxies": {"ours": number(report.ours), "edelman": number(report.edelman)},
        "matrices": [matrix_row(row) for row in report.matrices],
        "source": report.source,
        "provenance": "exact (docs: proxies; authors' bounds.py)",
        "signature": report.signature,
    }


def write_csv(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    """One line per matrix, the columns of :func:`numerics.bounds.composition.row_columns` (the documented
    keys first, then extras; ``expert`` for a mixture model), written atomically (whole or not at all)."""
    import csv

    from numerics.bounds.composition import row_columns

    try:
        with atomic_path(path) as temporary, temporary.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=row_columns(rows))
            writer.writeheader()
            writer.writerows(rows)
    except OSError as error:
        raise InvalidArgument(f"--csv {os.fspath(path)!r} cannot be written: {os_problem(error)}") from None


def write_parquet(path: Path, report: ProxyReport) -> None:
    """The rows of :meth:`ProxyReport.to_frame` as a Parquet file (pandas and pyarrow, extra analysis),
    written atomically."""
    try:
        with atomic_path(path) as temporary:
            report.to_frame().to_parquet(temporary, index=False)
    except OSError as error:
        raise InvalidArgument(
            f"--parquet {os.fspath(path)!r} cannot be written: {os_problem(error)}"
        ) from None


def _spread(values: Sequence[Any]) -> str:
    """min/median/max of a non-empty sequence, compactly; one value when they coincide."""
    ordered = sorted(values)
    middle = (ordered[(len(ordered) - 1) // 2] + ordered[len(ordered) // 2]) / 2
    parts = [_short(v) for v in (ordered[0], middle, ordered[-1])]
    return parts[0] if len(set(parts)) == 1 else "/".join(parts)


def _short(value: Any) -> str:
    """Six significant digits; integers without a decimal point."""
    import mpmath

    value = mpmath.mpf(value)
    return str(int(value)) if mpmath.isint(value) and abs(value) < 10**6 else mpmath.nstr(value, 6)


def format_table(report: ProxyReport, model: str) -> str:
    """One row per layer and matrix kind (heads summarised as min/median/max), then the two proxies."""
    import mpmath

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
        "per layer and kind; heads summarised as min/median/max"
        + (
            ", a mixture's experts likewise"
            if any(r.matrix.expert is not None for r in report.matrices)
            else ""
        ),
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
    from numerics.bounds.proxies import proxies
    from numerics.loading import open_checkpoint
    from numerics.loading.coverage import coverage_lines
    from numerics.spectra.model import SpectraOptions, model_spectra
    from numerics.spectra.spectrum import linalg_for

    bounded("--dps", "dps", args.dps, 15, CLI_MAX_DPS)
    if args.grid_m is not None:
        bounded("--grid-m", "m", args.grid_m, 1, CLI_MAX_GRID_M)
    csv_path = parquet_path = None
    inputs = checkpoint_inputs([args.model]) if args.csv is not None or args.parquet is not None else ()
    if args.csv is not None:
        csv_path = check_target("--csv", args.csv, force=args.force, inputs=inputs)
    if args.parquet is not None:
        require("pyarrow", purpose="--parquet")
        parquet_path = check_target("--parquet", args.parquet, force=args.force, inputs=inputs)
    linalg = linalg_for(args.device)  # a missing torch or CUDA fails now, in one line
    if args.device is not None and args.fast_svd:
        raise InvalidArgument("--fast-svd runs numpy's eigensolver; use it without --device")
    checkpoint = open_checkpoint(args.model, num_heads=args.num_heads, family=args.family)
    jobs, chosen = (args.jobs, "given by --jobs") if args.jobs is not None else free_cores()
    # only the JSON, CSV and Parquet rows show the (1,1) norm (an N x N product per head) and the minimum
    # over [0, 2] (p_continuous, contribution_continuous): skip both otherwise
    rows_wanted = args.json or csv_path is not None or parquet_path is not None
    options = SpectraOptions(
        m=args.grid_m,
        dps=args.dps,
        jobs=jobs,
        fast_svd=args.fast_svd,
        entrywise_norms=rows_wanted,
        continuous=rows_wanted,
        device=args.device,
        coverage=True,
        digest=args.json,  # only the JSON's run block shows the content hash
    )
    if args.certify:  # one read of each layer gives the spectra and the certificates
        from numerics.certify.certified import certified_spectra

        spectra = certified_spectra(checkpoint, options)
    else:
        spectra = model_spectra(checkpoint, options)
    report = proxies(spectra, options)
    payload = report_json(report, args.model) if rows_wanted else {}
    payload["spectra_backend"] = linalg.name
    payload["jobs"] = {"workers": jobs, "chosen": chosen}
    coverage = report.coverage if report.coverage is not None else checkpoint.coverage()
    payload["coverage"] = [record.as_json() for record in coverage]
    backend = [f"spectra computed by {linalg.name}"] if args.device is not None else []
    text = "\n".join([format_table(report, args.model), *backend, "", *coverage_lines(coverage)])
    if args.json:  # the run block's content hash, from the digests the spectra's read took
        payload["run"] = run_block(args, {args.model: weights_sha256(checkpoint, report.layer_digests)})
    if args.certify:
        from numerics.certify.certified import certify_proxies
        from numerics.certify.report import add_intervals, summary_lines

        certified = certify_proxies(spectra, options)  # from the spectra's read
        if rows_wanted:
            add_intervals(payload, certified)
        text = "\n".join([text, *summary_lines(certified)])
    rendered = json_text(payload, f"the report of {args.model}", indent=1)  # NaN/inf refused before any write
    if csv_path is not None:
        write_csv(csv_path, payload["matrices"])
    if parquet_path is not None:
        write_parquet(parquet_path, report)
    print(rendered if args.json else text)
    return 0
