"""Extended-real intervals whose endpoints are arb balls: the arithmetic kernel of the prover.

An :class:`Interval` ``[lo, hi]`` encloses a set of real numbers: every member v satisfies
``min(lo) <= v <= max(hi)``, where ``lo`` and ``hi`` are python-flint ``arb`` balls (so rounding is
rigorous) or the sentinels ``NEG_INF`` / ``POS_INF`` for an unbounded side. Members are always finite
reals; infinite endpoints only say "no bound on this side". Each operation returns an enclosure of the
image of its arguments (the range of a monotone function is read off its endpoints; non-monotone
elementary operations, such as even powers or ``Abs``, are split at their turning point). In products,
``0 * oo`` is taken as 0, the IEEE 1788 convention, which is sound because the 0 is a finite member and
the infinite endpoint is never attained.

An argument outside the function's natural domain (log or a fractional power of a set reaching below 0,
a quotient by a set containing 0 in its interior) raises :class:`Undefined`; the prover then leaves the
box undecided, never decides it. A set that only *touches* the singular point at an exact endpoint 0 (the
box (0, 1] of ``log x``) gets the one-sided limit as its endpoint (``log [0, 1] = [-oo, 0]``): the
enclosure covers every point of the set at which the function is defined.

Provenance: derived (standard interval arithmetic; Moore, Kearfott & Cloud, *Introduction to Interval
Analysis*, SIAM 2009, ch. 5), on arb's rigorous ball arithmetic (Johansson 2017, IEEE Trans. Comput.).
This module imports python-flint; only the prover's search and checker import it, never ``import theory``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flint import arb

Endpoint = Any
"""An arb ball, or NEG_INF / POS_INF."""


class _Infinity:
    def __init__(self, sign: int) -> None:
        self.sign = sign

    def __repr__(self) -> str:
        return "oo" if self.sign > 0 else "-oo"


NEG_INF = _Infinity(-1)
POS_INF = _Infinity(1)


class Undefined(ArithmeticError):
    """The expression is not defined on (part of) the set: the box cannot be decided by enclosure."""


def _is_inf(value: Endpoint) -> bool:
    return isinstance(value, _Infinity)


def _exact_zero(value: Endpoint) -> bool:
    return not _is_inf(value) and value.is_zero()


@dataclass(frozen=True)
class Interval:
    """The closed extended interval [lo, hi] (see the module docstring for the meaning of the endpoints)."""

    lo: Endpoint
    hi: Endpoint

    def lower_at_least(self, bound: int = 0, strict: bool = False) -> bool:
        """Every member is >= bound (> bound when strict), decided rigorously."""
        if _is_inf(self.lo):
            return self.lo.sign > 0
        return bool(self.lo > bound) if strict else bool(self.lo >= bound)

    def upper_at_most(self, bound: int = 0, strict: bool = False) -> bool:
        """Every member is <= bound (< bound when strict), decided rigorously."""
        if _is_inf(self.hi):
            return self.hi.sign < 0
        return bool(self.hi < bound) if strict else bool(self.hi <= bound)

    @property
    def bounded(self) -> bool:
        """Both endpoints finite."""
        return not (_is_inf(self.lo) or _is_inf(self.hi))

    def __repr__(self) -> str:
        return f"[{self.lo}, {self.hi}]"


def _checked(value: Endpoint, fallback: Endpoint) -> Endpoint:
    """A computed endpoint; an arb NaN (an indeterminate form) is replaced by the unbounded fallback."""
    if _is_inf(value):
        return value
    if value.is_nan() or not value.is_finite():
        return fallback
    return value


def _lower_min(values: list[Endpoint]) -> Endpoint:
    finite = []
    for value in values:
        if _is_inf(value):
            if value.sign < 0:
                return NEG_INF
            continue
        finite.append(value)
    if not finite:
        return POS_INF
    result = finite[0]
    for value in finite[1:]:
        result = result.min(value)
    return result


def _upper_max(values: list[Endpoint]) -> Endpoint:
    finite = []
    for value in values:
        if _is_inf(value):
            if value.sign > 0:
                return POS_INF
            continue
        finite.append(value)
    if not finite:
        return NEG_INF
    result = finite[0]
    for value in finite[1:]:
        result = result.max(value)
    return result


def add(a: Interval, b: Interval) -> Interval:
    """[a.lo + b.lo, a.hi + b.hi]."""
    lo = NEG_INF if _is_inf(a.lo) or _is_inf(b.lo) else _checked(a.lo + b.lo, NEG_INF)
    hi = POS_INF if _is_inf(a.hi) or _is_inf(b.hi) else _checked(a.hi + b.hi, POS_INF)
    return Interval(lo, hi)


def neg(a: Interval) -> Interval:
    """[-a.hi, -a.lo]."""
    flip = {id(NEG_INF): POS_INF, id(POS_INF): NEG_INF}
    lo = flip[id(a.hi)] if _is_inf(a.hi) else -a.hi
    hi = flip[id(a.lo)] if _is_inf(a.lo) else -a.lo
    return Interval(lo, hi)


def _sign(value: Endpoint) -> int | None:
    """+1, -1, 0 (exact zero) or None (a ball straddling 0)."""
    if _is_inf(value):
        return int(value.sign)
    if value.is_zero():
        return 0
    if value > 0:
        return 1
    if value < 0:
        return -1
    return None


def _endpoint_product(x: Endpoint, y: Endpoint) -> Endpoint | None:
    """x * y with 0 * oo = 0; None for an indeterminate sign times an infinity."""
    if _exact_zero(x) or _exact_zero(y):
        return arb(0)
    if _is_inf(x) or _is_inf(y):
        sx, sy = _sign(x), _sign(y)
        if sx is None or sy is None:
            return None
        return POS_INF if sx * sy > 0 else NEG_INF
    return x * y


def mul(a: Interval, b: Interval) -> Interval:
    """The hull of the four endpoint products (an indeterminate product leaves that side unbounded)."""
    products = [_endpoint_product(x, y) for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
    if any(p is None for p in products):
        return Interval(NEG_INF, POS_INF)
    lows = [_checked(p, NEG_INF) for p in products]
    highs = [_checked(p, POS_INF) for p in products]
    return Interval(_lower_min(lows), _upper_max(highs))


def reciprocal(a: Interval) -> Interval:
    """1 / a for a set on one side of 0; an exact endpoint 0 gives the one-sided limit +-oo."""
    if a.lower_at_least(0, strict=True) or a.upper_at_most(0, strict=True):
        lo = arb(0) if _is_inf(a.hi) else _checked(1 / a.hi, NEG_INF)
        hi = arb(0) if _is_inf(a.lo) else _checked(1 / a.lo, POS_INF)
        return Interval(lo, hi)
    if _exact_zero(a.lo) and a.lower_at_least(0):
        return Interval(POS_INF if _is_inf(a.hi) else _checked(1 / a.hi, NEG_INF), POS_INF)
    if _exact_zero(a.hi) and a.upper_at_most(0):
        return Interval(NEG_INF, arb(0) if _is_inf(a.lo) else _checked(1 / a.lo, POS_INF))
    raise Undefined(f"division by a set containing 0: {a}")



def monotone(
    a: Interval, f: Callable[[Any], Any], at_neg_inf: Endpoint, at_pos_inf: Endpoint, increasing: bool = True
) -> Interval:
    """f(a) for a monotone f defined on all of a, with its limits at -oo and +oo."""

    def image(x: Endpoint, fallback: Endpoint) -> Endpoint:
        if _is_inf(x):
            return at_pos_inf if x.sign > 0 else at_neg_inf
        return _checked(f(x), fallback)

    if increasing:
        return Interval(image(a.lo, NEG_INF), image(a.hi, POS_INF))
    return Interval(image(a.hi, NEG_INF), image(a.lo, POS_INF))


def require_nonnegative(a: Interval, what: str) -> None:
    """Raise Undefined unless every member of a is >= 0."""
    if not a.lower_at_least(0):
        raise Undefined(f"{what} of a set reaching below 0: {a}")


def hull(a: Interval, b: Interval) -> Interval:
    """The smallest interval containing both."""
    return Interval(_lower_min([a.lo, b.lo]), _upper_max([a.hi, b.hi]))


def maximum(a: Interval, b: Interval) -> Interval:
    """{max(x, y)} for x in a, y in b."""
    return Interval(_upper_max_of_lows(a.lo, b.lo), _upper_max([a.hi, b.hi]))


def minimum(a: Interval, b: Interval) -> Interval:
    """{min(x, y)} for x in a, y in b."""
    return Interval(_lower_min([a.lo, b.lo]), _lower_min_of_highs(a.hi, b.hi))


def _upper_max_of_lows(x: Endpoint, y: Endpoint) -> Endpoint:
    if _is_inf(x):
        return y if x.sign < 0 else x
    if _is_inf(y):
        return x if y.sign < 0 else y
    return x.max(y)


def _lower_min_of_highs(x: Endpoint, y: Endpoint) -> Endpoint:
    if _is_inf(x):
        return y if x.sign > 0 else x
    if _is_inf(y):
        return x if y.sign > 0 else y
    return x.min(y)


def absolute(a: Interval) -> Interval:
    """{|x|}: the identity on [0, oo), the reflection on (-oo, 0], [0, max] across 0."""
    if a.lower_at_least(0):
        return a
    if a.upper_at_most(0):
        return neg(a)
    reflected = neg(a)
    return Interval(arb(0), _upper_max([reflected.hi, a.hi]))


def integer_power(a: Interval, n: int) -> Interval:
    """a^n for an integer n: odd powers are increasing, even powers split at 0, negative n via 1/a^|n|."""
    if n == 0:
        return Interval(arb(1), arb(1))
    if n < 0:
        return reciprocal(integer_power(a, -n))

    def power(x: Any) -> Any:
        return x**n

    if n % 2 == 1:
        return monotone(a, power, NEG_INF, POS_INF)
    return monotone(absolute(a), power, POS_INF, POS_INF)



def sign_of(a: Interval) -> Interval:
    """{sign(x)}: 1, -1, or [-1, 1] (the derivative of Abs)."""
    one = arb(1)
    if a.lower_at_least(0, strict=True):
        return Interval(one, one)
    if a.upper_at_most(0, strict=True):
        return Interval(-one, -one)
    return Interval(-one, one)


def heaviside(a: Interval) -> Interval:
    """{H(x)}: 1 on x > 0, 0 on x < 0, [0, 1] otherwise (the derivative of Max and Min)."""
    one = arb(1)
    if a.lower_at_least(0, strict=True):
        return Interval(one, one)
    if a.upper_at_most(0, strict=True):
        return Interval(arb(0), arb(0))
    return Interval(arb(0), one)
