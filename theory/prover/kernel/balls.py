"""Sets of reals as [lo, hi] with arb-ball ends: every member v has lo <= v <= hi for some point of each
ball, and an end flagged ``open`` is a bound no member attains. An infinite end is the float +-inf
(always open). Each operation returns a set containing the image of its arguments' sets; an argument
reaching outside an operation's domain (log of a set reaching 0 that attains it, a quotient by a set
reaching 0) raises :class:`Undefined`. Provenance: derived (interval arithmetic over arb balls).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from theory.errors import require


def flint() -> Any:
    """python-flint (the kernel's trusted ball arithmetic), imported through the one optional-import guard
    (:func:`theory.errors.require`): without it, a :class:`~theory.errors.MissingDependency` naming it."""
    return require("flint", purpose="the prover's kernel (its ball arithmetic)")


if TYPE_CHECKING:
    from flint import arb
else:
    arb = flint().arb

End = Any
"""An arb ball or the float -inf / +inf."""


class Undefined(ArithmeticError):
    """The operation is not defined on the whole set."""


def infinite(value: End) -> bool:
    """value is -inf or +inf."""
    return isinstance(value, float)


@dataclass(frozen=True)
class Set:
    """[lo, hi]; lo_open / hi_open: the end is not attained. ``lo_exact`` / ``hi_exact``: the end's exact
    rational when it is known (a box's range, whose end 1/3 no binary ball holds), else None; the
    operations below do not carry them (:func:`theory.prover.kernel.trees.enclose` reads them for its
    affine nodes)."""

    lo: End
    hi: End
    lo_open: bool = False
    hi_open: bool = False
    lo_exact: Fraction | None = field(default=None, compare=False)
    hi_exact: Fraction | None = field(default=None, compare=False)

    def at_least_zero(self, strict: bool) -> bool:
        """Every member >= 0 (> 0 when strict), decided rigorously."""
        if infinite(self.lo):
            return self.lo > 0
        if strict:
            return bool(self.lo > 0) or (self.lo_open and bool(self.lo >= 0))
        return bool(self.lo >= 0)

    def at_most_zero(self, strict: bool) -> bool:
        """Every member <= 0 (< 0 when strict)."""
        return negate(self).at_least_zero(strict)


def point(value: arb) -> Set:
    """{value} (a ball standing for one unknown point of it)."""
    return Set(value, value)


ZERO = point(arb(0))


def negate(a: Set) -> Set:
    """{-v}."""
    return Set(-a.hi, -a.lo, a.hi_open, a.lo_open)


def _finite(value: End, fallback: End) -> End:
    """A computed end; a NaN or non-finite ball (an indeterminate form) becomes the fallback."""
    if infinite(value) or (value.is_finite() and not value.is_nan()):
        return value
    return fallback


def add(a: Set, b: Set) -> Set:
    """{u + v}."""
    lo = -math.inf if infinite(a.lo) or infinite(b.lo) else _finite(a.lo + b.lo, -math.inf)
    hi = math.inf if infinite(a.hi) or infinite(b.hi) else _finite(a.hi + b.hi, math.inf)
    return Set(lo, hi, a.lo_open or b.lo_open, a.hi_open or b.hi_open)


def _times(x: End, y: End) -> End | None:
    """x * y for ends with 0 * inf = 0 (an exact finite 0 times a bound never attained); None when the
    sign of an infinite product is unknown."""
    if (not infinite(x) and x.is_zero()) or (not infinite(y) and y.is_zero()):
        return arb(0)
    if infinite(x) or infinite(y):
        signs = [
            (1 if v > 0 else -1) if infinite(v) else (1 if v > 0 else -1 if v < 0 else 0) for v in (x, y)
        ]
        return None if 0 in signs else math.inf * signs[0] * signs[1]
    return x * y


def _extreme(values: list[End], largest: bool) -> End:
    if any(infinite(v) and (v > 0) == largest for v in values):
        return math.inf if largest else -math.inf
    finite = [v for v in values if not infinite(v)]
    if not finite:
        return -math.inf if largest else math.inf
    result = finite[0]
    for value in finite[1:]:
        result = result.max(value) if largest else result.min(value)
    return result


def multiply(a: Set, b: Set) -> Set:
    """{u v}: on sets >= 0 an end is attained only when both are (or an attained exact 0 is a factor);
    sets of other signs are reflected to that case, and a set straddling 0 gives closed ends."""
    flip_a = not a.at_least_zero(False) and a.at_most_zero(False)
    flip_b = not b.at_least_zero(False) and b.at_most_zero(False)
    x, y = (negate(a) if flip_a else a), (negate(b) if flip_b else b)
    if x.at_least_zero(False) and y.at_least_zero(False):
        low, high = _times(x.lo, y.lo), _times(x.hi, y.hi)
        zero_attained = any(not s.lo_open and not infinite(s.lo) and s.lo.is_zero() for s in (x, y))
        only_zero = any(not s.hi_open and not infinite(s.hi) and s.hi.is_zero() for s in (x, y))
        product = Set(
            arb(0) if low is None else _finite(low, arb(0)),
            math.inf if high is None else _finite(high, math.inf),
            (x.lo_open or y.lo_open) and not zero_attained,
            (x.hi_open or y.hi_open) and not only_zero,
        )
        return negate(product) if flip_a != flip_b else product
    products = [_times(u, v) for u in (a.lo, a.hi) for v in (b.lo, b.hi)]
    if any(p is None for p in products):
        return Set(-math.inf, math.inf)
    lo = _extreme([_finite(p, -math.inf) for p in products], False)
    hi = _extreme([_finite(p, math.inf) for p in products], True)
    return Set(lo, hi, infinite(lo), infinite(hi))


def reciprocal(a: Set) -> Set:
    """{1 / v} for a set on one side of 0 (an end 0 not attained gives an infinite end)."""
    if a.at_most_zero(False) and not a.at_least_zero(False):
        return negate(reciprocal(negate(a)))
    zero_end = not infinite(a.lo) and a.lo.is_zero() and a.lo_open
    if not (a.at_least_zero(True) and (zero_end or bool(a.lo > 0))):
        raise Undefined("a quotient by a set reaching 0")
    lo = arb(0) if infinite(a.hi) else _finite(1 / a.hi, arb(0))
    hi = math.inf if zero_end else _finite(1 / a.lo, math.inf)
    return Set(lo, hi, a.hi_open, a.lo_open)


def monotone(
    a: Set, f: Callable[[arb], Any], limits: tuple[End, End], increasing: bool = True, strictly: bool = True
) -> Set:
    """{f(v)} for f monotone on the whole set, with ``limits`` its values at -inf and +inf."""

    def image(x: End, fallback: float) -> End:
        if infinite(x):
            return limits[1] if x > 0 else limits[0]
        return _finite(f(x), fallback)

    low_end, high_end = (a.lo, a.hi) if increasing else (a.hi, a.lo)
    low_open, high_open = (a.lo_open, a.hi_open) if increasing else (a.hi_open, a.lo_open)
    lo, hi = image(low_end, -math.inf), image(high_end, math.inf)
    low_open = (low_open or infinite(low_end)) and strictly  # a limit at infinity is not attained
    high_open = (high_open or infinite(high_end)) and strictly
    return Set(lo, hi, low_open or infinite(lo), high_open or infinite(hi))


def hull(a: Set, b: Set) -> Set:
    """The smallest set containing both (ends closed unless both sets leave the same end open)."""
    lo, hi = _extreme([a.lo, b.lo], False), _extreme([a.hi, b.hi], True)
    return Set(lo, hi, infinite(lo), infinite(hi))


def absolute(a: Set) -> Set:
    """{|v|}."""
    if a.at_least_zero(False):
        return a
    if a.at_most_zero(False):
        return negate(a)
    return Set(arb(0), _extreme([negate(a).hi, a.hi], True), False, False)


def power_integer(a: Set, n: int) -> Set:
    """{v^n} for an integer n."""
    if n == 0:
        return point(arb(1))
    if n < 0:
        return reciprocal(power_integer(a, -n))
    if n % 2:
        return monotone(a, lambda x: x**n, (-math.inf, math.inf))
    return monotone(absolute(a), lambda x: x**n, (math.inf, math.inf))


def _above(x: End, y: End, strictly: bool) -> bool:
    """x >= y (x > y when strictly) for every point of the two ends, decided rigorously."""
    if infinite(x) or infinite(y):
        top, bottom = infinite(x) and x > 0, infinite(y) and y < 0
        return (top or bottom) and not (strictly and infinite(x) and infinite(y) and x == y)
    return bool(x > y) if strictly else bool(x >= y)


def maximum(a: Set, b: Set) -> Set:
    """{max(u, v)}, with l, h the bounds of a and l', h' those of b: max(u, v) >= max(l, l'), which no
    member attains when neither set attains its lower bound, or when a does not and l >= l' (then
    max(u, v) >= u > l), or the same with a and b exchanged; max(u, v) <= max(h, h'), not attained when
    neither set attains its upper bound, or a does not and h > h' (then v <= h' < h and u < h), or the
    same exchanged."""
    lo, hi = _extreme([a.lo, b.lo], True), _extreme([a.hi, b.hi], True)
    lo_open = (a.lo_open and (b.lo_open or _above(a.lo, b.lo, False))) or (
        b.lo_open and _above(b.lo, a.lo, False)
    )
    hi_open = (a.hi_open and (b.hi_open or _above(a.hi, b.hi, True))) or (
        b.hi_open and _above(b.hi, a.hi, True)
    )
    return Set(lo, hi, lo_open or infinite(lo), hi_open or infinite(hi))


def minimum(a: Set, b: Set) -> Set:
    """{min(u, v)} = {-max(-u, -v)}."""
    return negate(maximum(negate(a), negate(b)))
