"""The soundness suite's judge: each generated case goes to the prover's library entry (the function
``specbound prove`` calls), and the verdict is compared with the case's truth fixed by the generator.

Wrong (the suite asserts none):
- ``proved`` a statement that is false or undefined somewhere on its domain;
- ``refuted`` a true statement, or a refutation whose witness mpmath (at :data:`~soundness_terms.DIGITS`
  digits) does not confirm: outside the domain, undefined there, or the claim holding there;
- refused as "undefined at" a point a statement the generator built defined everywhere;
- any exception other than the library's one-line errors (a crash is not a verdict).

Refused (a one-line error: definedness undecided, an undefined statement) and undecided are not wrong.
Run as a script (``python -m tests.helpers.soundness_judge --count 5000 --seed 40``) it prints the
per-family table of docs/prover.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from fractions import Fraction

from tests.helpers.soundness_cases import FALSE, TRUE, UNDEFINED, Case, generate

FAST_COUNT, SLOW_COUNT = 240, 5000
FAST_BUDGET, SLOW_BUDGET = 0.02, 0.1
"""Statements and CPU seconds of search per statement of the fast and slow tiers."""
MAX_BOXES = 200
SEED = 40
COLUMNS = ["generated", TRUE, FALSE, UNDEFINED, "proved", "refuted", "undecided", "refused", "wrong"]


@dataclass(frozen=True)
class Outcome:
    """The prover's verdict on a case ("proved", "refuted", "undecided", "refused") and why it is wrong
    ("" when it is not)."""

    case: Case
    verdict: str
    wrong: str = ""


def judge(case: Case, budget: float, max_boxes: int = MAX_BOXES, solver: bool = True) -> Outcome:
    """Prove the case's statement over its domain within ``budget`` CPU seconds (``solver``: z3 may
    propose points when installed, as in ``specbound prove``) and judge the verdict."""
    from theory.errors import SpecboundError
    from theory.prover import prove

    try:
        result = prove(case.statement, case.domain, budget, max_boxes, solver)
    except SpecboundError as error:
        if "undefined at" in str(error) and case.truth != UNDEFINED:
            return Outcome(case, "refused", f"a statement defined everywhere refused as undefined: {error}")
        return Outcome(case, "refused")
    except Exception as error:  # a crash is recorded as wrong, with its type
        return Outcome(case, "crashed", f"{type(error).__name__}: {error}")
    verdict = str(result.status)
    if verdict == "proved" and case.truth != TRUE:
        return Outcome(case, verdict, f"proved, but the statement is {case.truth} (witness {case.witness})")
    if verdict == "refuted":
        if case.truth == TRUE:
            return Outcome(case, verdict, "refuted a true statement")
        witness = next(part.witness for part in result.parts if part.witness is not None)
        point = {name: Fraction(value) for name, value in witness.point.items()}
        if not case.fails_at(point):
            return Outcome(case, verdict, f"refuted with a witness mpmath does not confirm: {point}")
    return Outcome(case, verdict)


def run(count: int, seed: int, budget: float) -> list[Outcome]:
    """Judge ``count`` generated cases."""
    return [judge(case, budget) for case in generate(count, seed)]


def table(outcomes: list[Outcome]) -> dict[str, Counter[str]]:
    """Per family: cases generated, per truth, per verdict, wrong."""
    rows: dict[str, Counter[str]] = defaultdict(Counter)
    for outcome in outcomes:
        for key in ("generated", outcome.case.truth, outcome.verdict):
            rows[outcome.case.family][key] += 1
        rows[outcome.case.family]["wrong"] += bool(outcome.wrong)
    return rows


def markdown(rows: dict[str, Counter[str]]) -> str:
    """The table as docs/prover.md shows it, with a total row."""
    total: Counter[str] = Counter()
    lines = ["| family | " + " | ".join(COLUMNS) + " |", "| --- |" + " ---: |" * len(COLUMNS)]
    for family, row in rows.items():
        total.update(row)
        lines.append(f"| {family} | " + " | ".join(str(row[c]) for c in COLUMNS) + " |")
    lines.append("| **all** | " + " | ".join(f"**{total[c]}**" for c in COLUMNS) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=SLOW_COUNT)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--budget", type=float, default=SLOW_BUDGET)
    args = parser.parse_args(argv)
    start = time.process_time()
    outcomes = run(args.count, args.seed, args.budget)
    print(markdown(table(outcomes)))
    print(
        f"\nseed {args.seed}, {args.count} statements, {args.budget} CPU s each at most: "
        f"{time.process_time() - start:.1f} CPU s"
    )
    for outcome in outcomes:
        if outcome.wrong:
            case = outcome.case
            print(f"WRONG [{case.family}] {case.statement} over {case.domain}: {outcome.wrong}")
    return 1 if any(o.wrong for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
