"""Statements of issue 48 that the prover left undecided although true (docs/prover.md): each is proved,
its truth confirmed by mpmath at 50 digits (the gap written by hand, sharing nothing with the parser) at
sample points, at its touching points and far out where its infimum is a limit; each near miss is refuted,
its witness re-evaluated by mpmath. Never the prover's own verdict as the reference."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from theory.prover import PROVED, REFUTED, prove

pytestmark = pytest.mark.mp_digits(50)


def _ratio(k: int, c: int):
    """k - k u / sqrt(c + u^2): positive everywhere, its infimum 0 the limit at u = oo."""
    return lambda u: k - k * u / mpmath.sqrt(c + u**2)


_TYPED = pytest.mark.slow  # the fast tier proves it in test_prover_typed_squares.py (search, kernel check)
TRUE = [
    pytest.param("3*u/sqrt(1+u^2) <= 3", "u: real", _ratio(3, 1), marks=_TYPED),
    pytest.param("2*u/sqrt(4+u^2) <= 2", "u: real", _ratio(2, 4), marks=_TYPED),
    pytest.param("u/sqrt(1+u^2) < 1", "u: real", _ratio(1, 1), marks=_TYPED),
    pytest.param(
        "3*(2*(u-1))/sqrt(1+(2*(u-1))^2) <= 3", "u: real", lambda u: _ratio(3, 1)(2 * (u - 1)), marks=_TYPED
    ),
    pytest.param(  # 2-3 CPU s (95 boxes); the fast tier proves the shifted, negated form below
        "-2*(3*(u-1))/sqrt(1+(3*(u-1))^2) >= -2",
        "u: real",
        lambda u: _ratio(2, 1)(3 * (u - 1)),
        marks=pytest.mark.slow,
    ),
    pytest.param("-3*(u-1)/sqrt(1+(u-1)^2) >= -3", "u: real", lambda u: _ratio(3, 1)(u - 1)),
]
"""(statement, domain, the gap rhs - lhs by hand)."""

POINTS = [-(10**15), -7, Fraction(-1, 3), 0, Fraction(1, 2), 3, 10**6, 10**15]
"""Out to 10^15, where the gap (about k c / (2 u^2)) is still 10^20 times mpmath's resolution."""

FALSE = [
    ("u/sqrt(1+u^2) <= 1 - 1/1000", "u: real", lambda u: _ratio(1, 1)(u) - mpmath.mpf(1) / 1000),
    pytest.param(  # its witness lies out at u ~ 10^3: 2-4 CPU s of search
        "3*u/sqrt(1+u^2) <= 3 - 1/10^6",
        "u: real",
        lambda u: _ratio(3, 1)(u) - mpmath.mpf(10) ** -6,
        marks=pytest.mark.slow,
    ),
    pytest.param(
        "3*(2*(u-1))/sqrt(1+(2*(u-1))^2) <= 3 - 1/10^6",
        "u: real",
        lambda u: _ratio(3, 1)(2 * (u - 1)) - mpmath.mpf(10) ** -6,
        marks=pytest.mark.slow,
    ),
]


def _mp(value) -> mpmath.mpf:
    value = Fraction(value)
    return mpmath.mpf(value.numerator) / value.denominator


@pytest.mark.parametrize(("statement", "domain", "gap"), TRUE, ids=[case.values[0] for case in TRUE])
def test_supremum_at_infinity_is_proved_and_mpmath_agrees(statement, domain, gap):
    assert all(gap(_mp(u)) > 0 for u in POINTS)
    # the typed tree writes 1/sqrt(c) as (c^(1/2))^(-1); the search proves it there in about 0.5 s
    assert prove(statement, domain, budget_seconds=20).status == PROVED


@pytest.mark.parametrize(("statement", "domain", "gap"), FALSE)
def test_near_miss_below_the_limit_is_refuted_where_mpmath_sees_it_fail(statement, domain, gap):
    result = prove(statement, domain, budget_seconds=10)
    assert result.status == REFUTED
    (part,) = result.parts
    assert gap(_mp(part.witness.point["u"])) < 0


def _power_of_two(L):
    """2^ceiling(log2 L) - L: mpmath's log2 of an exact power of two is exact at 50 digits."""
    return 2 ** mpmath.ceil(mpmath.log(L, 2)) - L


OTHERS = [
    # equality at every power of two, 2L - 1 - L just above one
    ("2^ceiling(log2(L)) >= L", "L: [1, 1024]", _power_of_two, [1, 2, 3, 4, 5, 512, 513, 1023, 1024]),
    # the untaken branch 1/x is undefined at 0 only where it is not taken
    (
        "Piecewise((1/x, x > 0), (0, True)) >= 0",
        "x: real",
        lambda x: 1 / x if x > 0 else mpmath.mpf(0),
        [-5, 0, 10**-20, 7],
    ),
]


@pytest.mark.parametrize(("statement", "domain", "gap", "points"), OTHERS, ids=[case[0] for case in OTHERS])
def test_issue_48_leftovers_are_proved_and_mpmath_agrees(statement, domain, gap, points):
    assert all(gap(_mp(Fraction(p))) >= 0 for p in points)
    assert prove(statement, domain, budget_seconds=20).status == PROVED
