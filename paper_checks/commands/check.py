"""``specbound check``: every claim of docs/claims.md gets a verdict, with provenance and evidence."""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Sequence
from typing import Any

from numerics.progress import progress
from paper_checks.compare import changes, format_changes, load_claims
from paper_checks.context import RunContext
from paper_checks.output_files import json_text, prepare_folder
from paper_checks.registry import ClaimResult, Verdict, discover, run_claim, select, selected
from paper_checks.report import REPORT_FILES, write_report
from paper_checks.run_metadata import run_block
from theory.prover.counts import counted

HELP = "check every claim of the paper (verified / refuted / open) on the default models and synthetic ones"

EXIT_ALL_HELD = 0
"""Every selected claim is verified or open."""
EXIT_REFUTED = 1
"""At least one claim is refuted (as a test runner exits 1 on a failed test)."""
EXIT_CRASHED = 3
"""At least one check raised instead of reaching a verdict (2 stays the CLI's bad-input status)."""

EXIT_STATUS_HELP = (
    f"exit status: {EXIT_ALL_HELD} when every claim is verified or open, {EXIT_REFUTED} when at least one "
    f"claim is refuted, {EXIT_CRASHED} when a check crashed (it wins over refuted), 2 on bad input"
)

TABLE_WIDTH = 100
"""Columns of the text table: each claim's title, provenance and evidence wrap below its id and verdict."""
_ID_WIDTH, _VERDICT_WIDTH = 5, max(10, *(len(v.value) + 2 for v in Verdict))


def register(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``check``; its --help ends with the exit statuses."""
    parser.epilog = EXIT_STATUS_HELP
    parser.add_argument("--json", action="store_true", help='print {"claims": [...]} instead of the table')
    parser.add_argument(
        "--report",
        metavar="DIR",
        help="write report.md, claims.json and PNG figures to DIR (checked writable before the work; "
        "each file written atomically)",
    )
    parser.add_argument("--force", action="store_true", help="let --report replace an existing report in DIR")
    parser.add_argument("--only", metavar="IDS", help="comma-separated claim ids to run (default: all)")
    parser.add_argument(
        "--certify",
        action="store_true",
        help="also decide the real-weight facts of claims 10 and 11 with certified intervals (slower)",
    )
    parser.add_argument(
        "--compare",
        metavar="OLD.json",
        help="also show what changed since an earlier run (its --json output or claims.json)",
    )
    parser.add_argument(
        "--claims-dir",
        metavar="DIR",
        action="append",
        default=[],
        help="also run the claims defined in the *.py modules of DIR (repeatable); claim files are "
        "Python code and run with your permissions: use only folders you trust",
    )


def _wrapped(text: str, first: str, indent: int) -> list[str]:
    """``first`` followed by ``text`` wrapped to TABLE_WIDTH, continuation lines indented by ``indent``."""
    return textwrap.wrap(
        " ".join(text.split()),
        width=TABLE_WIDTH,
        initial_indent=first,
        subsequent_indent=" " * indent,
        break_on_hyphens=False,
    ) or [first.rstrip()]


def format_table(results: Sequence[ClaimResult]) -> str:
    """The results as text no wider than TABLE_WIDTH (a word longer than a line excepted): per claim, its
    id, verdict and whole title, then its provenance and its evidence, each wrapped under the title."""
    indent = _ID_WIDTH + _VERDICT_WIDTH
    lines = [f"{'id':{_ID_WIDTH}}{'verdict':{_VERDICT_WIDTH}}claim"]
    for r in results:
        verdict = "crashed" if r.crashed else r.verdict.value
        lines += _wrapped(r.title, f"{r.id:{_ID_WIDTH}}{verdict:{_VERDICT_WIDTH}}", indent)
        lines += _wrapped(r.provenance, " " * indent + "provenance: ", indent + 2)
        lines += _wrapped(r.evidence, " " * indent + "evidence: ", indent + 2)
    return "\n".join(lines)


def evaluate_claims(
    only: str | None = None,
    claims_dirs: Sequence[str] = (),
    report_dir: str | None = None,
    certify: bool = False,
    force: bool = False,
) -> tuple[list[ClaimResult], RunContext]:
    """Run the selected claims on one shared context; the report folder, if any, is checked first."""
    claims = select(discover(claims_dirs, only), only)
    figure_dir = prepare_folder("--report", report_dir, REPORT_FILES, force) if report_dir else None
    context = RunContext(quick=True, certify=certify, figure_dir=figure_dir)
    results = [
        run_claim(c, context)
        for c in progress(
            claims, total=len(claims), label="specbound check", unit="claim", name=lambda c: f"claim {c.id}"
        )
    ]
    return results, context


def summary_line(results: Sequence[ClaimResult]) -> str:
    """ "N claims: a verified, b refuted, c open, d crashed": a crashed check reached no verdict, so it is
    counted apart from the open claims (whose evidence says why they stay open)."""
    decided = [r for r in results if not r.crashed]
    counts = {v: sum(r.verdict is v for r in decided) for v in Verdict}
    built = counts[Verdict.BY_CONSTRUCTION]
    return (
        f"{counted(len(results), 'claim')}: {counts[Verdict.VERIFIED]} verified, "
        f"{counts[Verdict.REFUTED]} refuted, {counts[Verdict.OPEN]} open, "
        + (f"{built} by construction, " if built else "")
        + f"{len(results) - len(decided)} crashed"
    )


def exit_status(results: Sequence[ClaimResult]) -> int:
    """EXIT_CRASHED if a check crashed, else EXIT_REFUTED if a claim is refuted, else EXIT_ALL_HELD."""
    if any(r.crashed for r in results):
        return EXIT_CRASHED
    if any(r.verdict is Verdict.REFUTED for r in results):
        return EXIT_REFUTED
    return EXIT_ALL_HELD


def run(args: argparse.Namespace) -> int:
    """Print the verdicts (before the report is written), then write the report; the exit status is
    :func:`exit_status` (1: a claim refuted, 3: a check crashed)."""
    old = load_claims(args.compare) if args.compare else None  # a bad file fails before the long run
    results, context = evaluate_claims(args.only, args.claims_dir, args.report, args.certify, args.force)
    run_info = run_block(args, context.input_hashes())
    if old is not None:  # claims left out by --only were not run, not removed
        old = {claim_id: claim for claim_id, claim in old.items() if selected(args.only, claim_id)}
    rows = changes(old, [r.to_json() for r in results]) if old is not None else None
    if args.json:
        try:
            if context.figure_dir is not None:
                results = write_report(results, context, context.figure_dir, run_info)
        finally:  # the verdicts are printed even when the report cannot be written
            document: dict[str, Any] = {"claims": [r.to_json() for r in results], "run": run_info}
            if rows is not None:
                document["compare"] = {"old": args.compare, "changes": rows}
            print(json_text(document, "the verdicts"))
    else:
        print(format_table(results), flush=True)
        if context.figure_dir is not None:
            results = write_report(results, context, context.figure_dir, run_info)
        print(f"\n{summary_line(results)}" + (f"; report in {args.report}" if args.report else ""))
        if rows is not None:
            print("\n" + format_changes(rows, args.compare))
    crashed = [r for r in results if r.crashed]
    for r in crashed:
        print(f"specbound check: claim {r.id} crashed: {r.error}", file=sys.stderr)
    return exit_status(results)
