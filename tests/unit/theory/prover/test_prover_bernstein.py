"""The kernel's ``bernstein`` decision (docs/prover.md): the sign of a polynomial in several variables on a
bounded box from its Bernstein coefficients in exact rationals. The coefficients are compared with a hand
computation; statements undecided by enclosures alone are proved, their truth by a factorisation by hand
and mpmath at 50 digits on a grid; near misses are refuted at a witness mpmath confirms; certificates
claiming too much are rejected."""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from theory.prover import PROVED, REFUTED, prove
from theory.prover.kernel import bernstein, check_certificate

pytestmark = pytest.mark.mp_digits(50)

X, Y = ["var", "x"], ["var", "y"]


def _p(*terms: tuple[int, int, int]) -> dict:
    """{(i, j): c} of c x^i y^j."""
    return {(i, j): Fraction(c) for c, i, j in terms}


def test_coefficients_match_a_hand_computation():
    # x^2 + y^2 - x y - x - y + 1 on [0, 1]^2, degree (2, 2): b_IJ = sum C(I,i)C(J,j)/(C(2,i)C(2,j)) a_ij
    p = _p((1, 2, 0), (1, 0, 2), (-1, 1, 1), (-1, 1, 0), (-1, 0, 1), (1, 0, 0))
    found = bernstein.coefficients(p, [(Fraction(0), Fraction(1))] * 2)
    hand = [1, Fraction(1, 2), 1, Fraction(1, 2), Fraction(-1, 4), 0, 1, 0, 0]
    assert found == hand
    # on [1, 3] x [-1, 1]: x y has corner coefficients the corner values and the others their means
    found = bernstein.coefficients(_p((1, 1, 1)), [(Fraction(1), Fraction(3)), (Fraction(-1), Fraction(1))])
    assert found == [-1, 1, -3, 3]


def _certificate(gap: list, ranges: dict, strict: bool = False) -> dict:
    return {
        "format": "specbound-certificate/2",
        "inequality": "",
        "gap": gap,
        "strict": strict,
        "domain": [
            {
                "name": n,
                "lower": lo,
                "upper": hi,
                "lower_open": False,
                "upper_open": hi == "oo",
                "integer": False,
            }
            for n, (lo, hi) in ranges.items()
        ],
        "boxes": [
            {"box": {n: [lo, hi] for n, (lo, hi) in ranges.items()}, "decision": {"method": "bernstein"}}
        ],
    }


def _sum(*terms: list) -> list:
    return ["add", *terms]


def _times(c: str, *factors: list) -> list:
    return ["mul", ["num", c], *factors]


def test_kernel_accepts_nonnegative_coefficients_and_rejects_the_rest():
    square = _sum(["pow", X, ["num", "2"]], _times("-2", X, Y), ["pow", Y, ["num", "2"]])  # (x - y)^2
    corner = {"x": ("0", "1"), "y": ("-1", "0")}  # x - y >= 0 there: coefficients 0, 1, 1, 4 ... >= 0
    assert check_certificate(_certificate(square, corner)).accepted
    assert not check_certificate(_certificate(square, corner, strict=True)).accepted  # 0 at (0, 0)
    # on [0, 1]^2 (x - y)^2 >= 0 holds but its coefficient at (1, 1) is -1/2 (hand: 0 + 0 - 2 * 1/4)
    verdict = check_certificate(_certificate(square, {"x": ("0", "1"), "y": ("0", "1")}))
    assert not verdict.accepted and "-1/2" in verdict.reason
    # false on the box: x y - 1/2 at (0, 0)
    verdict = check_certificate(
        _certificate(_sum(_times("1", X, Y), ["num", "-1/2"]), {"x": ("0", "1"), "y": ("0", "1")})
    )
    assert not verdict.accepted
    # unbounded or not a polynomial
    assert not check_certificate(_certificate(square, {"x": ("0", "oo"), "y": ("0", "1")})).accepted
    assert not check_certificate(
        _certificate(_sum(["exp", X], Y), {"x": ("0", "1"), "y": ("0", "1")})
    ).accepted


def _schur(x, y):
    """x^3 + y^3 - x^2 y - x y^2 = (x + y)(x - y)^2, by hand."""
    return (x + y) * (x - y) ** 2


TRUE = [
    (
        "x^3 + y^3 + 1/100 >= x^2*y + x*y^2",
        "x: [0, 1], y: [0, 1]",
        lambda x, y: _schur(x, y) + mpmath.mpf(1) / 100,
    ),
    pytest.param(  # 52 boxes, about 2-4 CPU s (8 s and 1,536 boxes for 1/100 by enclosures alone)
        "x^3 + y^3 + 1/1000 >= x^2*y + x*y^2",
        "x: [0, 1], y: [0, 1]",
        lambda x, y: _schur(x, y) + mpmath.mpf(1) / 1000,
        marks=pytest.mark.slow,
    ),
]

FALSE = [
    (
        "x^3 + y^3 + 1/1000 >= x^2*y + x*y^2 + 1/500",
        "x: [0, 1], y: [0, 1]",
        lambda x, y: _schur(x, y) - mpmath.mpf(1) / 1000,
    ),
]


@pytest.mark.parametrize(("statement", "domain", "gap"), TRUE)
def test_margin_above_a_valley_is_proved_and_mpmath_agrees(statement, domain, gap):
    grid = [mpmath.mpf(k) / 24 for k in range(25)]
    assert min(gap(x, y) for x, y in itertools.product(grid, grid)) > 0
    assert prove(statement, domain, budget_seconds=30).status == PROVED


@pytest.mark.parametrize(("statement", "domain", "gap"), FALSE)
def test_near_miss_is_refuted_where_mpmath_sees_it_fail(statement, domain, gap):
    result = prove(statement, domain, budget_seconds=10)
    assert result.status == REFUTED
    point = result.parts[0].witness.point
    value = gap(
        *(mpmath.mpf(Fraction(point[n]).numerator) / Fraction(point[n]).denominator for n in ("x", "y"))
    )
    assert value < 0
