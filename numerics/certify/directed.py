"""Rigorous bounds in float64 alone: every operation rounded to nearest, then stepped one float outward.

Lemma (provenance ``standard``; IEEE 754 binary64, round to nearest, as numpy and Python compute +, -, x,
/ and sqrt: Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed., 2002, §2.1 and Thm 2.2):
the computed c = fl(r) of the exact result r lies within half a gap of r, so
pred(c) <= r <= succ(c), with pred/succ the neighbouring floats (``nextafter`` toward -inf/+inf). This holds
for subnormal results (the gap is eta = 2^-1074) and for an overflow: c = +inf means r > the largest finite
float, so pred(+inf) <= r <= +inf. Hence an expression evaluated with each operation's result stepped
up (:func:`up`) from operands that are upper bounds of nonnegative quantities, or stepped down
(:func:`down`) from lower bounds, bounds the exact expression; a quotient or difference takes its second
operand's bound of the other direction. A result is at most a few units in its last place wider than
the exact one, the price of not importing a ball library (python-flint) for the layers' certificates.

The certificates' scalars (error bounds, orthogonality defects, residuals) and their singular-value and
(2,1)-norm intervals are such floats; arb balls are formed from them only for the composition of the
proxies (:mod:`numerics.certify.certified`), exactly (a float converts to arb without rounding).
"""

from __future__ import annotations

import math

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
    """An upper bound of the exact sum of the floats ``terms`` (each addition stepped up).

    >>> from fractions import Fraction
    >>> Fraction(sum_up(0.1, 0.2, 0.3)) >= Fraction(0.1) + Fraction(0.2) + Fraction(0.3)
    True
    """
    total = terms[0]
    for term in terms[1:]:
        total = up(total + term)
    return total


def product_up(*factors: float) -> float:
    """An upper bound of the exact product of the nonnegative floats ``factors`` (each product stepped up).

    >>> from fractions import Fraction
    >>> Fraction(product_up(0.1, 0.3)) >= Fraction(0.1) * Fraction(0.3)
    True
    """
    total = factors[0]
    for factor in factors[1:]:
        total = up(total * factor)
    return total


def sqrt_up(x: float) -> float:
    """An upper bound of sqrt(x) for x >= 0 (sqrt is correctly rounded)."""
    return up(math.sqrt(x))


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
