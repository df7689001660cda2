"""``specbound correlate``: does a complexity measure rank trained models by their generalization gap?

Trains a family of small synthetic transformers varying depth, width, heads, learning rate, weight decay,
training-set size and label noise one at a time around a base, over several seeds
(:mod:`numerics.ranking.study`, cached on disk, worker processes); measures each model's 0-1 gap on a
held-out sample and eight measures (:mod:`numerics.ranking.measures`); prints, per measure, Kendall's tau
against the gap with its bootstrap interval, Jiang et al.'s granulated Psi and Dziugaite et al.'s
worst-environment sign-error (:mod:`numerics.ranking.statistics`). ``--report DIR`` writes
``DIR/correlate.md``, ``DIR/correlate.json`` and one figure per measure.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from numerics.safe_io import os_problem, write_text_atomically
from paper_checks.output_files import complete_or_removed, figure_files, json_text, prepare_folder
from paper_checks.run_metadata import run_block
from theory.errors import InvalidArgument, require

REPORT_TEXTS = ("correlate.md", "correlate.json")
"""The report's text files; beside them one figure per measure (:func:`report_files`)."""

if TYPE_CHECKING:
    from numerics.ranking.study import ModelRecord
    from numerics.ranking.table import RankingTable

HELP = "rank trained synthetic transformers by each complexity measure and by their gap (Kendall tau)"


def register(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``correlate``."""
    from numerics.ranking.study import PROFILES

    parser.add_argument(
        "--profile",
        choices=sorted(PROFILES),
        default="default",
        help="; ".join(f"{name}: {profile.description}" for name, profile in PROFILES.items()),
    )
    parser.add_argument("--jobs", type=int, default=None, help="worker processes (default: every core)")
    parser.add_argument(
        "--cache",
        metavar="DIR",
        default=None,
        help="cache folder (default $XDG_CACHE_HOME/specbound/correlate, ~/.cache/specbound/correlate when "
        "XDG_CACHE_HOME is unset)",
    )
    parser.add_argument("--no-cache", action="store_true", help="train every model again, cache nothing")
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="train on the Dask cluster at ADDRESS (e.g. tcp://host:8786) instead of local processes; "
        "the workers need the cache folder at the same path (needs specbound[sweep])",
    )
    parser.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples (1000)")
    parser.add_argument("--json", action="store_true", help="print the table as JSON")
    parser.add_argument(
        "--report",
        metavar="DIR",
        help="write DIR/correlate.md, DIR/correlate.json and a figure per measure (PNG, PDF, SVG); checked "
        "writable before the study, each file written atomically",
    )
    parser.add_argument("--force", action="store_true", help="let --report replace an existing report")


def run(args: argparse.Namespace) -> int:
    """Run (or resume) the study, rank the measures, print the table; write the report when asked."""
    require("torch", purpose="specbound correlate (it trains its models)")
    from numerics.ranking.measures import MEASURES
    from numerics.ranking.study import HYPERPARAMETERS, PROFILES, default_cache, run_study
    from numerics.ranking.table import ranking_table

    if args.jobs is not None and args.jobs < 1:
        raise InvalidArgument(f"--jobs={args.jobs} must be at least 1")
    if args.resamples < 10:
        raise InvalidArgument(f"--resamples={args.resamples} must be at least 10")
    names = report_files(MEASURES)
    directory = prepare_folder("--report", args.report, names, args.force) if args.report else None
    cache = None if args.no_cache else Path(args.cache).expanduser() if args.cache else default_cache()
    start = time.perf_counter()
    profile = PROFILES[args.profile]
    records = run_study(profile.points(), jobs=args.jobs, cache=cache, scheduler=args.scheduler)
    table = ranking_table(records, list(MEASURES), HYPERPARAMETERS, resamples=args.resamples)
    seconds = time.perf_counter() - start
    print(f"correlate: {len(records)} models ranked in {seconds:.1f} s", file=sys.stderr)
    data = {
        "profile": profile.name,
        "design": profile.description,
        "measures_described": MEASURES,
        **table.to_json(),
        "records": [r.as_dict() for r in records],
        "run": run_block(args),
    }
    markdown = f"# Ranking of generalization ({profile.name} profile)\n\n{profile.description}.\n\n"
    markdown += table.to_markdown()
    if args.json:
        print(json_text(data, "the ranking table"))
    else:
        print(markdown)
    if directory is not None:
        _write_report(directory, markdown, data, records, table)
    return 0


def report_files(measures: Iterable[str]) -> tuple[str, ...]:
    """Every file of a report on ``measures``: the texts and each measure's figure in every format."""
    return (*REPORT_TEXTS, *figure_files(f"correlate_{name}.png" for name in measures))


def _write_report(
    directory: Path,
    markdown: str,
    data: dict[str, object],
    records: Sequence[ModelRecord],
    table: RankingTable,
) -> None:
    from paper_checks.figures import measure_against_gap

    try:
        with complete_or_removed(directory, report_files([row.name for row in table.rows])):
            captions = []
            gaps = [r.gap for r in records]
            half = [r.half_width for r in records]
            for row in table.rows:
                path = directory / f"correlate_{row.name}.png"
                values = [r.measures[row.name] for r in records]
                caption = measure_against_gap(values, gaps, half, row.name, row.tau.value, path)
                captions.append(f"![{row.name}]({path.name})\n\n{caption}\n")
            write_text_atomically(directory / "correlate.md", markdown + "\n" + "\n".join(captions))
            write_text_atomically(directory / "correlate.json", json_text(data, "correlate.json") + "\n")
    except OSError as error:
        raise InvalidArgument(f"--report {str(directory)!r} cannot be written: {os_problem(error)}") from None
