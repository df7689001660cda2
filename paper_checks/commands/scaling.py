"""``specbound scaling [DIR ...]``: how B_ours and B_Edelman grow with depth L and width N.

Points: every checkpoint under the DIRs given (for example a folder holding the Google BERT miniatures
``bert_uncased_L-*_H-*``), the embedded checkpoints and the prefixes of their layers (labelled as
truncations, ``--real``), and a grid of small BERT-style encoders trained on CPU (``--grid``). With DIRs
named, only they are studied unless ``--real`` or ``--grid`` asks for more (the full grid trains 16 models,
about 45 s of CPU); with none, the embedded checkpoints and the full grid. Growth is summarised by fitted
log-log exponents in L and N with their standard errors.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from paper_checks.context import RunContext
from paper_checks.output_files import (
    checkpoint_inputs,
    complete_or_removed,
    figure_files,
    json_text,
    prepare_folder,
)
from paper_checks.run_metadata import run_block
from theory.errors import InvalidArgument

if TYPE_CHECKING:
    from paper_checks.scaling import ScalingStudy

HELP = (
    "fit the growth of B_ours and B_Edelman in depth and width (real, truncated, synthetic, your checkpoints)"
)

GRIDS = ("full", "none", "quick")
"""The synthetic grids of ``--grid``: paper_checks.scaling's FULL_GRID and QUICK_GRID, or none."""
FIGURES = {"proxies_vs_depth.png": "L", "proxies_vs_width.png": "N"}


def register(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``scaling``."""
    parser.add_argument(
        "paths", nargs="*", metavar="DIR", help="checkpoints, or folders of checkpoint folders"
    )
    parser.add_argument("--json", action="store_true", help="print points and fitted exponents as JSON")
    parser.add_argument(
        "--grid",
        choices=GRIDS,
        help="synthetic grid to train: full (16 models, about 45 s of CPU), quick (9) or none "
        "(default: none when a DIR is named, else full)",
    )
    parser.add_argument(
        "--real",
        action=argparse.BooleanOptionalAction,
        help="also study the embedded checkpoints minilm-l6 and minilm-l3 and their layer prefixes "
        "(default: only when no DIR is named)",
    )
    parser.add_argument(
        "--figures",
        metavar="DIR",
        help=f"write {' and '.join(FIGURES)} (and each as PDF and SVG) to DIR (checked writable before the "
        "work, written atomically)",
    )
    parser.add_argument("--force", action="store_true", help="let --figures replace existing figures")


def format_study(study: ScalingStudy) -> str:
    """Points (one row each) and the fitted exponents, as text."""
    lines = [f"{'model':46} {'origin':10} {'L':>3} {'N':>5} {'ln B_ours':>10} {'ln B_Edelman':>13}"]
    for q in study.points:
        sizes = f"{q.layers:3d} {q.width:5d}"
        lines.append(f"{q.label[:46]:46} {q.origin:10} {sizes} {q.log_ours:10.3f} {q.log_edelman:13.3f}")
    lines.append("\nfitted growth (log-log, one intercept per series, ± one standard error):")
    for origin in ("real", "truncated", "synthetic", "user"):
        for axis in ("L", "N"):
            fits = [study.exponent(proxy, axis, (origin,)) for proxy in ("ours", "edelman")]
            if all(f is not None for f in fits):
                lines.append(f"  {origin:9} {axis}: " + "; ".join(str(f) for f in fits))
            rate = study.rate("edelman", axis, (origin,))
            if axis == "L" and rate is not None and rate.stderr is not None:
                lines.append(
                    f"  {origin:9} L: ln B_Edelman grows by {rate.value:.2f} ± {rate.stderr:.2f} per layer"
                )
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Run the study and print it."""
    from paper_checks.scaling import FULL_GRID, QUICK_GRID, run_study

    grid_name = args.grid or ("none" if args.paths else "full")
    include_real = args.real if args.real is not None else not args.paths
    grid = {"quick": QUICK_GRID, "full": FULL_GRID, "none": None}[grid_name]
    if grid is None and not include_real and not args.paths:
        raise InvalidArgument("nothing to study: --grid none and --no-real with no checkpoint DIR given")
    directory = (
        prepare_folder(
            "--figures", args.figures, figure_files(FIGURES), args.force, checkpoint_inputs(args.paths)
        )
        if args.figures
        else None
    )
    context = RunContext(quick=grid_name != "full", user_checkpoints=tuple(args.paths))
    study = run_study(context, grid, args.paths, include_real=include_real)
    document = {**study.to_json(), "run": run_block(args, context.input_hashes())}
    studied = (
        f"studied: {len(args.paths)} named path(s); embedded checkpoints: {'yes' if include_real else 'no'}; "
        f"synthetic grid: {grid_name}\n"
    )
    print(
        json_text(document, "the scaling study") if args.json else studied + format_study(study), flush=True
    )
    if directory is not None:
        from paper_checks.figures import proxy_scaling

        with complete_or_removed(directory, figure_files(FIGURES)):
            for name, axis in FIGURES.items():
                proxy_scaling(study.points, axis, directory / name)
    return 0
