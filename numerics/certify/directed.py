"""Rigorous bounds in float64 alone: every operation rounded to nearest, then stepped one float outward.

Lemma (provenance ``standard``; IEEE 754 binary64, round to nearest, as numpy and Python compute +, -, x,
/ and sqrt: Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed., 2002, §2.1 and Thm 2.2):
the computed c = fl(r) of the exact result r lies within half a gap of r, so
pred(c) <= r <= succ(c), with pred/succ the neighbouring floats (``nextafter`` toward -inf/+inf). This holds
for subnormal results (the gap is eta = 2^-1074) and for an overflow: c = +inf means r > the largest finite
float, so pred(+inf) <= r <= +inf. Hence an expression evaluated with each operation's result stepped
up (:func:`up`) from operands that are upper bounds of nonnegative quantities, or stepped down
(:func:`down`) from lower bounds, bounds the exact expression; a quotient or difference takes its second
operand's bound of the other direction. Zero rules (exact in IEEE arithmetic, so not stepped): x 0 = 0,
x + 0 = x and sqrt(0) = 0 for finite x (:func:`product_up`, :func:`product_down`, :func:`sum_up`,
:func:`sqrt_up` and their array forms), so an exactly zero quantity (a pruned head's block) keeps the
exact value 0 through them. A result is at most a few units in its last place wider than
the exact one, the price of not importing a ball library (python-flint) for the layers' certificates.

The certificates' scalars (error bounds, orthogonality defects, residuals) and their singular-value and
(2,1)-norm intervals are such floats; arb balls are formed from them only for the composition of the
proxies (:mod:`numerics.certify.certified`), exactly (a float converts to arb without rounding).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

ETA = 2.0**-1074
"""The smallest positive subnormal binary64 number (the underflow unit of (B1) in
:mod:`numerics.certify.float_bounds`)."""
ABOVE_ONE_PLUS_U = 1 + 2.0**-52
"""A float >= 1 + u (u = 2^-53): 1 + u itself is not a float (it rounds to 1)."""
ONE_MINUS_U = 1 - 2.0**-53
"""1 - u, exactly a float."""


def up(x: float) -> float:
    """The next float above ``x``: an upper bound of any real that rounds to nearest to ``x``.

    >>> up(1.0) > 1.0 and up(1.0) - 1.0 == 2.0**-52
    True
    """
    return math.nextafter(x, math.inf)


def down(x: float) -> float:
    """The next float below ``x``: a lower bound of any real that rounds to nearest to ``x``.

    >>> down(1.0) == 1.0 - 2.0**-53
    True
    """
    return math.nextafter(x, -math.inf)


def up_array(x: np.ndarray) -> np.ndarray:
    """:func:`up` of every entry (a step into or within the subnormals is not an error)."""
    with np.errstate(under="ignore"):
        return np.nextafter(x, np.inf)


def down_array(x: np.ndarray) -> np.ndarray:
    """:func:`down` of every entry (a step into or within the subnormals is not an error)."""
    with np.errstate(under="ignore"):
        return np.nextafter(x, -np.inf)


def sum_up(*terms: float) -> float:
    """An upper bound of the exact sum of the floats ``terms`` (each addition stepped up); an exact 0 term
    (either sign) is skipped, not stepped: x + 0 = x exactly (the sum of zeros is 0).

    >>> from fractions import Fraction
    >>> Fraction(sum_up(0.1, 0.2, 0.3)) >= Fraction(0.1) + Fraction(0.2) + Fraction(0.3)
    True
    >>> sum_up(0.5, 0.0), sum_up(0.0, -0.0)
    (0.5, 0.0)
    """
    nonzero = [term for term in terms if term != 0]
    if not nonzero:
        return 0.0
    total = nonzero[0]
    for term in nonzero[1:]:
        total = up(total + term)
    return total


def product_up(*factors: float) -> float:
    """An upper bound of the exact product of the nonnegative floats ``factors`` (each product stepped up);
    exactly 0 when a factor is an exact 0 (either sign): x 0 = 0 exactly, and a zero stepped up would
    leave an exact zero (a pruned head's singular value, a zero rank tolerance) bounded only by eta.

    >>> from fractions import Fraction
    >>> Fraction(product_up(0.1, 0.3)) >= Fraction(0.1) * Fraction(0.3)
    True
    >>> product_up(3.0, 0.0), product_up(2.0**-600, 2.0**-600) > 0  # underflow: stepped, not exact
    (0.0, True)
    """
    return 0.0 if _has_zero(factors) else _stepped_product(factors, up)


def product_down(*factors: float) -> float:
    """A lower bound of the exact product of the nonnegative floats ``factors`` (each product stepped down,
    clipped at 0, below which no such product lies); exactly 0 when a factor is an exact 0 (either sign).

    >>> from fractions import Fraction
    >>> Fraction(product_down(0.1, 0.3)) <= Fraction(0.1) * Fraction(0.3)
    True
    >>> product_down(-0.0, 5.0), product_down(2.0**-600, 2.0**-600)  # the underflow clipped at 0
    (0.0, 0.0)
    """
    return 0.0 if _has_zero(factors) else max(_stepped_product(factors, down), 0.0)


def _has_zero(factors: tuple[float, ...]) -> bool:
    """Whether a factor is an exact 0 (0.0 or -0.0): the product is then exactly 0."""
    return any(factor == 0 for factor in factors)


def _stepped_product(factors: tuple[float, ...], step: Callable[[float], float]) -> float:
    """The product of ``factors`` left to right, each product's rounding stepped by ``step``."""
    total = factors[0]
    for factor in factors[1:]:
        total = step(total * factor)
    return total


def sqrt_up(x: float) -> float:
    """An upper bound of sqrt(x) for x >= 0 (sqrt is correctly rounded; sqrt(0) = 0 exactly, not stepped)."""
    return 0.0 if x == 0 else up(math.sqrt(x))


def product_up_array(values: np.ndarray, factor: float) -> np.ndarray:
    """:func:`product_up` of every entry of the nonnegative ``values`` with ``factor``, with its zero rule.

    >>> product_up_array(np.array([0.0, 1.0]), 3.0).tolist() == [0.0, up(3.0)]
    True
    """
    with np.errstate(under="ignore"):
        return np.where((values == 0) | (factor == 0), 0.0, up_array(values * factor))


def sum_up_array(values: np.ndarray, term: float) -> np.ndarray:
    """:func:`sum_up` of every entry of ``values`` with ``term``, with its zero rule.

    >>> sum_up_array(np.array([0.0, 1.0]), 0.0).tolist(), sum_up_array(np.array([0.0]), 0.5).tolist()
    ([0.0, 1.0], [0.5])
    """
    if term == 0:
        return np.array(values, dtype=np.float64)
    with np.errstate(under="ignore"):
        return np.where(values == 0, term, up_array(values + term))


def sqrt_up_array(values: np.ndarray) -> np.ndarray:
    """:func:`sqrt_up` of every entry of the nonnegative ``values``, with its zero rule."""
    return np.where(values == 0, 0.0, up_array(np.sqrt(values)))


def scaled_bounds(lower: np.ndarray, upper: np.ndarray, exponent: int) -> tuple[np.ndarray, np.ndarray]:
    """(lower 2^e, upper 2^e) rounded outward: exact unless a value leaves float64's normal range (checked
    by scaling back; a rounded value is stepped outward).

    >>> lo, hi = scaled_bounds(np.array([3.0]), np.array([5.0]), -1)
    >>> lo.tolist(), hi.tolist()
    ([1.5], [2.5])
    """
    with np.errstate(under="ignore", over="ignore"):
        lo, hi = np.ldexp(lower, exponent), np.ldexp(upper, exponent)
        lo = np.where(np.ldexp(lo, -exponent) == lower, lo, down_array(lo))
        hi = np.where(np.ldexp(hi, -exponent) == upper, hi, up_array(hi))
    return lo, hi
