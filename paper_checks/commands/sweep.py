"""``specbound sweep CHECKPOINT...|DIR --out FILE``: one row per checkpoint, resumable, local or on Dask.

Each checkpoint's B_ours, B_Edelman (the exact proxies, as ``bound`` computes them), sizes and post hoc
p profile (:func:`numerics.batch.sweep.sweep_row`), cached by the sha256 of its files so a rerun skips what is
done; written as one table (``.parquet`` through pandas + pyarrow, or ``.csv``), with ``--figures DIR``
the proxies and the p profile against training step or model size. A DIR that is not itself a
checkpoint stands for the checkpoints in it (sub-folders and weights files), ordered by the step in their
names (``checkpoint-500``), then by name.
"""

from __future__ import annotations

import argparse
import csv
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from numerics.batch.workers import default_jobs
from numerics.formulas.precision import DEFAULT_DPS
from numerics.safe_io import atomic_path, os_problem
from paper_checks.commands._model import add_family_argument
from paper_checks.output_files import (
    check_target,
    checkpoint_inputs,
    complete_or_removed,
    figure_files,
    prepare_folder,
)
from theory.errors import CheckpointError, InvalidArgument, UnsupportedCheckpoint, require
from theory.prover.counts import counted

FIGURE_FILES = ("proxies.png", "p_opt.png")
"""The figures ``--figures`` writes (each also as PDF and SVG); replaced only with ``--force``."""

HELP = "B_ours, B_Edelman and the p profile of many checkpoints as one table (cached; local or Dask)"


def register(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``sweep``."""
    parser.add_argument("checkpoints", nargs="+", metavar="CHECKPOINT", help="checkpoints, aliases or DIRs")
    parser.add_argument(
        "--out",
        required=True,
        metavar="FILE",
        help="the table: FILE.parquet or FILE.csv (written atomically; an existing FILE only with --force)",
    )
    parser.add_argument("--force", action="store_true", help="let --out and --figures replace existing files")
    parser.add_argument(
        "--cache", default=".specbound-cache", metavar="DIR", help="cached rows (default .specbound-cache)"
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=default_jobs(),
        metavar="N",
        help="local processes (default: one per free core)",
    )
    parser.add_argument("--scheduler", metavar="ADDRESS", help="compute on this Dask distributed scheduler")
    parser.add_argument("--figures", metavar="DIR", help="write DIR/proxies.png and DIR/p_opt.png")
    parser.add_argument("--dps", type=int, default=DEFAULT_DPS, metavar="D", help="decimal digits")
    parser.add_argument("--grid-m", type=int, metavar="M", help="grid P_m (default ceil(L + ln N) per model)")
    parser.add_argument("--fast-svd", action="store_true", help="as for bound: the Gram path where decided")
    parser.add_argument("--num-heads", type=int, metavar="H", help="heads, for bare weights files")
    add_family_argument(parser)


def _step_then_name(path: Path) -> tuple[int, int, str]:
    from numerics.batch.sweep import step_of

    step = step_of(str(path))
    return (step is None, step or 0, path.name)


def _names_a_checkpoint(folder: Path) -> bool:
    """True when ``folder`` holds a config or weights file of a Hugging Face checkpoint (any kind of file)."""
    from numerics.loading.hf_folder import CONFIG_NAME, WEIGHT_NAMES
    from numerics.loading.tensors import BIN_SHARD_INDEX, SHARD_INDEX

    names = (CONFIG_NAME, *WEIGHT_NAMES, SHARD_INDEX, BIN_SHARD_INDEX)
    return any(os.path.lexists(folder / name) for name in names)


def _looks_like_a_checkpoint(path: Path) -> bool:
    """True for a folder holding a checkpoint's files and for a regular file with a weights suffix: inside
    a swept folder, such an entry that cannot be read is an error; anything else (a README, a FIFO, a
    log) is not a checkpoint and is passed over."""
    if path.is_dir():
        return _names_a_checkpoint(path)
    return path.suffix in CHECKPOINT_SUFFIXES and path.is_file()


CHECKPOINT_SUFFIXES = (".safetensors", ".bin", ".onnx")
"""Suffixes of the weights files a checkpoint may be (numerics.loading.checkpoint reads these)."""


def expand(arguments: Sequence[str]) -> list[str]:
    """The checkpoints named: each argument itself, or, for a folder that is not one, the ones inside it."""
    from numerics.loading.checkpoint import checkpoint_files

    found: list[str] = []
    for argument in arguments:
        try:
            checkpoint_files(argument)
            found.append(argument)
            continue
        except (CheckpointError, UnsupportedCheckpoint):
            if not Path(argument).is_dir() or _names_a_checkpoint(Path(argument)):
                raise  # a damaged checkpoint folder is refused, not swept as a folder of its files
        inside = []
        for child in sorted(Path(argument).iterdir(), key=_step_then_name):
            try:
                checkpoint_files(child)
            except (CheckpointError, UnsupportedCheckpoint):
                if _looks_like_a_checkpoint(child):
                    raise  # reported, never dropped from the table silently
                continue
            inside.append(str(child))
        if not inside:
            raise CheckpointError(f"{argument} is neither a checkpoint nor a folder of checkpoints")
        found += inside
    return found


def check_table_path(path: Path) -> None:
    """Refuse an --out that is neither .parquet nor .csv (before any checkpoint is computed)."""
    if path.suffix.lower() not in (".parquet", ".csv"):
        raise InvalidArgument(f"--out {str(path)!r}: give a .parquet or .csv file")


def write_table(rows: Sequence[dict[str, Any]], path: Path) -> None:
    """``rows`` as Parquet (pandas + pyarrow) or CSV, chosen by the suffix of ``path``."""
    check_table_path(path)
    suffix = path.suffix.lower()
    try:
        if suffix == ".csv":
            with atomic_path(path) as temporary, temporary.open("w", newline="", encoding="utf-8") as handle:
                writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
                writer.writeheader()
                writer.writerows(rows)
            return
        pd = require("pandas", purpose="--parquet")
        require("pyarrow", purpose="--parquet")

        with atomic_path(path) as temporary:
            pd.DataFrame(list(rows)).to_parquet(temporary, index=False)
    except OSError as error:
        raise InvalidArgument(f"--out {str(path)!r} cannot be written: {os_problem(error)}") from None


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    return f"{value:.6g}" if isinstance(value, float) else str(value)


def run(args: argparse.Namespace) -> int:
    """Expand, compute or read from the cache, write the table (and figures), print a summary."""
    from numerics.batch.sweep import SweepSettings, sweep

    check_table_path(Path(args.out))
    sources = expand(args.checkpoints)
    inputs = checkpoint_inputs(sources)
    out = check_target("--out", args.out, force=args.force, inputs=inputs)
    if args.figures:
        prepare_folder("--figures", args.figures, figure_files(FIGURE_FILES), args.force, inputs)
    settings = SweepSettings(
        m=args.grid_m, dps=args.dps, fast_svd=args.fast_svd, num_heads=args.num_heads, family=args.family
    )
    rows, from_cache = sweep(sources, settings, Path(args.cache), jobs=args.jobs, scheduler=args.scheduler)
    write_table(rows, out)
    columns = ("model", "step", "L", "N", "heads", "B_ours", "log10_B_Edelman", "mean_p_opt")
    lines = ["  ".join(columns)]
    lines += ["  ".join(_cell(row[column]) for column in columns) for row in rows]
    where = "on " + args.scheduler if args.scheduler else f"locally ({counted(args.jobs, 'job')})"
    lines.append(
        f"{counted(len(rows), 'checkpoint')}: {from_cache} from the cache {args.cache}, "
        f"{len(rows) - from_cache} computed {where}; table written to {args.out}"
    )
    if args.figures:
        from paper_checks.sweep_figures import sweep_figures

        with complete_or_removed(Path(args.figures), figure_files(FIGURE_FILES)):
            written = sweep_figures(rows, Path(args.figures))
        lines.append("figures: " + ", ".join(str(path) for path in written))
    print("\n".join(lines))
    return 0
