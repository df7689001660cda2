"""``specbound compare [MODEL]``: every bound on the same weights as a generalization gap on one footing.

One row per bound (:func:`numerics.bounds.comparison.compare_bounds`): Bartlett-Foster-Telgarsky 2017,
Edelman et al. 2022, Trauger-Tewari 2024, a parameter-count bound and the assembled bound, each a gap at
the stated n, delta, margin and T with its constants written out ("constants 1" where the paper gives
none, theory.comparison); then the authors' proxies B_ours and B_Edelman (exact) and their labelled
theory-consistent variants, which are complexities and not gaps. Each row names its provenance, its
reference with the theorem number and its assumptions.
"""

from __future__ import annotations

import argparse

from paper_checks.commands._model import add_model_arguments
from paper_checks.output_files import json_text
from theory.errors import InvalidArgument

HELP = "every published bound and the proxies on one checkpoint's weights, as gaps on one footing"

DEFAULT_N, DEFAULT_DELTA, DEFAULT_MARGIN, DEFAULT_T = 1000, 0.1, 1.0, 16
"""The footing of the regimes table (theory.regimes: n = 1000, delta = 1/10, margin 1, T = 16)."""


def register(parser: argparse.ArgumentParser) -> None:
    """MODEL, --n, --delta, --margin, --T, --json."""
    add_model_arguments(parser)
    parser.add_argument("--n", type=int, default=DEFAULT_N, help=f"samples (default {DEFAULT_N})")
    parser.add_argument(
        "--delta", type=float, default=DEFAULT_DELTA, help=f"confidence in (0, 1) (default {DEFAULT_DELTA})"
    )
    parser.add_argument(
        "--margin",
        type=float,
        default=DEFAULT_MARGIN,
        help=f"margin in (0, 1], fixed before training (default {DEFAULT_MARGIN})",
    )
    parser.add_argument(
        "--T", dest="tokens", type=int, default=DEFAULT_T, help=f"tokens per sample (default {DEFAULT_T})"
    )
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")


def _short(value: object) -> str:
    import mpmath

    return "-" if value is None else mpmath.nstr(value, 6)


def format_table(result: object) -> str:
    """The rows as a text table, then each row's formula, provenance, reference and assumptions."""
    from numerics.bounds.comparison import Comparison

    assert isinstance(result, Comparison)
    header = ("bound", "gap", "complexity", "constants", "provenance")
    table = [header] + [
        (r.name, _short(r.gap), _short(r.complexity), r.constants, r.provenance.split(" (")[0])
        for r in result.rows
    ]
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    lines = [
        f"model {result.source}: L={result.num_layers}, N={result.hidden_size}, heads={result.num_heads}",
        f"footing: generalization gap at n = {result.n}, delta = {result.delta}, margin = {result.margin}, "
        f"T = {result.tokens} (a proxy row is a complexity, not a gap)",
        "",
        *("  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)) for line in table),
        "",
    ]
    for r in result.rows:
        lines += [f"{r.name}: {r.formula}", f"  {r.provenance}; {r.reference}", f"  assumes: {r.assumptions}"]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Compute every row on the model's weights and print them."""
    from numerics.bounds.assembled import check_inputs
    from numerics.bounds.comparison import compare_bounds
    from numerics.loading import open_checkpoint

    if args.n < 2:
        raise InvalidArgument(f"--n={args.n} must be an integer >= 2")
    check_inputs(args.n, args.delta, args.margin, args.tokens)  # before the checkpoint is read
    checkpoint = open_checkpoint(args.model, num_heads=args.num_heads, family=args.family)
    result = compare_bounds(checkpoint, n=args.n, delta=args.delta, margin=args.margin, T=args.tokens)
    if args.json:
        document = {
            "model": args.model,
            "L": result.num_layers,
            "N": result.hidden_size,
            "heads": result.num_heads,
            "footing": {"n": result.n, "delta": result.delta, "margin": result.margin, "T": result.tokens},
            "rows": [r.as_json() for r in result.rows],
        }
        print(json_text(document, f"the comparison of {args.model}", indent=1))
    else:
        print(format_table(result))
    return 0
