"""Generated statements of the case-split and polynomial families: no false one proved, no true one refuted.

Families (seeded): touching polynomials (x - r)^2 (x^2 + s) + c >= c -+ d; floor and ceiling of affine
arguments against their defining inequalities moved by -+ d; Piecewise with a threshold at a rational q;
Max and Min against one argument moved by -+ d. Truth is fixed by construction and confirmed by mpmath
at 50 digits: a false statement's witness point is known (the touching point, a point just below an
integer, the threshold), and any witness the prover returns is re-evaluated. Provenance: derived.
"""

from __future__ import annotations

import random
from fractions import Fraction

import mpmath
import pytest
import sympy as sp

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from theory.prover import PROVED, REFUTED, prove

pytestmark = [pytest.mark.slow, pytest.mark.mp_digits(50)]
X = sp.Symbol("x")


def _statements(seed: int = 48) -> list[tuple[str, str, sp.Expr, bool, Fraction]]:
    """(statement, domain, gap as sympy, true, a point where a false one fails)."""
    rng = random.Random(seed)
    found = []
    for _ in range(6):
        r, s, c = (
            Fraction(rng.randint(-9, 9), rng.randint(1, 5)),
            Fraction(rng.randint(1, 9), 4),
            Fraction(rng.randint(-5, 5)),
        )
        d = Fraction(1, 10 ** rng.randint(6, 15))
        poly = f"(x - ({r}))^2*(x^2 + {s}) + ({c})"
        expr = (X - sp.Rational(str(r))) ** 2 * (X**2 + sp.Rational(str(s))) + sp.Rational(str(c))
        for sign, true in ((-1, True), (1, False)):
            bound = c + sign * d
            found.append((f"{poly} >= {bound}", "x: real", expr - sp.Rational(str(bound)), true, r))
    for _ in range(4):
        a, b = Fraction(rng.randint(1, 7), rng.randint(1, 3)), Fraction(rng.randint(-9, 9), rng.randint(1, 4))
        d = Fraction(1, 10 ** rng.randint(3, 9))
        u = f"({a})*x + ({b})"
        ux = sp.Rational(str(a)) * X + sp.Rational(str(b))
        below = (1 - b - d / 2) / a  # u = 1 - d/2 there: floor(u) = 0 > u - 1 + d fails
        found.append((f"floor({u}) <= {u}", "x: [-5, 5]", ux - sp.floor(ux), True, below))
        found.append(
            (
                f"floor({u}) >= {u} - 1 + {d}",
                "x: [-5, 5]",
                sp.floor(ux) - ux + 1 - sp.Rational(str(d)),
                False,
                below,
            )
        )
        found.append((f"ceiling({u}) >= {u}", "x: [-5, 5]", sp.ceiling(ux) - ux, True, below))
        above = (d / 2 - b) / a  # u = d/2: ceiling(u) = 1 <= u + 1 - d fails
        found.append(
            (
                f"ceiling({u}) <= {u} + 1 - {d}",
                "x: [-5, 5]",
                ux + 1 - sp.Rational(str(d)) - sp.ceiling(ux),
                False,
                above,
            )
        )
    for _ in range(3):
        q = Fraction(rng.randint(1, 9), 10)
        d = Fraction(1, 10 ** rng.randint(6, 12))
        piece = f"Piecewise((x, x < {q}), (2*({q}) - x, True))"
        expr = sp.Piecewise((X, sp.Rational(str(q)) > X), (2 * sp.Rational(str(q)) - X, True))
        found.append((f"{piece} <= {q}", "x: [0, 1]", sp.Rational(str(q)) - expr, True, q))
        found.append(
            (f"{piece} <= {q} - {d}", "x: [0, 1]", sp.Rational(str(q)) - sp.Rational(str(d)) - expr, False, q)
        )
    for _ in range(3):
        d = Fraction(1, 10 ** rng.randint(6, 12))
        k = rng.randint(1, 5)
        found.append((f"Max(x^2, {k}*x) >= {k}*x", "x: real", sp.Max(X**2, k * X) - k * X, True, Fraction(0)))
        found.append(
            (
                f"Max(x^2, {k}*x) >= {k}*x + {d}",
                "x: real",
                sp.Max(X**2, k * X) - k * X - sp.Rational(str(d)),
                False,
                Fraction(k, 2),
            )
        )
        found.append(
            (
                f"Min(exp(x), {k}) <= {k} - {d}",
                "x: real",
                sp.Rational(k) - sp.Rational(str(d)) - sp.Min(sp.exp(X), k),
                False,
                Fraction(k + 1),
            )
        )
    return found


def _value(gap: sp.Expr, point: Fraction) -> mpmath.mpf:
    return mpmath.mpf(sp.N(gap.subs(X, sp.Rational(str(point))), 50))


STATEMENTS = _statements()


@pytest.mark.parametrize(
    ("statement", "domain", "gap", "true", "point"), STATEMENTS, ids=[s[0] for s in STATEMENTS]
)
def test_no_false_statement_is_proved_and_no_true_one_refuted(statement, domain, gap, true, point):
    if not true:
        assert _value(gap, point) < 0  # the construction's witness, by mpmath
    result = prove(statement, domain, budget_seconds=3)
    if true:
        assert result.status != REFUTED
    else:
        assert result.status != PROVED
    if result.status == REFUTED:
        (part,) = result.parts
        assert _value(gap, part.witness.point["x"]) < 0
