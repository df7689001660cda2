"""Unbounded variables: where to split a half-line.

Compactification: a half-line [a, oo) with a >= 0 is the image of u in [a/(1+a), 1) under x = u/(1-u);
bisecting u at its midpoint is splitting x at 2a + 1, so repeated splitting walks to infinity
geometrically and the last box [X, oo) always stays in the cover (nothing is truncated). The whole line is
first split at 0, and (-oo, b] mirrors [a, oo). On a box [X, oo) the ball evaluation of the statement
runs with the unbounded endpoint itself (exp(-oo) = 0, erf(oo) = 1, ...: the kernel's limits at
infinity); where it does not decide and the statement is monotone on the box towards the infinite end,
a tail [X', oo) far out is enclosed instead (:mod:`theory.prover.search`). Provenance: derived (a
compactifying change of variable).
"""

from __future__ import annotations

import math
from fractions import Fraction

from theory.prover.domain import Bound


def compact(value: Bound) -> float:
    """u = x / (1 + |x|) in [-1, 1]: the compactified coordinate, used to compare widths of boxes."""
    if isinstance(value, float) or abs(value) > 2**1000:
        return 1.0 if value > 0 else -1.0
    return float(value) / (1 + abs(float(value)))


def split_point(lower: Bound, upper: Bound, integer: bool) -> Fraction:
    """Where to cut [lower, upper]: the midpoint, or the compactified midpoint of an unbounded side.

    For integers the cut c means [lower, c] and [c + 1, upper].

    >>> split_point(Fraction(3), math.inf, False), split_point(-math.inf, math.inf, False)
    (Fraction(7, 1), Fraction(0, 1))
    """
    if isinstance(lower, float) and isinstance(upper, float):
        cut = Fraction(0)
    elif isinstance(upper, float):
        cut = Fraction(0) if lower < 0 else 2 * Fraction(lower) + 1
    elif isinstance(lower, float):
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
    if isinstance(lower, float) and isinstance(upper, float):
        return Fraction(0)
    if isinstance(upper, float):
        return Fraction(lower) + 1
    if isinstance(lower, float):
        return Fraction(upper) - 1
    return (Fraction(lower) + Fraction(upper)) / 2
