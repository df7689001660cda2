"""Unbounded variables: where to split a half-line, and the value of a statement at an infinite end.

Compactification: a half-line [a, oo) with a >= 0 is the image of u in [a/(1+a), 1) under x = u/(1-u);
bisecting u at its midpoint is splitting x at 2a + 1, so repeated splitting walks to infinity
geometrically and the last box [X, oo) always stays in the cover (nothing is truncated). The whole line is
first split at 0, and (-oo, b] mirrors [a, oo). On a box [X, oo) the ball evaluation of the statement
runs with the unbounded endpoint itself (exp(-oo) = 0, erf(oo) = 1, ...: :mod:`theory.prover.intervals`);
where it does not decide and the statement is monotone on the box towards the infinite end, the monotone
rule (:mod:`theory.prover.rules`) first encloses it on a far tail in balls, and only then takes its
infimum as the limit at infinity, which sympy computes (Gruntz's algorithm, complete for exp-log
functions) and which must be real. Provenance: derived (a compactifying change of variable); the limit is
"sympy limit (Gruntz), not re-derived" (the checker re-runs it and re-encloses its value in balls).
"""

from __future__ import annotations

import math
from fractions import Fraction

import sympy as sp

from theory.prover.domain import Bound
from theory.prover.time_limit import time_limited


def compact(value: Bound) -> float:
    """u = x / (1 + |x|) in [-1, 1]: the compactified coordinate, used to compare widths of boxes."""
    if math.isinf(value):
        return 1.0 if value > 0 else -1.0
    return float(value) / (1 + abs(float(value)))


def split_point(lower: Bound, upper: Bound, integer: bool) -> Fraction:
    """Where to cut [lower, upper]: the midpoint, or the compactified midpoint of an unbounded side.

    For integers the cut c means [lower, c] and [c + 1, upper].

    >>> split_point(Fraction(3), math.inf, False), split_point(-math.inf, math.inf, False)
    (Fraction(7, 1), Fraction(0, 1))
    """
    if math.isinf(lower) and math.isinf(upper):
        cut = Fraction(0)
    elif math.isinf(upper):
        cut = Fraction(0) if lower < 0 else 2 * Fraction(lower) + 1
    elif math.isinf(lower):
        cut = Fraction(0) if upper > 0 else 2 * Fraction(upper) - 1
    else:
        cut = (Fraction(lower) + Fraction(upper)) / 2
    if integer:
        cut = Fraction(math.floor(cut))
        if cut >= upper:
            cut = Fraction(upper) - 1
    return cut


def finite_inner_point(lower: Bound, upper: Bound) -> Fraction:
    """A finite point of the box side, inside it when it has width (witness candidates)."""
    if math.isinf(lower) and math.isinf(upper):
        return Fraction(0)
    if math.isinf(upper):
        return Fraction(lower) + 1
    if math.isinf(lower):
        return Fraction(upper) - 1
    return (Fraction(lower) + Fraction(upper)) / 2


LIMIT_SECONDS = 5.0
"""Time given to sympy's limit at an infinite end (it can run for minutes on hard expressions)."""


def limit_at_infinity(expr: sp.Expr, symbol: sp.Symbol, sign: int) -> sp.Expr | None:
    """lim expr as symbol -> sign * oo, when sympy finds a real constant; None otherwise."""

    def compute() -> sp.Expr | None:
        try:
            return sp.limit(expr, symbol, sign * sp.oo)
        except (NotImplementedError, ValueError, TypeError, RecursionError):
            return None

    value = time_limited(LIMIT_SECONDS, compute)
    if value is None or value.free_symbols or value.has(sp.AccumBounds, sp.nan, sp.zoo):
        return None
    if value.is_real is not True:
        return None
    if value in (sp.oo, -sp.oo):
        return None
    return value
