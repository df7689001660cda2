"""``specbound theory``: every lemma of the bound with its statement, assumptions, provenance and checks."""

from __future__ import annotations

import argparse
import json

HELP = "every lemma of the bound: statement, assumptions, provenance, source and its symbolic self-checks"


def register(parser: argparse.ArgumentParser) -> None:
    """--json prints {"lemmas": [...]}; --regimes adds the Section 5 depth/width table."""
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.add_argument(
        "--regimes", action="store_true", help="also print the Section 5 growth-exponent table"
    )


def run(args: argparse.Namespace) -> int:
    """Print every lemma; a failing check is reported (exit status 0), never raised."""
    from numerics.progress import stage
    from paper_checks.run_metadata import run_block
    from theory.registry import run_all_checks

    stage("theory: running the symbolic self-checks of every lemma")
    report = run_all_checks()
    if args.json:
        document: dict[str, object] = {"lemmas": [lemma.to_json() for lemma, _ in report.entries]}
        document["helper_controls"] = [r.to_json() for r in report.controls]
        document["summary"] = {"checks": report.total, "failed": len(report.failed)}
        document["run"] = run_block(args)
        if args.regimes:
            from theory.regimes import to_json

            stage("theory: deriving the regime table (sympy limits)")
            document["regimes"] = json.loads(to_json())
        print(json.dumps(document, indent=2))
        return 0
    for lemma, results in report.entries:
        print(f"[step {lemma.step}] {lemma.title}  ({lemma.tag.provenance.value}; {lemma.tag.source})")
        if lemma.tag.derivation is not None:
            print(f"    derived by: {lemma.tag.derivation.operation}")
        for part in lemma.statement_latex():
            print(f"    $ {part} $")
        for assumption in lemma.assumptions:
            print(f"    assumes: {assumption}")
        for result in results:
            status = "pass" if result.verdict else "FAIL"
            print(f"    [{status}] {result.name}: {result.description}")
            if not result.verdict:
                print(f"           witness: {result.witness}")
    for result in report.controls:
        status = "pass" if result.verdict else "FAIL"
        print(
            f"[helper control] [{status}] {result.name}" + ("" if result.verdict else f": {result.witness}")
        )
    print(f"{report.total} checks, {len(report.failed)} failing, over {len(report.entries)} lemmas")
    if args.regimes:
        from theory.regimes import to_markdown

        stage("theory: deriving the regime table (sympy limits)")
        print(to_markdown())
    return 0
