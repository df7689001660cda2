"""``specbound gap``: train the synthetic grid, measure each model's gap, and compare it with the bounds.

Trains small transformers of the reconstructed theory's class (:mod:`numerics.synthetic`) on sparse
token selection, clean and with label noise, measures training and held-out 0-1 and ramp risks
(:mod:`numerics.synthetic.gap`, Hoeffding half-width stated), evaluates the assembled bound (theory's
GAP_TERM, reconstructed Theorem 3.1) and the Edelman-type gap shape on the same weights, and prints the ratio
table bound / measured gap. ``--report DIR`` writes ``DIR/gap.md`` and ``DIR/gap.json``.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from numerics.synthetic.defaults import DEFAULT_DELTA, DEFAULT_MARGIN, DEFAULT_N_TEST
from paper_checks.output_files import json_text, prepare_folder, write_text_atomically
from paper_checks.run_metadata import markdown, run_block
from theory.errors import InvalidArgument, require

REPORT_FILES = ("gap.md", "gap.json")

HELP = "train small synthetic transformers and print the ratio of the bounds to their measured gaps"


def register(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``gap``."""
    parser.add_argument("--json", action="store_true", help="print the table as JSON")
    parser.add_argument(
        "--report",
        metavar="DIR",
        help="write DIR/gap.md and DIR/gap.json (checked writable before the work, written atomically)",
    )
    parser.add_argument("--force", action="store_true", help="let --report replace an existing gap report")
    parser.add_argument(
        "--thorough", action="store_true", help="the larger grid: more sizes, 2 heads, 2 seeds (40 models)"
    )
    parser.add_argument(
        "--margin", type=float, default=DEFAULT_MARGIN, help=f"ramp-loss margin in (0, 1] ({DEFAULT_MARGIN})"
    )
    parser.add_argument(
        "--delta",
        type=float,
        default=DEFAULT_DELTA,
        help=f"confidence of the bound in (0, 1) ({DEFAULT_DELTA})",
    )
    parser.add_argument(
        "--n-test", type=int, default=DEFAULT_N_TEST, help=f"held-out samples per model ({DEFAULT_N_TEST})"
    )


def run(args: argparse.Namespace) -> int:
    """Train, measure, bound, print; write the report when asked."""
    require("torch", purpose="specbound gap (it trains a model)")
    if not 0 < args.margin <= 1:
        raise InvalidArgument(f"--margin={args.margin} must be in (0, 1]: the models' outputs lie in [-1, 1]")
    if not 0 < args.delta < 1:
        raise InvalidArgument(f"--delta={args.delta} must be in (0, 1)")
    if args.n_test < 100:
        raise InvalidArgument(f"--n-test={args.n_test} must be at least 100 for a meaningful interval")
    directory = prepare_folder("--report", args.report, REPORT_FILES, args.force) if args.report else None
    from numerics.synthetic.gap import default_grid, ratio_table, train_grid

    start = time.perf_counter()
    trained = train_grid(default_grid(thorough=args.thorough))
    table = ratio_table(trained, margin=args.margin, delta=args.delta, n_test=args.n_test)
    seconds = time.perf_counter() - start
    document: dict[str, Any] = {**table.to_json(), "run": run_block(args)}
    if args.json:
        print(json_text({**document, "seconds": round(seconds, 1)}, "the gap table", indent=2))
    else:
        print(table.to_markdown())
        print(f"{len(trained)} models trained and bounded in {seconds:.1f} s")
    if directory is not None:
        write_text_atomically(directory / "gap.md", f"{markdown(document['run'])}\n\n{table.to_markdown()}")
        write_text_atomically(directory / "gap.json", json_text(document, "gap.json") + "\n")
    return 0
