"""Process CPU of ``specbound prove`` on easy statements against z3 on the same statements, in one run.

Two sets of twenty easy statements a theorist types. Sums of monomials (polynomials, a division by a
monomial, integer and real variables, a conjunction), which ``prove`` reads with the parser's polynomial
back end; and statements of issue 48's kinds (floor and ceiling, Max and Min, Piecewise, Abs, sqrt, powers
x^y with the base reaching 0, exp and log, products and powers of sums), which ``prove`` reads as their
typed trees. Neither set imports sympy. Each statement is first decided in this process by specbound and by
z3 (translated to SMT-LIB 2 by benchmarks/prover_peers.py; exp, log and x^y are not expressible there).
Then each ``specbound prove`` process runs once, and each ``python -c "import z3" + solve`` process on the
statements z3 proves, after a warm-up of each: the median process CPU (user + system) of ``prove`` over the
set, the medians of both over the statements both prove, and their ratio specbound/z3. Target (issue 48):
the median of ``prove`` on twenty easy statements <= 0.25 s.

Run: ``nice -n 10 python benchmarks/prove_startup.py`` (z3 is the optional ``bench`` extra; without it,
nothing is measured).
"""

from __future__ import annotations

import importlib.util
import os
import statistics
import sys
import tempfile
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from prover_peers import (
    NotExpressible,
    ask_peer,
    ask_specbound,
    translate,
    z3_check,
)  # puts the root on sys.path
from scale_speed import process_seconds

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
NAT = (Fraction(0), Fraction(3))
ISSUE_KINDS = [
    ("floor(x)", "<=", "x", {"x": NAT}),
    ("floor(x)", ">", "x - 1", {"x": NAT}),
    ("ceiling(x)", ">=", "x", {"x": NAT}),
    ("ceiling(x + y)", "<=", "ceiling(x) + ceiling(y)", {"x": NAT, "y": NAT}),
    ("Piecewise((x, x < 1/2), (1 - x, True))", "<=", "1/2", {"x": UNIT}),
    ("Piecewise((x^2, x < 1), (x, True))", ">=", "0", {"x": (Fraction(0), Fraction(2))}),
    ("Max(x^2, x)", ">=", "x", {"x": (Fraction(-2), Fraction(2))}),
    ("Max(x, y)", ">=", "(x + y)/2", {"x": (Fraction(-1), Fraction(1)), "y": (Fraction(-1), Fraction(1))}),
    ("Min(x, 1 - x)", "<=", "1/2", {"x": UNIT}),
    ("Min(exp(x), 2)", "<=", "exp(x)", {"x": REAL}),
    ("x^y", "<=", "1", {"x": UNIT, "y": NAT}),
    ("sqrt(x) + sqrt(y)", "<=", "sqrt(2*(x + y))", {"x": UNIT, "y": UNIT}),
    ("sqrt(x)", "<=", "(1 + x)/2", {"x": (Fraction(0), Fraction(4))}),
    ("exp(x)", ">=", "1 + x", {"x": REAL}),
    ("log(1 + x)", "<=", "x", {"x": (Fraction(0), Fraction(10))}),
    ("exp(-x)", "<=", "1", {"x": (Fraction(0), Fraction(5))}),
    ("Abs(x - 1) + 1/8", ">=", "1/8", {"x": REAL}),
    (
        "Abs(x) + Abs(y)",
        ">=",
        "Abs(x + y)",
        {"x": (Fraction(-1), Fraction(1)), "y": (Fraction(-1), Fraction(1))},
    ),
    ("x*(1 - x)", "<=", "1/4", {"x": UNIT}),
    ("(x - 1/3)^2", ">=", "0", {"x": REAL}),
]


def case(left: str, relation: str, right: str, variables: dict[str, tuple]) -> Case:  # type: ignore[type-arg]
    """A true statement as the soundness suite's case (its terms carry no mpmath value: none is refuted)."""
    made = tuple(
        Variable(name, ends[0], ends[1], integer=len(ends) > 2 and ends[2] == "integer")
        for name, ends in variables.items()
    )
    return Case("easy", Term(left, lambda _v: None), relation, Term(right, lambda _v: None), made, TRUE)


def _z3(case_: Case) -> str:
    """z3's verdict on the case within 5 s ("not expressible" outside its arithmetic)."""
    try:
        return ask_peer(z3_check, case_, 5.0).verdict
    except NotExpressible:
        return "not expressible"


def measured(statements: list[tuple], title: str) -> str:  # type: ignore[type-arg]
    """The median process CPU of ``specbound prove`` on the statements, and of both tools on those both
    prove (each process once, after a warm-up of each), after deciding each in process (specbound within
    5 CPU s, z3 within 5 s)."""
    cases = [case(*statement) for statement in statements]
    ours = [ask_specbound(c, 5.0).verdict for c in cases]
    theirs = [_z3(c) for c in cases]
    missed = [c.statement for c, verdict in zip(cases, ours, strict=True) if verdict != "proved"]
    solve = "import sys, z3; s = z3.Solver(); s.from_string(sys.argv[1]); print(s.check())"
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory(prefix="prove-startup-pycache-") as pycache:
        os.environ["PYTHONPYCACHEPREFIX"] = pycache
        commands = [
            ["-m", "paper_checks.cli", "prove", c.statement, "--domain", c.domain, "--quiet"] for c in cases
        ]
        queries = {
            i: ["-c", solve, translate(c).refute_query()]
            for i, c in enumerate(cases)
            if theirs[i] == "proved"
        }
        process_seconds(commands[0])  # warm-up: bytecode written, files in the page cache
        process_seconds(next(iter(queries.values())))
        specbound_cpu = [process_seconds(command)[1] for command in commands]
        z3_cpu = {i: process_seconds(query)[1] for i, query in queries.items()}
    both = [i for i in z3_cpu if ours[i] == "proved"]
    a = statistics.median(specbound_cpu)
    b, z = statistics.median(specbound_cpu[i] for i in both), statistics.median(z3_cpu[i] for i in both)
    note = f"; not proved by specbound: {missed}" if missed else ""
    return (
        f"{title}: median process CPU of specbound prove on all {len(cases)}: {a:.3f} s "
        "(issue target <= 0.25 s); "
        f'on the {len(both)} both prove: specbound {b:.3f} s, python -c "import z3" + solve {z:.3f} s, '
        f"ratio specbound/z3 {b / z:.2f} (z3 proves {theirs.count('proved')}, "
        f"{theirs.count('not expressible')} not expressible){note}"
    )


def main() -> int:
    if importlib.util.find_spec("z3") is None:
        print("z3 not installed (the bench extra), nothing measured")
        return 0
    print(measured(MONOMIAL_SUMS, "sums of monomials (polynomial back end)"))
    print(measured(ISSUE_KINDS, "issue 48's kinds (typed trees)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
