"""Process CPU of ``specbound prove`` on easy statements against z3 on the same statements, in one run.

Twenty easy statements a theorist types (sums of monomials: polynomials, a division by a monomial, integer
and real variables, a conjunction), which ``prove`` reads with the parser's polynomial back end and no sympy
(theory.prover.monomials), and six easy ones outside it (Abs, Max, Min, sqrt, a power or a product of a sum:
read by sympy, whose import they pay). Each is first decided in this process by specbound and by z3 (the
statement translated to SMT-LIB 2 by benchmarks/prover_peers.py); then, for the ones both prove, each
``specbound prove`` process and each ``python -c "import z3" + solve`` process runs once after a warm-up
(:func:`prover_peers.startup`: median process CPU, user + system, and the ratio specbound/z3). Target
(issue 48): the median of ``prove`` on the twenty <= 0.25 s.

Run: ``python benchmarks/prove_startup.py`` (z3 is the optional ``bench`` extra; without it, nothing is
measured).
"""

from __future__ import annotations

import importlib.util
import sys
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from prover_peers import Run, ask_peer, ask_specbound, startup, z3_check  # puts the root on sys.path

from tests.helpers.soundness_cases import TRUE, Case, Variable
from tests.helpers.soundness_terms import Term

UNIT, REAL = (Fraction(0), Fraction(1)), (None, None)
MONOMIAL_SUMS = [
    ("x", "<=", "x + 1", {"x": UNIT}),
    ("x^2 + 1", ">=", "2*x", {"x": REAL}),
    ("x^2 - 2*x + 1", ">=", "0", {"x": (Fraction(-10), Fraction(10))}),
    ("x*y", "<=", "1", {"x": UNIT, "y": UNIT}),
    ("x^3", "<=", "x", {"x": UNIT}),
    ("x^4 - x^2 + 1/4", ">=", "0", {"x": (Fraction(-2), Fraction(2))}),
    ("x^2 + y^2", ">=", "2*x*y", {"x": (Fraction(-3), Fraction(3)), "y": (Fraction(-3), Fraction(3))}),
    ("1/x", "<=", "1", {"x": (Fraction(1), Fraction(10))}),
    ("x + 1/x", ">=", "2", {"x": (Fraction(1, 10), Fraction(10))}),
    ("3*x - 2", "<=", "x^2 + 1", {"x": REAL}),
    ("x*y*z", "<=", "1", {"x": UNIT, "y": UNIT, "z": UNIT}),
    ("x^2*y^2", ">=", "0", {"x": REAL, "y": REAL}),
    ("2*x + 3*y", "<=", "5", {"x": UNIT, "y": UNIT}),
    ("x^5", "<=", "x^3", {"x": UNIT}),
    ("n^2", ">=", "n", {"n": (Fraction(1), None, "integer")}),
    ("x - x^2", "<=", "1/4", {"x": UNIT}),
    ("x*y + x + y", ">=", "-1", {"x": (Fraction(0), Fraction(2)), "y": (Fraction(0), Fraction(2))}),
    ("x^2/4 + 1", ">", "x - 1", {"x": REAL}),
    ("x^6 + 1", ">=", "x^3", {"x": (Fraction(-1), Fraction(2))}),
    ("x^3 - 3*x + 2", ">=", "0", {"x": (Fraction(0), Fraction(5))}),
]
"""(left, relation, right, {variable: (lo, hi[, "integer"])}); None for an infinite end."""
OUTSIDE = [
    ("Abs(x - 1) + 1/8", ">=", "1/8", {"x": REAL}),
    ("Max(x^2, x)", ">=", "x", {"x": (Fraction(-2), Fraction(2))}),
    ("Min(x, 2)", "<=", "x + 1", {"x": UNIT}),
    ("sqrt(x)", "<=", "1", {"x": UNIT}),
    ("(x - 1/3)^2", ">=", "0", {"x": REAL}),
    ("x*(1 - x)", "<=", "1/4", {"x": UNIT}),
]


def case(left: str, relation: str, right: str, variables: dict[str, tuple]) -> Case:  # type: ignore[type-arg]
    """A true statement as the soundness suite's case (its terms carry no mpmath value: none is refuted)."""
    made = tuple(
        Variable(name, ends[0], ends[1], integer=len(ends) > 2 and ends[2] == "integer")
        for name, ends in variables.items()
    )
    return Case("easy", Term(left, lambda _v: None), relation, Term(right, lambda _v: None), made, TRUE)


def measured(statements: list[tuple], title: str) -> str:  # type: ignore[type-arg]
    """The start-up line of :func:`prover_peers.startup` for the statements, after deciding each in
    process (specbound within 5 CPU s, z3 within 5 s)."""
    run = Run([case(*statement) for statement in statements])
    run.answers["specbound"] = [ask_specbound(c, 5.0) for c in run.cases]
    run.answers["z3"] = [ask_peer(z3_check, c, 5.0) for c in run.cases]
    missed = [
        c.statement for c, a in zip(run.cases, run.answers["specbound"], strict=True) if a.verdict != "proved"
    ]
    note = f" (not proved by specbound: {missed})" if missed else ""
    return f"{title}: {startup(run, len(statements))}{note}"


def main() -> int:
    if importlib.util.find_spec("z3") is None:
        print("z3 not installed (the bench extra), nothing measured")
        return 0
    print(measured(MONOMIAL_SUMS, "sums of monomials (no sympy)"))
    print(measured(OUTSIDE, "outside the polynomial back end (sympy imported)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
