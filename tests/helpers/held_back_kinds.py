"""A hunting set of statements of issue 48's kinds (jumps: floor/ceiling; Min/Max; powers x^y at base 0;
tight polynomials and algebraic terms with sqrt), varied as a checker would vary the issue's examples:
other constants and domains (bounded, half-lines, the reals), strict and non-strict, two variables,
touching points, compositions.

Each statement's truth is decided by hand (the argument in its ``why``) and confirmed by :func:`grid_check`
(mpmath at 50 digits on a grid with the touching points and far-out points; the gap written by hand with
mpmath, sharing nothing with the parser); never by a prover's verdict. A false statement's ``witness`` is a
point where mpmath finds the claim false. Provenance: derived for issue 48.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import mpmath

DIGITS = 50


@dataclass(frozen=True)
class Held:
    """``statement`` over ``domain``; ``gap(*values)`` = the side that should be larger minus the other, by
    hand (>= 0 everywhere, > 0 for a strict claim, iff true); ``names`` the variables in ``gap``'s order."""

    statement: str
    domain: str
    true: bool
    gap: Callable[..., mpmath.mpf]
    why: str
    names: tuple[str, ...] = ("x",)
    strict: bool = False
    witness: tuple[Fraction | mpmath.mpf, ...] | None = None
    """A point where the claim fails (an mpf where that point is irrational)."""


def _pow(x: mpmath.mpf, y: mpmath.mpf) -> mpmath.mpf:
    """x^y as the language defines it for x >= 0: 0^0 = 1, 0^y = 0 for y > 0."""
    if x == 0:
        return mpmath.mpf(1) if y == 0 else mpmath.mpf(0)
    return mpmath.power(x, y)


F, C, S, A = mpmath.floor, mpmath.ceil, mpmath.sqrt, abs
Q = Fraction


def M(p: int, q: int = 1) -> mpmath.mpf:
    """p/q at the working precision."""
    return mpmath.mpf(p) / q


with mpmath.workdps(DIGITS + 10):
    R3 = mpmath.sqrt(3)
    QUARTIC_ROOT = 1 / mpmath.root(3, 4)
    """x^6 - x^2 is least at x = 3^(-1/4)."""
    HALF_ROOT = 1 / mpmath.sqrt(2)
    """x sqrt(1 - x^2) is greatest at x = 1/sqrt(2)."""
XY = ("x", "y")

HELD: list[Held] = [
    # --- jumps: floor and ceiling ---
    Held("floor(x) <= x", "x: real", True, lambda x: x - F(x), "floor(x) <= x by definition"),
    Held("floor(x) > x - 1", "x: real", True, lambda x: F(x) - x + 1, "x < floor(x) + 1", strict=True),
    Held("floor(x) >= x - 1", "x: (0, 3)", True, lambda x: F(x) - x + 1, "x < floor(x) + 1"),
    Held(
        "floor(2*x) <= 2*floor(x) + 1",
        "x: real",
        True,
        lambda x: 2 * F(x) + 1 - F(2 * x),
        "2x < 2 floor(x) + 2, so floor(2x) <= 2 floor(x) + 1",
    ),
    Held(
        "floor(2*x) >= 2*floor(x)",
        "x: [-5, 5]",
        True,
        lambda x: F(2 * x) - 2 * F(x),
        "2 floor(x) is an integer <= 2x",
    ),
    Held(
        "floor(2*x) <= 2*floor(x)",
        "x: [0, 3]",
        False,
        lambda x: 2 * F(x) - F(2 * x),
        "x = 1/2: 1 > 0",
        witness=(Q(1, 2),),
    ),
    Held("ceiling(x) >= x", "x: [-2, 7/2]", True, lambda x: C(x) - x, "definition of ceiling"),
    Held("ceiling(x) < x + 1", "x: real", True, lambda x: x + 1 - C(x), "ceiling(x) - 1 < x", strict=True),
    Held("ceiling(x) <= x", "x: [0, 1]", False, lambda x: x - C(x), "x = 1/2", witness=(Q(1, 2),)),
    Held(
        "floor(x + y) >= floor(x) + floor(y)",
        "x: [-3, 3], y: [-3, 3]",
        True,
        lambda x, y: F(x + y) - F(x) - F(y),
        "floor(x) + floor(y) is an integer <= x + y",
        XY,
    ),
    Held(
        "floor(x + y) <= floor(x) + floor(y) + 1",
        "x: real, y: real",
        True,
        lambda x, y: F(x) + F(y) + 1 - F(x + y),
        "x + y < floor(x) + floor(y) + 2",
        XY,
    ),
    Held(
        "floor(x + y) <= floor(x) + floor(y)",
        "x: [0, 1], y: [0, 1]",
        False,
        lambda x, y: F(x) + F(y) - F(x + y),
        "x = y = 1/2: 1 > 0",
        XY,
        witness=(Q(1, 2), Q(1, 2)),
    ),
    Held(
        "ceiling(x + y) >= ceiling(x) + ceiling(y) - 1",
        "x: [-2, 2], y: [-2, 2]",
        True,
        lambda x, y: C(x + y) - C(x) - C(y) + 1,
        "x + y > ceiling(x) + ceiling(y) - 2",
        XY,
    ),
    Held(
        "ceiling(x + y) <= ceiling(x) + ceiling(y)",
        "x: real, y: real",
        True,
        lambda x, y: C(x) + C(y) - C(x + y),
        "ceiling(x) + ceiling(y) is an integer >= x + y",
        XY,
    ),
    Held(
        "floor(x) + ceiling(x) <= 2*x + 1",
        "x: real",
        True,
        lambda x: 2 * x + 1 - F(x) - C(x),
        "ceiling(x) <= floor(x) + 1 and floor(x) <= x",
    ),
    Held(
        "floor(x) + ceiling(x) >= 2*x - 1",
        "x: [-3, 3]",
        True,
        lambda x: F(x) + C(x) - 2 * x + 1,
        "floor(x) > x - 1 and ceiling(x) >= x",
    ),
    Held("floor(x/3) <= x/3", "x: [0, 10]", True, lambda x: x / 3 - F(x / 3), "floor(u) <= u"),
    Held("floor(x)^2 <= x^2", "x: [0, 5]", True, lambda x: x**2 - F(x) ** 2, "0 <= floor(x) <= x"),
    Held(
        "floor(x)^2 <= x^2",
        "x: [-2, 2]",
        False,
        lambda x: x**2 - F(x) ** 2,
        "x = -1/2: 1 > 1/4",
        witness=(Q(-1, 2),),
    ),
    Held("x - floor(x) < 1", "x: [-4, 4]", True, lambda x: 1 - x + F(x), "x < floor(x) + 1", strict=True),
    Held(
        "ceiling(x/2) <= x/2 + 1/2",
        "x: [0, 4]",
        False,
        lambda x: x / 2 + M(1, 2) - C(x / 2),
        "x = 1/2: 1 > 3/4 (true only for integer x)",
        witness=(Q(1, 2),),
    ),
    Held("ceiling(x) - floor(x) <= 1", "x: real", True, lambda x: 1 - C(x) + F(x), "both within 1 of x"),
    Held(
        "ceiling(x) - floor(x) >= 1",
        "x: [0, 2]",
        False,
        lambda x: C(x) - F(x) - 1,
        "x = 1: 0 < 1",
        witness=(Q(1),),
    ),
    Held("floor(x) <= x - 1/2", "x: [0, 3]", False, lambda x: x - M(1, 2) - F(x), "x = 0", witness=(Q(0),)),
    Held(
        "floor(x)*floor(y) <= x*y",
        "x: [0, 3], y: [0, 3]",
        True,
        lambda x, y: x * y - F(x) * F(y),
        "0 <= floor <= the variable",
        XY,
    ),
    Held("floor(sqrt(x)) <= sqrt(x)", "x: [0, 10]", True, lambda x: S(x) - F(S(x)), "floor(u) <= u"),
    Held(
        "floor(x^2) > x^2 - 1",
        "x: [-2, 2]",
        True,
        lambda x: F(x**2) - x**2 + 1,
        "floor(u) > u - 1",
        strict=True,
    ),
    # --- Min and Max ---
    Held(
        "Max(x, y) >= (x + y)/2",
        "x: real, y: real",
        True,
        lambda x, y: max(x, y) - (x + y) / 2,
        "the larger is at least the mean; equal on x = y",
        XY,
    ),
    Held(
        "Min(x, y) <= (x + y)/2",
        "x: real, y: real",
        True,
        lambda x, y: (x + y) / 2 - min(x, y),
        "the smaller is at most the mean",
        XY,
    ),
    Held(
        "Max(x, y) > (x + y)/2",
        "x: [0, 1], y: [0, 1]",
        False,
        lambda x, y: max(x, y) - (x + y) / 2,
        "x = y",
        XY,
        strict=True,
        witness=(Q(1, 3), Q(1, 3)),
    ),
    Held("Min(x^2, 1) <= 1", "x: real", True, lambda x: 1 - min(x**2, 1), "Min <= its second argument"),
    Held("Max(x^2, x) >= x", "x: real", True, lambda x: max(x**2, x) - x, "Max >= its second argument"),
    Held(
        "Min(exp(x), 2) <= exp(x)",
        "x: real",
        True,
        lambda x: mpmath.exp(x) - min(mpmath.exp(x), 2),
        "Min <= its first argument",
    ),
    Held(
        "Max(x, y) + Min(x, y) <= x + y",
        "x: [-5, 5], y: [-5, 5]",
        True,
        lambda x, y: x + y - max(x, y) - min(x, y),
        "an identity: the gap is 0",
        XY,
    ),
    Held(
        "Max(x, 1 - x) >= 1/2",
        "x: [0, 1]",
        True,
        lambda x: max(x, 1 - x) - M(1, 2),
        "one of x, 1 - x is >= 1/2; touching at 1/2",
    ),
    Held(
        "Max(x, 1 - x) > 1/2",
        "x: [0, 1]",
        False,
        lambda x: max(x, 1 - x) - M(1, 2),
        "x = 1/2",
        strict=True,
        witness=(Q(1, 2),),
    ),
    Held(
        "Min(x, 1 - x) <= 1/2",
        "x: [0, 1]",
        True,
        lambda x: M(1, 2) - min(x, 1 - x),
        "one of x, 1 - x is <= 1/2",
    ),
    Held(
        "Max(Abs(x), Abs(y)) >= (Abs(x) + Abs(y))/2",
        "x: real, y: real",
        True,
        lambda x, y: max(A(x), A(y)) - (A(x) + A(y)) / 2,
        "the larger is at least the mean",
        XY,
    ),
    Held(
        "Min(x^2, y^2) <= x*y",
        "x: [0, 2], y: [0, 2]",
        True,
        lambda x, y: x * y - min(x**2, y**2),
        "x <= y gives x^2 <= x y (both >= 0)",
        XY,
    ),
    Held(
        "Max(x^2, y^2) >= x*y",
        "x: real, y: real",
        True,
        lambda x, y: max(x**2, y**2) - x * y,
        "max(x^2, y^2) >= |x||y|",
        XY,
    ),
    Held("Min(x, 2) <= x", "x: real", True, lambda x: x - min(x, 2), "Min <= its first argument"),
    Held(
        "Max(x^2 - 1, 0) >= x - 1",
        "x: [0, 3]",
        True,
        lambda x: max(x**2 - 1, 0) - x + 1,
        "x <= 1: 0 >= x - 1; x > 1: x^2 >= x; touching at x = 1",
    ),
    Held(
        "Max(x, y)^2 <= x^2 + y^2",
        "x: [0, 1], y: [0, 1]",
        True,
        lambda x, y: x**2 + y**2 - max(x, y) ** 2,
        "the other square is >= 0",
        XY,
    ),
    Held(
        "Min(x, y) >= x*y",
        "x: [0, 1], y: [0, 1]",
        True,
        lambda x, y: min(x, y) - x * y,
        "x y <= x and x y <= y on [0, 1]^2",
        XY,
    ),
    Held(
        "Min(x, y) > x*y",
        "x: [0, 1], y: [0, 1]",
        False,
        lambda x, y: min(x, y) - x * y,
        "x = y = 0",
        XY,
        strict=True,
        witness=(Q(0), Q(0)),
    ),
    Held(
        "Max(x^2, 2*x - 1) <= x^2",
        "x: real",
        True,
        lambda x: x**2 - max(x**2, 2 * x - 1),
        "(x - 1)^2 >= 0: 2x - 1 <= x^2; touching at x = 1",
    ),
    Held(
        "Min(x^2, y^2) <= x*y - 1/1000",
        "x: [0, 2], y: [0, 2]",
        False,
        lambda x, y: x * y - M(1, 1000) - min(x**2, y**2),
        "on the diagonal the gap is -1/1000",
        XY,
        witness=(Q(1), Q(1)),
    ),
    Held(
        "Min(x, y)^2 <= x*y",
        "x: [-1, 1], y: [-1, 1]",
        False,
        lambda x, y: x * y - min(x, y) ** 2,
        "x = -1, y = 1: -1 < 1",
        XY,
        witness=(Q(-1), Q(1)),
    ),
    Held(
        "Max(x, y)^2 >= x*y",
        "x: [0, 1], y: [0, 1]",
        True,
        lambda x, y: max(x, y) ** 2 - x * y,
        "y <= x gives x^2 >= x y (x >= 0); 0 along the diagonal",
        XY,
    ),
    Held(
        "Piecewise((1/(x - y), x > y), (0, True)) >= 0",
        "x: [0, 1], y: [0, 1]",
        True,
        lambda x, y: 1 / (x - y) if x > y else mpmath.mpf(0),
        "1/(x - y) > 0 where x > y; the condition's boundary is the diagonal",
        XY,
    ),
    Held(
        "Piecewise((1/(x - y), x > y), (0, True)) >= 0",
        "x: real, y: real",
        True,
        lambda x, y: 1 / (x - y) if x > y else mpmath.mpf(0),
        "as over the box",
        XY,
    ),
    Held(
        "Piecewise((1/(x - y), x > y), (0, True)) > 0",
        "x: [0, 1], y: [0, 1]",
        False,
        lambda x, y: 1 / (x - y) if x > y else mpmath.mpf(0),
        "0 where x <= y",
        XY,
        strict=True,
        witness=(Q(0), Q(0)),
    ),
    Held(
        "Piecewise((y - x^2, x^2 < y), (0, True)) >= 0",
        "x: [0, 1], y: [0, 1]",
        True,
        lambda x, y: y - x**2 if x**2 < y else mpmath.mpf(0),
        "y - x^2 > 0 where x^2 < y; the boundary is the parabola",
        XY,
    ),
    Held(
        "Piecewise((y - x^2, x^2 <= y), (0, True)) > 0",
        "x: [0, 1], y: [0, 1]",
        False,
        lambda x, y: y - x**2 if x**2 <= y else mpmath.mpf(0),
        "0 on the parabola and below it",
        XY,
        strict=True,
        witness=(Q(1, 2), Q(1, 4)),
    ),
    # --- powers x^y with the base reaching 0 (0^0 = 1) ---
    Held("x^y <= 1", "x: [0, 1], y: [0, 3]", True, lambda x, y: 1 - _pow(x, y), "x <= 1, y >= 0", XY),
    Held("x^y <= x", "x: [0, 1], y: [1, 3]", True, lambda x, y: x - _pow(x, y), "x <= 1, y >= 1", XY),
    Held("x^y >= 0", "x: [0, 2], y: [0, 3]", True, lambda x, y: _pow(x, y), "a power of x >= 0", XY),
    Held(
        "x^y <= x",
        "x: [0, 1], y: [0, 3]",
        False,
        lambda x, y: x - _pow(x, y),
        "x = 0, y = 0: 1 > 0",
        XY,
        witness=(Q(0), Q(0)),
    ),
    Held(
        "x^y > 0",
        "x: [0, 1], y: [1, 2]",
        False,
        lambda x, y: _pow(x, y),
        "x = 0",
        XY,
        strict=True,
        witness=(Q(0), Q(1)),
    ),
    Held(
        "x^y >= x^2",
        "x: [0, 1], y: [0, 2]",
        True,
        lambda x, y: _pow(x, y) - x**2,
        "x <= 1 and y <= 2; at x = 0 both sides >= 0",
        XY,
    ),
    Held(
        "x^y <= 1",
        "x: [0, 2], y: [0, 1]",
        False,
        lambda x, y: 1 - _pow(x, y),
        "x = 2, y = 1",
        XY,
        witness=(Q(2), Q(1)),
    ),
    Held(
        "x^y <= 2^y",
        "x: [0, 2], y: [0, 3]",
        True,
        lambda x, y: _pow(2, y) - _pow(x, y),
        "t -> t^y is nondecreasing on [0, oo) for y >= 0 (0^0 = 1 = 2^0)",
        XY,
    ),
    Held(
        "x^y <= x^(1/2)",
        "x: [0, 1], y: [1/2, 2]",
        True,
        lambda x, y: S(x) - _pow(x, y),
        "x <= 1 and y >= 1/2",
        XY,
    ),
    Held(
        "x^y + y^x >= 1",
        "x: [0, 1], y: [0, 1]",
        True,
        lambda x, y: _pow(x, y) + _pow(y, x) - 1,
        "x^y >= x/(x + y - x y) (Bernoulli) and likewise, sum >= 1; 0^y + y^0 = 1",
        XY,
    ),
    # --- tight polynomials ---
    Held("x^4 - x^3 >= -27/256", "x: real", True, lambda x: x**4 - x**3 + M(27, 256), "minimum at x = 3/4"),
    Held(
        "x^4 - x^3 >= -1/10",
        "x: real",
        False,
        lambda x: x**4 - x**3 + M(1, 10),
        "x = 3/4",
        witness=(Q(3, 4),),
    ),
    Held(
        "x^6 - x^2 >= -2*sqrt(3)/9",
        "x: real",
        True,
        lambda x: x**6 - x**2 + 2 * R3 / 9,
        "minimum at x^2 = 1/sqrt(3): 1/(3 sqrt 3) - 1/sqrt 3",
    ),
    Held(
        "x^6 - x^2 > -2*sqrt(3)/9",
        "x: real",
        False,
        lambda x: x**6 - x**2 + 2 * R3 / 9,
        "equality at x = 3^(-1/4)",
        strict=True,
        witness=(QUARTIC_ROOT,),
    ),
    Held("x^6 - x^2 >= -2/5", "x: real", True, lambda x: x**6 - x**2 + M(2, 5), "minimum -0.3849 > -0.4"),
    Held("x^4 - 2*x^2 >= -1", "x: real", True, lambda x: (x**2 - 1) ** 2, "(x^2 - 1)^2, touching at +-1"),
    Held(
        "x^4 - 2*x^2 > -1", "x: real", False, lambda x: (x**2 - 1) ** 2, "x = 1", strict=True, witness=(Q(1),)
    ),
    Held("x^3 - 3*x + 2 >= 0", "x: [0, oo)", True, lambda x: (x - 1) ** 2 * (x + 2), "(x - 1)^2 (x + 2)"),
    Held(
        "x^3 - 3*x + 2 >= 0", "x: real", False, lambda x: (x - 1) ** 2 * (x + 2), "x = -3", witness=(Q(-3),)
    ),
    Held(
        "x^4 + 4*x >= -3",
        "x: real",
        True,
        lambda x: (x + 1) ** 2 * (x**2 - 2 * x + 3),
        "(x + 1)^2 (x^2 - 2x + 3), touching at -1",
    ),
    Held("x^2*y^2 + 1 >= 2*x*y", "x: real, y: real", True, lambda x, y: (x * y - 1) ** 2, "(x y - 1)^2", XY),
    Held("x^2 + y^2 >= 2*x*y", "x: real, y: real", True, lambda x, y: (x - y) ** 2, "(x - y)^2", XY),
    Held(
        "x^4 + y^4 >= x^3*y + x*y^3",
        "x: real, y: real",
        True,
        lambda x, y: (x - y) ** 2 * (x**2 + x * y + y**2),
        "(x - y)^2 (x^2 + x y + y^2)",
        XY,
    ),
    Held(
        "x^3 + y^3 >= x^2*y + x*y^2",
        "x: [0, 1], y: [0, 1]",
        True,
        lambda x, y: (x + y) * (x - y) ** 2,
        "(x + y)(x - y)^2",
        XY,
    ),
    Held(
        "x^2 - x + 1/4 > 0",
        "x: [0, 1]",
        False,
        lambda x: (x - M(1, 2)) ** 2,
        "x = 1/2",
        strict=True,
        witness=(Q(1, 2),),
    ),
    Held(
        "x^5 - 5*x + 4 >= 0",
        "x: [0, oo)",
        True,
        lambda x: (x - 1) ** 2 * (x**3 + 2 * x**2 + 3 * x + 4),
        "(x - 1)^2 (x^3 + 2x^2 + 3x + 4)",
    ),
    Held(
        "x^3 - x >= -2*sqrt(3)/9",
        "x: [0, oo)",
        True,
        lambda x: x**3 - x + 2 * R3 / 9,
        "minimum at x = 1/sqrt(3)",
    ),
    Held(
        "x^4 - x^3 > -27/256",
        "x: real",
        False,
        lambda x: x**4 - x**3 + M(27, 256),
        "x = 3/4",
        strict=True,
        witness=(Q(3, 4),),
    ),
    Held(
        "x^2*y + x*y^2 <= x^3 + y^3 + 1/1000",
        "x: [0, 2], y: [0, 2]",
        True,
        lambda x, y: (x + y) * (x - y) ** 2 + M(1, 1000),
        "(x + y)(x - y)^2 >= 0",
        XY,
    ),
    # --- algebraic terms with sqrt ---
    Held(
        "sqrt(x*y) <= (x + y)/2",
        "x: [0, oo), y: [0, oo)",
        True,
        lambda x, y: (x + y) / 2 - S(x * y),
        "AM-GM: (sqrt x - sqrt y)^2 / 2",
        XY,
    ),
    Held(
        "sqrt(x*y) < (x + y)/2",
        "x: [0, 1], y: [0, 1]",
        False,
        lambda x, y: (x + y) / 2 - S(x * y),
        "x = y",
        XY,
        strict=True,
        witness=(Q(1, 2), Q(1, 2)),
    ),
    Held(
        "(x + y)^(1/2) <= x^(1/2) + y^(1/2)",
        "x: [0, oo), y: [0, oo)",
        True,
        lambda x, y: S(x) + S(y) - S(x + y),
        "square both sides: 2 sqrt(x y) >= 0",
        XY,
    ),
    Held(
        "sqrt(x) + sqrt(y) <= sqrt(2*(x + y))",
        "x: [0, 1], y: [0, 1]",
        True,
        lambda x, y: S(2 * (x + y)) - S(x) - S(y),
        "square both: (sqrt x - sqrt y)^2 >= 0; equal on x = y",
        XY,
    ),
    Held(
        "sqrt(x) + sqrt(y) <= sqrt(2*(x + y)) + 1/100",
        "x: [0, 3], y: [0, 3]",
        True,
        lambda x, y: S(2 * (x + y)) + M(1, 100) - S(x) - S(y),
        "as above with a margin",
        XY,
    ),
    Held(
        "sqrt(x^2 + y^2) <= Abs(x) + Abs(y)",
        "x: real, y: real",
        True,
        lambda x, y: A(x) + A(y) - S(x**2 + y**2),
        "square both: 2|x y| >= 0",
        XY,
    ),
    Held(
        "sqrt(x^2 + y^2) >= (Abs(x) + Abs(y))/sqrt(2)",
        "x: real, y: real",
        True,
        lambda x, y: S(x**2 + y**2) - (A(x) + A(y)) / S(2),
        "square both: (|x| - |y|)^2 >= 0",
        XY,
    ),
    Held(
        "sqrt(1 + x) <= 1 + x/2",
        "x: [-1, oo)",
        True,
        lambda x: 1 + x / 2 - S(1 + x),
        "(1 + x/2)^2 = 1 + x + x^2/4; touching at 0",
    ),
    Held(
        "sqrt(1 + x) < 1 + x/2",
        "x: [-1, 1]",
        False,
        lambda x: 1 + x / 2 - S(1 + x),
        "x = 0",
        strict=True,
        witness=(Q(0),),
    ),
    Held("sqrt(x) >= x", "x: [0, 1]", True, lambda x: S(x) - x, "x <= 1; touching at 0 and 1"),
    Held("sqrt(x) > x", "x: [0, 1]", False, lambda x: S(x) - x, "x = 1", strict=True, witness=(Q(1),)),
    Held("2*sqrt(x) <= x + 1", "x: [0, oo)", True, lambda x: x + 1 - 2 * S(x), "(sqrt x - 1)^2"),
    Held("sqrt(x^2 + 1) > x", "x: real", True, lambda x: S(x**2 + 1) - x, "sqrt(x^2 + 1) > |x|", strict=True),
    Held(
        "sqrt(x) + sqrt(1 - x) <= sqrt(2)",
        "x: [0, 1]",
        True,
        lambda x: S(2) - S(x) - S(1 - x),
        "square: 1 + 2 sqrt(x (1 - x)) <= 2; touching at 1/2",
    ),
    Held(
        "sqrt(x) + sqrt(1 - x) >= 1",
        "x: [0, 1]",
        True,
        lambda x: S(x) + S(1 - x) - 1,
        "square: 1 + 2 sqrt(x (1 - x)) >= 1; touching at 0 and 1",
    ),
    Held(
        "sqrt(x) + sqrt(1 - x) > 1",
        "x: [0, 1]",
        False,
        lambda x: S(x) + S(1 - x) - 1,
        "x = 0",
        strict=True,
        witness=(Q(0),),
    ),
    Held(
        "x*sqrt(1 - x^2) <= 1/2",
        "x: [-1, 1]",
        True,
        lambda x: M(1, 2) - x * S(1 - x**2),
        "2 x sqrt(1 - x^2) <= x^2 + (1 - x^2); touching at 1/sqrt(2)",
    ),
    Held(
        "x*sqrt(1 - x^2) >= -1/2",
        "x: [-1, 1]",
        True,
        lambda x: x * S(1 - x**2) + M(1, 2),
        "the mirror image x -> -x; touching at -1/sqrt(2)",
    ),
    Held(
        "x*sqrt(1 - x^2) <= 1/2 - 10^-6",
        "x: [-1, 1]",
        False,
        lambda x: M(1, 2) - M(1, 10**6) - x * S(1 - x**2),
        "the maximum 1/2 at 1/sqrt(2); 181/256 is within 10^-4 of it",
        witness=(Q(181, 256),),
    ),
    Held(
        "x*sqrt(1 - x^2) < 1/2",
        "x: [-1, 1]",
        False,
        lambda x: M(1, 2) - x * S(1 - x**2),
        "equality at the irrational x = 1/sqrt(2)",
        strict=True,
        witness=(HALF_ROOT,),
    ),
    Held(
        "x*sqrt(9 - x^2) <= 9/2",
        "x: [-3, 3]",
        True,
        lambda x: M(9, 2) - x * S(9 - x**2),
        "2 x sqrt(9 - x^2) <= x^2 + (9 - x^2); touching at 3/sqrt(2)",
    ),
    Held(
        "x*sqrt(9 - x^2) <= 4",
        "x: [-3, 3]",
        False,
        lambda x: 4 - x * S(9 - x**2),
        "the maximum 9/2 at 3/sqrt(2); 17/8 is near it",
        witness=(Q(17, 8),),
    ),
    Held("x^(3/2) <= x", "x: [0, 1]", True, lambda x: x - x * S(x), "sqrt(x) <= 1"),
    Held(
        "x^6 - x^2 >= -0.3849",
        "x: real",
        False,
        lambda x: x**6 - x**2 + M(3849, 10000),
        "the minimum -2 sqrt(3)/9 = -0.38490018 < -0.3849",
        witness=(QUARTIC_ROOT,),
    ),
    Held(
        "x^6 - x^2 >= -0.38491",
        "x: real",
        True,
        lambda x: x**6 - x**2 + M(38491, 100000),
        "the minimum -0.38490018 > -0.38491",
    ),
    Held(
        "Min(x, y)^2 <= x*y",
        "x: [0, 1], y: [0, 1]",
        True,
        lambda x, y: x * y - min(x, y) ** 2,
        "Min(x, y) <= x and <= y, both >= 0; equal on the diagonal",
        XY,
    ),
    Held(
        "sqrt(x)*sqrt(y) <= (x + y)/2",
        "x: [0, 4], y: [0, 4]",
        True,
        lambda x, y: (x + y) / 2 - S(x) * S(y),
        "(sqrt x - sqrt y)^2 / 2",
        XY,
    ),
    Held("x^y <= 1", "x: [0, 1), y: (0, 3]", True, lambda x, y: 1 - _pow(x, y), "x < 1, y > 0", XY),
    Held(
        "x^y < 1", "x: [0, 1), y: (0, 3]", True, lambda x, y: 1 - _pow(x, y), "x < 1, y > 0", XY, strict=True
    ),
    Held(
        "x^y < 1",
        "x: [0, 1], y: [0, 3]",
        False,
        lambda x, y: 1 - _pow(x, y),
        "0^0 = 1",
        XY,
        strict=True,
        witness=(Q(0), Q(0)),
    ),
    Held(
        "ceiling(2*x) >= 2*ceiling(x) - 1",
        "x: real",
        True,
        lambda x: C(2 * x) - 2 * C(x) + 1,
        "2x > 2 ceiling(x) - 2, so ceiling(2x) >= 2 ceiling(x) - 1",
    ),
    Held(
        "floor(x)/2 <= floor(x/2) + 1/2",
        "x: [-6, 6]",
        True,
        lambda x: F(x / 2) + M(1, 2) - F(x) / 2,
        "floor(x) <= 2 floor(x/2) + 1",
    ),
    Held(
        "Max(x, 0) + Max(-x, 0) >= Abs(x)",
        "x: real",
        True,
        lambda x: max(x, 0) + max(-x, 0) - A(x),
        "an identity",
    ),
    Held(
        "sqrt(x^2 + y^2) >= Max(Abs(x), Abs(y))",
        "x: real, y: real",
        True,
        lambda x, y: S(x**2 + y**2) - max(A(x), A(y)),
        "x^2 + y^2 >= each square",
        XY,
    ),
    Held(
        "sqrt(x*y) <= (x + y)/2 - 1/1000",
        "x: [0, 1], y: [0, 1]",
        False,
        lambda x, y: (x + y) / 2 - M(1, 1000) - S(x * y),
        "x = y",
        XY,
        witness=(Q(1, 2), Q(1, 2)),
    ),
]


def parts(domain: str) -> list[str]:
    """The domain's one-variable parts ("x: [0, 1], y: real" -> ["x: [0, 1]", "y: real"])."""
    return re.split(r",\s*(?=[A-Za-z_]\w*\s*:)", domain)


def _inside(text: str, value: Fraction) -> bool:
    """The value lies in one variable's set (its text as in the domain)."""
    body = text.split(":", 1)[1].strip()
    if body == "real":
        return True
    low, high = (part.strip() for part in body[1:-1].split(","))
    above = low == "-oo" or (value > Fraction(low) if body[0] == "(" else value >= Fraction(low))
    below = high == "oo" or (value < Fraction(high) if body[-1] == ")" else value <= Fraction(high))
    return above and below


def witness_fails(held: Held, point: dict[str, Fraction]) -> bool:
    """mpmath at 50 digits confirms the claim false at the point of the domain (gap < 0, or within 10^-40
    of 0 for a strict claim)."""
    if not all(_inside(text, point[name]) for name, text in zip(held.names, parts(held.domain), strict=True)):
        return False
    with mpmath.workdps(DIGITS):
        gap = held.gap(*(_mp(point[name]) for name in held.names))
        return bool(gap <= mpmath.mpf(10) ** -40 if held.strict else gap < 0)


SLOW = {
    "floor(x)*floor(y) <= x*y over x: [0, 3], y: [0, 3]",
    "Min(x^2, y^2) <= x*y over x: [0, 2], y: [0, 2]",
    "x^y + y^x >= 1 over x: [0, 1], y: [0, 1]",
    "x^6 - x^2 > -2*sqrt(3)/9 over x: real",
    "sqrt(x^2 + y^2) >= (Abs(x) + Abs(y))/sqrt(2) over x: real, y: real",
    "x*sqrt(1 - x^2) < 1/2 over x: [-1, 1]",
    "Min(x, y)^2 <= x*y over x: [0, 1], y: [0, 1]",
    "Piecewise((y - x^2, x^2 < y), (0, True)) >= 0 over x: [0, 1], y: [0, 1]",
    "sqrt(x^2 + y^2) <= Abs(x) + Abs(y) over x: real, y: real",
    "sqrt(x^2 + y^2) >= Max(Abs(x), Abs(y)) over x: real, y: real",
}
"""Statements whose search costs more than a CPU second (decided or not): the slow tier's."""


def _grid(text: str) -> list[Fraction]:
    """Sample points of one variable's set (``[a, b]``, ``(a, b)``, half-lines, ``real``)."""
    body = text.split(":", 1)[1].strip()
    if body == "real":
        lo, hi = Fraction(-30), Fraction(30)
        far = [Fraction(-(10**9)), Fraction(10**9)]
        closed = (True, True)
    else:
        low, high = (part.strip() for part in body[1:-1].split(","))
        closed = (body[0] == "[", body[-1] == "]")
        far = ([Fraction(-(10**9))] if low == "-oo" else []) + ([Fraction(10**9)] if high == "oo" else [])
        lo = Fraction(low) if low != "-oo" else Fraction(high) - 60
        hi = Fraction(high) if high != "oo" else lo + 60
    n = 240
    points = [lo + (hi - lo) * Fraction(k, n) for k in range(n + 1)]
    points += [Fraction(k, 8) for k in range(-64, 65) if lo <= Fraction(k, 8) <= hi]
    points += [
        p + d for p in range(int(lo) - 1, int(hi) + 2) for d in (Fraction(-1, 10**9), Fraction(1, 10**9))
    ]
    points = [p for p in points if lo <= p <= hi] + far
    if not closed[0]:
        points = [p for p in points if p != lo]
    if not closed[1]:
        points = [p for p in points if p != hi]
    return sorted(set(points))


def _mp(value: Fraction | mpmath.mpf) -> mpmath.mpf:
    if isinstance(value, Fraction):
        return mpmath.mpf(value.numerator) / value.denominator
    return mpmath.mpf(value)


def grid_check(held: Held, per_variable: int = 60) -> bool:
    """mpmath's reading of the statement on a grid: no point with gap < 0 (<= 0 if strict; within 10^-40 of
    0 counts as 0) for a true statement; the witness (or some grid point) fails a false one."""
    with mpmath.workdps(DIGITS):
        grids = [_grid(part) for part in parts(held.domain)]
        if len(grids) > 1:
            grids = [g[:: max(1, len(g) // per_variable)] + g[-1:] for g in grids]
        points = itertools.product(*grids)
        tolerance = mpmath.mpf(10) ** -40  # rounding of an identity's terms
        fails = (lambda g: g <= tolerance) if held.strict else (lambda g: g < -tolerance)
        failing = any(fails(held.gap(*map(_mp, p))) for p in points)
        if held.witness is not None:
            at = held.gap(*map(_mp, held.witness))
            failing = failing or fails(at)
        return failing != held.true
