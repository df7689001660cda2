"""``specbound check``: every claim of docs/claims.md gets a verdict, with provenance and evidence."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from numerics.progress import progress
from paper_checks.compare import changes, format_changes, load_claims
from paper_checks.context import RunContext
from paper_checks.registry import ClaimResult, discover, run_claim, select
from paper_checks.run_metadata import run_block

HELP = "check every claim of the paper (verified / refuted / open) on the default models and synthetic ones"

_COLUMNS = ("id", "claim", "verdict", "provenance", "evidence")
_WIDTHS = (3, 46, 8, 44, 0)


def register(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``check``."""
    parser.add_argument("--json", action="store_true", help='print {"claims": [...]} instead of the table')
    parser.add_argument("--report", metavar="DIR", help="write report.md, claims.json and PNG figures to DIR")
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
        help="also run the claims defined in the *.py modules of DIR (repeatable)",
    )


def _cell(text: str, width: int) -> str:
    if width == 0:
        return text
    return text if len(text) <= width else text[: width - 1] + "…"


def format_table(results: Sequence[ClaimResult]) -> str:
    """The results as a fixed-width table: id, claim, verdict, provenance, one-line evidence."""
    lines = ["  ".join(_cell(c, w).ljust(w) for c, w in zip(_COLUMNS, _WIDTHS, strict=True)).rstrip()]
    for r in results:
        cells = (r.id, r.title, r.verdict.value, r.provenance, r.evidence.replace("\n", " "))
        lines.append("  ".join(_cell(c, w).ljust(w) for c, w in zip(cells, _WIDTHS, strict=True)).rstrip())
    return "\n".join(lines)


def run_checks(
    only: str | None = None,
    claims_dirs: Sequence[str] = (),
    report_dir: str | None = None,
    certify: bool = False,
    args: argparse.Namespace | None = None,
) -> tuple[list[ClaimResult], dict[str, Any]]:
    """Run the selected claims on one shared context; write the report when ``report_dir`` is given.
    Returns the results and the run block (paper_checks.run_metadata) of the options in ``args``."""
    claims = select(discover(claims_dirs), only)
    figure_dir = Path(report_dir) if report_dir else None
    context = RunContext(quick=True, certify=certify, figure_dir=figure_dir)
    results = [run_claim(c, context) for c in progress(claims, total=len(claims), label="specbound check")]
    run_info = run_block(args or argparse.Namespace(), context.input_hashes())
    if figure_dir is not None:
        from paper_checks.report import write_report

        results = write_report(results, context, figure_dir, run_info)
    return results, run_info


def run(args: argparse.Namespace) -> int:
    """Print the verdicts; exit 1 when a check crashed (a refuted claim is a result, not a crash)."""
    old = load_claims(args.compare) if args.compare else None  # a bad file fails before the long run
    results, run_info = run_checks(args.only, args.claims_dir, args.report, args.certify, args)
    claims = [r.to_json() for r in results]
    rows = changes(old, claims) if old is not None else None
    if args.json:
        document: dict[str, Any] = {"claims": claims, "run": run_info}
        if rows is not None:
            document["compare"] = {"old": args.compare, "changes": rows}
        print(json.dumps(document, indent=2))
    else:
        print(format_table(results))
        counts = {v: sum(r.verdict.value == v for r in results) for v in ("verified", "refuted", "open")}
        print(
            f"\n{len(results)} claims: {counts['verified']} verified, {counts['refuted']} refuted, "
            f"{counts['open']} open" + (f"; report in {args.report}" if args.report else "")
        )
        if rows is not None:
            print("\n" + format_changes(rows, args.compare))
    crashed = [r for r in results if r.crashed]
    for r in crashed:
        print(f"specbound check: claim {r.id} crashed: {r.error}", file=sys.stderr)
    return 1 if crashed else 0
