"""Extended-real intervals whose endpoints are arb balls: the arithmetic kernel of the prover.

An :class:`Interval` encloses a set S of real numbers: every member v satisfies ``min(lo) <= v <=
max(hi)``, where ``lo`` and ``hi`` are python-flint ``arb`` balls (so rounding is rigorous) or the
sentinels ``NEG_INF`` / ``POS_INF`` for an unbounded side. ``lo_open`` (``hi_open``) records that the
end is certainly *not attained*: no member equals it (an open end of the domain, an infinite end, or the
image of one under a strictly monotone function). Members are always finite reals. Each operation returns
an enclosure of the image of its arguments (monotone functions map endpoints to endpoints; even powers and
``Abs`` are split at 0). In products ``0 * oo`` is 0 (the IEEE 1788 convention, sound because the 0 is a
finite member and the infinite end is never attained).

Singular points. An argument reaching into a function's non-domain (log or a fractional power of a set
with members < 0, a quotient by a set with 0 inside) raises :class:`Undefined`, and the prover leaves the
box undecided. The one exception is a singular point at an end that is *not attained*: ``log`` of
(0, 1] is [-oo, 0], ``1 / (0, 1]`` is [1, oo]. So every enclosure is of a function defined at every point
of the box (apart from excluded open ends), which the derivative-based rules need; a statement with a
singular point inside its domain (-1/x on [-1, 1]) is never decided there.

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


def is_infinite(value: Endpoint) -> bool:
    """The endpoint is NEG_INF or POS_INF."""
    return isinstance(value, _Infinity)


def _exact_zero(value: Endpoint) -> bool:
    return not is_infinite(value) and value.is_zero()


@dataclass(frozen=True)
class Interval:
    """[lo, hi] with the flags saying which ends are not attained (see the module docstring)."""

    lo: Endpoint
    hi: Endpoint
    lo_open: bool = False
    hi_open: bool = False

    def __post_init__(self) -> None:
        if is_infinite(self.lo):
            object.__setattr__(self, "lo_open", True)
        if is_infinite(self.hi):
            object.__setattr__(self, "hi_open", True)

    def lower_at_least(self, bound: int = 0, strict: bool = False) -> bool:
        """Every member is >= bound (> bound when strict), decided rigorously."""
        if is_infinite(self.lo):
            return bool(self.lo.sign > 0)
        if strict and self.lo_open and bool(self.lo >= bound):
            return True
        return bool(self.lo > bound) if strict else bool(self.lo >= bound)

    def upper_at_most(self, bound: int = 0, strict: bool = False) -> bool:
        """Every member is <= bound (< bound when strict), decided rigorously."""
        if is_infinite(self.hi):
            return bool(self.hi.sign < 0)
        if strict and self.hi_open and bool(self.hi <= bound):
            return True
        return bool(self.hi < bound) if strict else bool(self.hi <= bound)

    @property
    def bounded(self) -> bool:
        """Both endpoints finite."""
        return not (is_infinite(self.lo) or is_infinite(self.hi))

    def __repr__(self) -> str:
        left = "(" if self.lo_open else "["
        right = ")" if self.hi_open else "]"
        return f"{left}{self.lo}, {self.hi}{right}"


def _checked(value: Endpoint, fallback: Endpoint) -> Endpoint:
    """A computed endpoint; an arb NaN or non-finite ball (an indeterminate form) becomes the fallback."""
    if is_infinite(value):
        return value
    if value.is_nan() or not value.is_finite():
        return fallback
    return value


def _extreme(values: list[Endpoint], toward: int) -> Endpoint:
    """The smallest (``toward`` -1) or largest (+1) of ``values`` in the order NEG_INF < reals < POS_INF: the
    infinity on that side if present, else arb's min/max of the real ones, else the other infinity."""
    if any(is_infinite(v) and v.sign == toward for v in values):
        return POS_INF if toward > 0 else NEG_INF
    finite = [v for v in values if not is_infinite(v)]
    if not finite:
        return NEG_INF if toward > 0 else POS_INF
    result = finite[0]
    for value in finite[1:]:
        result = result.max(value) if toward > 0 else result.min(value)
    return result


def _lower_min(values: list[Endpoint]) -> Endpoint:
    return _extreme(values, -1)


def _upper_max(values: list[Endpoint]) -> Endpoint:
    return _extreme(values, 1)


def add(a: Interval, b: Interval) -> Interval:
    """[a.lo + b.lo, a.hi + b.hi]; an end is attained only if both summands' ends are."""
    lo = NEG_INF if is_infinite(a.lo) or is_infinite(b.lo) else _checked(a.lo + b.lo, NEG_INF)
    hi = POS_INF if is_infinite(a.hi) or is_infinite(b.hi) else _checked(a.hi + b.hi, POS_INF)
    return Interval(lo, hi, a.lo_open or b.lo_open, a.hi_open or b.hi_open)


def _negate(value: Endpoint) -> Endpoint:
    if is_infinite(value):
        return POS_INF if value.sign < 0 else NEG_INF
    return -value


def neg(a: Interval) -> Interval:
    """[-a.hi, -a.lo]."""
    return Interval(_negate(a.hi), _negate(a.lo), a.hi_open, a.lo_open)


def _sign(value: Endpoint) -> int | None:
    """+1, -1, 0 (exact zero) or None (a ball straddling 0)."""
    if is_infinite(value):
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
    if is_infinite(x) or is_infinite(y):
        sx, sy = _sign(x), _sign(y)
        if sx is None or sy is None:
            return None
        return POS_INF if sx * sy > 0 else NEG_INF
    return x * y


def mul(a: Interval, b: Interval) -> Interval:
    """The hull of the four endpoint products; for factors of known signs the ends that are not attained
    are tracked (the product of two sets >= 0 attains its lower end iff both factors attain theirs or
    one attains an exact 0), otherwise every end is marked attained (conservative)."""
    flip_a, flip_b = (
        a.upper_at_most(0) and not a.lower_at_least(0),
        b.upper_at_most(0) and not b.lower_at_least(0),
    )
    if (flip_a or a.lower_at_least(0)) and (flip_b or b.lower_at_least(0)):
        product = _nonnegative_product(neg(a) if flip_a else a, neg(b) if flip_b else b)
        return neg(product) if flip_a != flip_b else product
    products = [_endpoint_product(x, y) for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
    if any(p is None for p in products):
        return Interval(NEG_INF, POS_INF)
    lows = [_checked(p, NEG_INF) for p in products]
    highs = [_checked(p, POS_INF) for p in products]
    return Interval(_lower_min(lows), _upper_max(highs))


def _nonnegative_product(a: Interval, b: Interval) -> Interval:
    low, high = _endpoint_product(a.lo, b.lo), _endpoint_product(a.hi, b.hi)
    if low is None or high is None:
        return Interval(arb(0), POS_INF)
    zero_attained = (_exact_zero(a.lo) and not a.lo_open) or (_exact_zero(b.lo) and not b.lo_open)
    lo_open = (a.lo_open or b.lo_open) and not zero_attained
    return Interval(_checked(low, arb(0)), _checked(high, POS_INF), lo_open, a.hi_open or b.hi_open)


def reciprocal(a: Interval) -> Interval:
    """1 / a for a set on one side of 0; a not-attained end 0 gives the one-sided limit +-oo."""
    if a.lower_at_least(0, strict=True) or a.upper_at_most(0, strict=True):
        lo = arb(0) if is_infinite(a.hi) else _checked(1 / a.hi, NEG_INF)
        hi = arb(0) if is_infinite(a.lo) else _checked(1 / a.lo, POS_INF)
        return Interval(lo, hi, a.hi_open, a.lo_open)
    if _exact_zero(a.lo) and a.lo_open and a.lower_at_least(0):
        lo = arb(0) if is_infinite(a.hi) else _checked(1 / a.hi, NEG_INF)
        return Interval(lo, POS_INF, a.hi_open, True)
    if _exact_zero(a.hi) and a.hi_open and a.upper_at_most(0):
        hi = arb(0) if is_infinite(a.lo) else _checked(1 / a.lo, POS_INF)
        return Interval(NEG_INF, hi, True, a.lo_open)
    raise Undefined(f"division by a set that may contain 0: {a}")


def monotone(
    a: Interval,
    f: Callable[[Any], Any],
    at_neg_inf: Endpoint,
    at_pos_inf: Endpoint,
    increasing: bool = True,
    strictly: bool = True,
) -> Interval:
    """f(a) for a monotone f defined on all of a, with its limits at -oo and +oo; a strictly monotone f
    maps a not-attained end to a not-attained end."""

    def image(x: Endpoint, fallback: Endpoint) -> Endpoint:
        if is_infinite(x):
            return at_pos_inf if x.sign > 0 else at_neg_inf
        value = f(x)
        return value if is_infinite(value) else _checked(value, fallback)

    if increasing:
        return Interval(
            image(a.lo, NEG_INF), image(a.hi, POS_INF), a.lo_open and strictly, a.hi_open and strictly
        )
    return Interval(
        image(a.hi, NEG_INF), image(a.lo, POS_INF), a.hi_open and strictly, a.lo_open and strictly
    )


def require_nonnegative(a: Interval, what: str) -> None:
    """Raise Undefined unless every member of a is >= 0."""
    if not a.lower_at_least(0):
        raise Undefined(f"{what} of a set reaching below 0: {a}")


def singular_at_zero(a: Interval) -> bool:
    """a's lower end is an exact 0 that is not attained (a one-sided limit is then allowed)."""
    return _exact_zero(a.lo) and a.lo_open


def hull(a: Interval, b: Interval) -> Interval:
    """The smallest interval containing both; an end is open when every set reaching it leaves it open."""
    lo = _lower_min([a.lo, b.lo])
    hi = _upper_max([a.hi, b.hi])
    lo_open = _open_end(a.lo, a.lo_open, b.lo, b.lo_open, lower=True)
    hi_open = _open_end(a.hi, a.hi_open, b.hi, b.hi_open, lower=False)
    return Interval(lo, hi, lo_open, hi_open)


def _key(value: Endpoint) -> Any:
    return value.sign if is_infinite(value) else 0


def _open_end(x: Endpoint, x_open: bool, y: Endpoint, y_open: bool, lower: bool) -> bool:
    if is_infinite(x) or is_infinite(y):
        if is_infinite(x) and is_infinite(y):
            return True
        x_beyond = _key(x) < _key(y) if lower else _key(x) > _key(y)
        return x_open if x_beyond else y_open
    if x.is_exact() and y.is_exact() and x == y:
        return x_open and y_open
    if bool(x < y):
        return x_open if lower else y_open
    if bool(y < x):
        return y_open if lower else x_open
    return False


def maximum(a: Interval, b: Interval) -> Interval:
    """{max(x, y)} for x in a, y in b (ends marked attained: conservative)."""
    return Interval(_upper_max([a.lo, b.lo]), _upper_max([a.hi, b.hi]))


def minimum(a: Interval, b: Interval) -> Interval:
    """{min(x, y)} for x in a, y in b (ends marked attained: conservative)."""
    return Interval(_lower_min([a.lo, b.lo]), _lower_min([a.hi, b.hi]))


def absolute(a: Interval) -> Interval:
    """{|x|}: the identity on [0, oo), the reflection on (-oo, 0], [0, max] (0 attained) across 0."""
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
    if a.lower_at_least(0, strict=True):
        return Interval(arb(1), arb(1))
    if a.upper_at_most(0, strict=True):
        return Interval(arb(-1), arb(-1))
    return Interval(arb(-1), arb(1))


def heaviside(a: Interval) -> Interval:
    """{H(x)}: 1 on x > 0, 0 on x < 0, [0, 1] otherwise (the derivative of Max and Min)."""
    if a.lower_at_least(0, strict=True):
        return Interval(arb(1), arb(1))
    if a.upper_at_most(0, strict=True):
        return Interval(arb(0), arb(0))
    return Interval(arb(0), arb(1))
