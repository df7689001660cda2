"""Evaluate a sympy expression over a box in interval arithmetic with arb-ball endpoints.

``compile_expression(expr)`` turns the expression tree once into nested closures; calling the result
with ``{name: Interval}`` returns an :class:`~theory.prover.intervals.Interval` enclosing the expression's
values on the box (at every point where it is defined, see :mod:`theory.prover.intervals`). Supported:
numbers and the constants pi, E; +, -, *, /; powers with integer, constant or symbolic exponents (the
last as exp(b log a), with 0^b = 0 for b > 0); exp, log, sqrt, erf, erfc, atan, tanh, Abs, Max, Min,
floor, ceiling (monotone, so the enclosure [floor(lo), floor(hi)] is exact on each side of a jump), and
sign and Heaviside (the
derivatives sympy gives for Abs, Max and Min). Anything else raises :class:`UnsupportedExpression` when
the expression is compiled. Provenance: derived (interval extension of each operation).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from fractions import Fraction

import sympy as sp
from flint import arb, ctx, fmpq

from theory.errors import InvalidArgument
from theory.prover import intervals as iv
from theory.prover.intervals import NEG_INF, POS_INF, Interval

Environment = Mapping[str, Interval]
Evaluator = Callable[[Environment], Interval]

DEFAULT_PRECISION = 64
"""Bits of the arb balls for box enclosures; point checks (faces, witnesses) use POINT_PRECISION."""
POINT_PRECISION = 128


class UnsupportedExpression(InvalidArgument):
    """The expression uses a function the interval evaluator has no enclosure for."""


def ball(value: Fraction | sp.Rational) -> arb:
    """The arb ball of an exact rational (exact when the rational is dyadic)."""
    return arb(fmpq(int(value.numerator), int(value.denominator)))


def point(value: Fraction) -> Interval:
    """The degenerate interval [value, value]."""
    b = ball(value)
    return Interval(b, b)


def span(
    lower: Fraction | float, upper: Fraction | float, lower_open: bool = False, upper_open: bool = False
) -> Interval:
    """[lower, upper] with +-math.inf mapped to unbounded sides; the flags mark ends not attained."""
    lo = NEG_INF if isinstance(lower, float) else ball(lower)
    hi = POS_INF if isinstance(upper, float) else ball(upper)
    return Interval(lo, hi, lower_open, upper_open)


def _constant(value: Callable[[], arb]) -> Evaluator:
    def evaluate(env: Environment) -> Interval:
        b = value()
        return Interval(b, b)

    return evaluate


def _fold(parts: list[Evaluator], combine: Callable[[Interval, Interval], Interval]) -> Evaluator:
    def evaluate(env: Environment) -> Interval:
        result = parts[0](env)
        for part in parts[1:]:
            result = combine(result, part(env))
        return result

    return evaluate


def _unary(inner: Evaluator, apply: Callable[[Interval], Interval]) -> Evaluator:
    return lambda env: apply(inner(env))


def _log(a: Interval) -> Interval:
    iv.require_nonnegative(a, "log")
    if not (a.lower_at_least(0, strict=True) or iv.singular_at_zero(a)):
        raise iv.Undefined(f"log of a set that may contain 0: {a}")
    return iv.monotone(a, lambda x: NEG_INF if x.is_zero() else x.log(), NEG_INF, POS_INF)


def _constant_power(exponent: arb) -> Callable[[Interval], Interval]:
    """x^c for a constant non-integer c: defined for x >= 0, increasing for c > 0, decreasing for c < 0."""

    def apply(a: Interval) -> Interval:
        iv.require_nonnegative(a, f"power {exponent}")
        if exponent > 0:
            return iv.monotone(a, lambda x: x * 0 if x.is_zero() else x**exponent, NEG_INF, POS_INF)
        if exponent < 0:
            if not (a.lower_at_least(0, strict=True) or iv.singular_at_zero(a)):
                raise iv.Undefined(f"negative power {exponent} of a set that may contain 0: {a}")
            return iv.monotone(a, lambda x: POS_INF if x.is_zero() else x**exponent, POS_INF, arb(0), False)
        raise iv.Undefined(f"exponent {exponent} has no sign")

    return apply


def _number(expr: sp.Expr) -> Callable[[], arb]:
    """A closed-form constant as an arb ball (evaluated at the current precision)."""
    if isinstance(expr, sp.Rational):
        return functools.partial(ball, expr)
    if isinstance(expr, sp.Float):
        return functools.partial(ball, sp.Rational(expr))
    if expr is sp.pi:
        return arb.pi
    if expr is sp.E:
        return lambda: arb(1).exp()
    if expr is sp.EulerGamma:
        return arb.const_euler
    evaluate = compile_expression(expr)

    def value() -> arb:
        enclosure = evaluate({})
        if not enclosure.bounded:
            raise iv.Undefined(f"the constant {expr} is not finite")
        return arb.union(enclosure.lo, enclosure.hi)

    return value


def _monotone_function(
    name: str, at_neg: object, at_pos: object, increasing: bool = True, strictly: bool = True
) -> Callable[[Interval], Interval]:
    def apply(a: Interval) -> Interval:
        return iv.monotone(a, lambda x: getattr(x, name)(), at_neg, at_pos, increasing, strictly)

    return apply


def _builders() -> dict[type, Callable[[Interval], Interval]]:
    return {
        sp.exp: _monotone_function("exp", arb(0), POS_INF),
        sp.erf: _monotone_function("erf", arb(-1), arb(1)),
        sp.erfc: _monotone_function("erfc", arb(2), arb(0), increasing=False),
        sp.atan: _monotone_function("atan", -arb.pi() / 2, arb.pi() / 2),
        sp.tanh: _monotone_function("tanh", arb(-1), arb(1)),
        sp.floor: _monotone_function("floor", NEG_INF, POS_INF, strictly=False),
        sp.ceiling: _monotone_function("ceil", NEG_INF, POS_INF, strictly=False),
        sp.log: _log,
        sp.Abs: iv.absolute,
        sp.sign: iv.sign_of,
        sp.Heaviside: iv.heaviside,
    }


@functools.lru_cache(maxsize=4096)
def compile_expression(expr: sp.Expr) -> Evaluator:
    """The interval evaluator of ``expr`` (cached per expression).

    >>> x = sp.Symbol("x")
    >>> f = compile_expression(sp.exp(x) - 1 - x)
    >>> f({"x": span(Fraction(0), Fraction(1))}).lower_at_least(-2)
    True
    """
    if isinstance(expr, sp.Symbol):
        name = expr.name
        return lambda env: env[name]
    if not expr.free_symbols:
        if expr.is_real is False:
            raise UnsupportedExpression(f"{expr} is not a real number")
        if expr.is_Atom:
            return _constant(_number(expr))
    if isinstance(expr, sp.Add):
        return _fold([compile_expression(a) for a in expr.args], iv.add)
    if isinstance(expr, sp.Mul):
        return _fold([compile_expression(a) for a in expr.args], iv.mul)
    if isinstance(expr, sp.Pow):
        return _compile_power(expr)
    if isinstance(expr, (sp.Max, sp.Min)):
        combine = iv.maximum if isinstance(expr, sp.Max) else iv.minimum
        return _fold([compile_expression(a) for a in expr.args], combine)
    builders = _builders()
    if type(expr) in builders and len(expr.args) == 1:
        return _unary(compile_expression(expr.args[0]), builders[type(expr)])
    if isinstance(expr, sp.Heaviside) and _unit_value_at_zero(expr):
        return _unary(compile_expression(expr.args[0]), builders[sp.Heaviside])
    raise UnsupportedExpression(
        f"the prover has no interval enclosure for {type(expr).__name__} (in {expr}); supported: "
        "+ - * / ^, exp, log, sqrt, erf, erfc, atan, tanh, Abs, Max, Min, floor, ceiling, Phi, phi"
    )


def _unit_value_at_zero(expr: sp.Heaviside) -> bool:
    """Heaviside(x, H0) with 0 <= H0 <= 1 (sympy's default H0 = 1/2, the derivative of Max and Min): the
    enclosure [0, 1] of a set reaching 0 then contains the value at 0."""
    if len(expr.args) != 2:
        return False
    value = expr.args[1]
    return bool(value.is_number and value.is_real and 0 <= value <= 1)


def _compile_power(expr: sp.Pow) -> Evaluator:
    base, exponent = expr.args
    if base is sp.E:
        return _unary(compile_expression(exponent), _builders()[sp.exp])
    inner = compile_expression(base)
    if isinstance(exponent, sp.Integer):
        n = int(exponent)
        return _unary(inner, lambda a: iv.integer_power(a, n))
    if not exponent.free_symbols:
        value = _number(exponent)
        return lambda env: _constant_power(value())(inner(env))
    power_of = compile_expression(exponent)
    exp = _builders()[sp.exp]

    def evaluate(env: Environment) -> Interval:
        base_value, exponent_value = inner(env), power_of(env)
        zero = arb(0)
        touches_zero = base_value.lower_at_least(0) and not base_value.lo_open and base_value.lo.is_zero()
        if touches_zero and exponent_value.lower_at_least(0, strict=True):
            # 0^b = 0 for b > 0; elsewhere a^b = exp(b log a) on the base with its end 0 excluded.
            if not iv.is_infinite(base_value.hi) and base_value.hi.is_zero():
                return Interval(zero, zero)
            rest = Interval(base_value.lo, base_value.hi, True, base_value.hi_open)
            return iv.hull(Interval(zero, zero), exp(iv.mul(exponent_value, _log(rest))))
        return exp(iv.mul(exponent_value, _log(base_value)))

    return evaluate


def evaluate(expr: sp.Expr, env: Environment, precision: int = DEFAULT_PRECISION) -> Interval:
    """The enclosure of ``expr`` on ``env`` at ``precision`` bits (Undefined propagates to the caller)."""
    saved = ctx.prec
    ctx.prec = precision
    try:
        return compile_expression(expr)(env)
    finally:
        ctx.prec = saved
