"""Property checks for a bound of your own: point them at a sympy expression and a domain.

Expressions are sympy objects, or text in the prover's safe expression language
(:mod:`theory.prover.language`, over the domain's symbols; never evaluated as code). Each function runs
one hypothesis test at once (with the active hypothesis settings profile) and raises
``AssertionError`` on a counterexample; hypothesis shrinks it and reports the falsifying example (the
drawn values by symbol name, also in the exception's notes). Values are computed in mpmath at
:data:`DPS` digits from the expression itself (``sympy.lambdify``), so a huge or tiny value is no
float overflow. A domain maps each free symbol to a closed interval ``(low, high)`` of finite floats;
integer-valued symbols (sympy ``integer=True``) are drawn as integers.

>>> import sympy as sp
>>> p, N = sp.symbols("p N", positive=True)
>>> bound = N ** ((p + 1) / (p + 2))
>>> check_monotone(bound, N, {p: (0, 2), N: (1, 4096)})
>>> check_limit(bound, p, 0, sp.sqrt(N), {p: (0, 2), N: (1, 4096)})

The checks are:

- :func:`check_monotone`: increasing (or decreasing) in one variable, the others fixed;
- :func:`check_limit`: the value as the variable tends to an end of its interval;
- :func:`check_homogeneous`: f(c x) = c^degree f(x) when the given variables are scaled by c > 0;
- :func:`check_dominates`: f >= g everywhere on the domain;
- :func:`check_dominates_measurements`: f at measured inputs >= the measured value (e.g. a gap).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import mpmath
import sympy as sp

from theory.errors import InvalidArgument, require
from theory.prover.language import parse_expression

if TYPE_CHECKING:
    from hypothesis import Phase, given, note, settings
    from hypothesis import strategies as st
else:
    _hypothesis = require("hypothesis", purpose="numerics.testing (property suites)")
    Phase, given, note, settings = (
        _hypothesis.Phase,
        _hypothesis.given,
        _hypothesis.note,
        _hypothesis.settings,
    )
    st = require("hypothesis.strategies", purpose="numerics.testing (property suites)")

DPS = 50
"""Decimal digits of every evaluation."""

RTOL = 1e-9
"""Relative tolerance of the equalities (limits, homogeneity) and slack of the inequalities."""

ATOL = 1e-12
"""Absolute tolerance of the equalities, for a value that should be 0 (a limit of 0)."""

Domain = Mapping[sp.Symbol, tuple[float, float]]


def _settings() -> settings:
    """The active profile's settings, without an example database (a user's expression changes between
    runs) and without hypothesis's slow 'explain' phase; a failure still shrinks to a small example."""
    return settings(
        database=None, report_multiple_bugs=False, phases=[p for p in Phase if p is not Phase.explain]
    )


def _expression(value: object, symbols: Sequence[sp.Symbol]) -> sp.Expr:
    """A sympy expression, a number, or text read by the safe expression language over ``symbols``."""
    if isinstance(value, str):
        return parse_expression(value, {str(s): s for s in symbols}, "expression")
    if isinstance(value, sp.Basic):
        return value
    if isinstance(value, (int, float)):
        return sp.Float(value) if isinstance(value, float) else sp.Integer(value)
    raise InvalidArgument(f"{value!r} is not an expression; give a sympy expression or its text")


def _check_domain(expressions: Sequence[sp.Expr], domain: Domain) -> tuple[sp.Symbol, ...]:
    """The symbols of the domain, in a fixed order; a clear error when a free symbol has no interval."""
    free = set().union(*(_expression(e, tuple(domain)).free_symbols for e in expressions))
    missing = sorted(str(s) for s in free if s not in domain)
    if missing:
        raise InvalidArgument(
            f"the domain gives no interval for {', '.join(missing)}; add one per free symbol"
        )
    for symbol, (low, high) in domain.items():
        if not (mpmath.isfinite(low) and mpmath.isfinite(high)) or low > high:
            raise InvalidArgument(f"the interval of {symbol} is ({low}, {high}); give finite low <= high")
    return tuple(sorted(domain, key=str))


def _numeric(expr: sp.Expr, symbols: tuple[sp.Symbol, ...]) -> Callable[..., Any]:
    function = sp.lambdify(symbols, _expression(expr, symbols), modules="mpmath")

    def value(point: Mapping[sp.Symbol, Any]) -> mpmath.mpf:
        with mpmath.workdps(DPS):
            result = function(*(mpmath.mpf(point[s]) for s in symbols))
        if isinstance(result, mpmath.mpc) or not mpmath.isfinite(result):
            raise AssertionError(f"{expr} is not a finite real number at {_show(point)}: {result}")
        return result

    return value


def _strategy(symbol: sp.Symbol, low: float, high: float) -> st.SearchStrategy[Any]:
    if symbol.is_integer:
        return st.integers(int(mpmath.ceil(low)), int(mpmath.floor(high)))
    return st.floats(low, high, allow_nan=False, allow_infinity=False)


def _points(domain: Domain, symbols: tuple[sp.Symbol, ...]) -> st.SearchStrategy[dict[sp.Symbol, Any]]:
    return st.fixed_dictionaries({s: _strategy(s, *domain[s]) for s in symbols})


def _show(point: Mapping[sp.Symbol, Any]) -> str:
    return ", ".join(f"{s}={mpmath.nstr(mpmath.mpf(v), 10)}" for s, v in point.items())


def _close(a: mpmath.mpf, b: mpmath.mpf) -> bool:
    return bool(abs(a - b) <= max(RTOL * max(abs(a), abs(b)), ATOL))


def _at_least(a: mpmath.mpf, b: mpmath.mpf) -> bool:
    return bool(a >= b - RTOL * max(abs(a), abs(b)))


def check_monotone(expr: sp.Expr, variable: sp.Symbol, domain: Domain, *, increasing: bool = True) -> None:
    """``expr`` is nondecreasing (``increasing=False``: nonincreasing) in ``variable`` on its interval,
    at every draw of the other symbols."""
    symbols = _check_domain([expr], domain)
    value = _numeric(expr, symbols)
    low, high = domain[variable]

    @_settings()
    @given(_points(domain, symbols), _strategy(variable, low, high), _strategy(variable, low, high))
    def run(point, a, b):
        a, b = min(a, b), max(a, b)
        at_a, at_b = value({**point, variable: a}), value({**point, variable: b})
        note(f"{variable}: {a} -> {b}; values {mpmath.nstr(at_a, 12)} -> {mpmath.nstr(at_b, 12)}")
        ok = _at_least(at_b, at_a) if increasing else _at_least(at_a, at_b)
        direction = "increasing" if increasing else "decreasing"
        assert ok, (
            f"{expr} is not {direction} in {variable}: f({a}) = {at_a}, f({b}) = {at_b} at {_show(point)}"
        )

    run()


def check_limit(
    expr: sp.Expr, variable: sp.Symbol, end: float, expected: sp.Expr, domain: Domain, *, step: float = 1e-30
) -> None:
    """As ``variable`` tends to ``end`` (an end of its interval) from inside, ``expr`` tends to
    ``expected`` (an expression in the other symbols): evaluated at ``end -/+ step`` in mpmath."""
    symbols = _check_domain([expr, expected], domain)
    value, target = _numeric(expr, symbols), _numeric(expected, symbols)
    low, high = domain[variable]
    if end not in (low, high):
        raise InvalidArgument(
            f"the limit point {end} is not an end of the interval ({low}, {high}) of {variable}"
        )
    near = mpmath.mpf(end) + (step if end == low else -step)

    @_settings()
    @given(_points(domain, symbols))
    def run(point):
        here, limit = value({**point, variable: near}), target({**point, variable: end})
        note(f"{variable} = {end} {'+' if end == low else '-'} {step}: {mpmath.nstr(here, 15)}")
        assert _close(here, limit), (
            f"{expr} does not tend to {expected} as {variable} -> {end}: {mpmath.nstr(here, 15)} "
            f"vs {mpmath.nstr(limit, 15)} at {_show(point)}"
        )

    run()


def check_homogeneous(
    expr: sp.Expr,
    variables: Sequence[sp.Symbol],
    degree: sp.Expr | float,
    domain: Domain,
    *,
    factors: tuple[float, float] = (0.1, 10.0),
) -> None:
    """Scaling every symbol of ``variables`` by c > 0 multiplies ``expr`` by c^degree (``degree`` may
    depend on the other symbols, e.g. p/(p+2)); c is drawn from ``factors`` and the scaled point may
    leave the domain (the identity is algebraic)."""
    symbols = _check_domain([expr, degree], domain)
    value, power = _numeric(expr, symbols), _numeric(degree, symbols)

    @_settings()
    @given(_points(domain, symbols), st.floats(*factors, allow_nan=False))
    def run(point, c):
        scaled = {**point, **{v: mpmath.mpf(point[v]) * mpmath.mpf(c) for v in variables}}
        with mpmath.workdps(DPS):
            expected = mpmath.mpf(c) ** power(point) * value(point)
        got = value(scaled)
        assert _close(got, expected), (
            f"{expr} is not homogeneous of degree {degree} in {', '.join(map(str, variables))}: "
            f"c = {c} gives {mpmath.nstr(got, 15)}, c^degree f = {mpmath.nstr(expected, 15)} "
            f"at {_show(point)}"
        )

    run()


def check_dominates(expr: sp.Expr, other: sp.Expr, domain: Domain) -> None:
    """``expr >= other`` at every point of the domain (with relative slack :data:`RTOL`)."""
    symbols = _check_domain([expr, other], domain)
    value, lower = _numeric(expr, symbols), _numeric(other, symbols)

    @_settings()
    @given(_points(domain, symbols))
    def run(point):
        big, small = value(point), lower(point)
        assert _at_least(big, small), (
            f"{expr} < {other}: {mpmath.nstr(big, 15)} < {mpmath.nstr(small, 15)} at {_show(point)}"
        )

    run()


def check_dominates_measurements(
    expr: sp.Expr, measurements: Sequence[tuple[Mapping[sp.Symbol, float], float]]
) -> None:
    """``expr`` evaluated at each measured input is at least the measured value: ``measurements`` is a
    list of (inputs by symbol, measured value), e.g. a model's norms and its generalization gap."""
    if not measurements:
        raise InvalidArgument("no measurements given; pass a list of (inputs by symbol, measured value)")
    known = {s for inputs, _ in measurements for s in inputs}
    symbols = tuple(sorted(_expression(expr, tuple(known)).free_symbols, key=str))
    for inputs, _ in measurements:
        missing = sorted(str(s) for s in symbols if s not in inputs)
        if missing:
            raise InvalidArgument(
                f"a measurement lacks {', '.join(missing)}; give every free symbol of {expr}"
            )
    value = _numeric(expr, symbols)

    @_settings()
    @given(st.sampled_from(range(len(measurements))))
    def run(index):
        inputs, measured = measurements[index]
        bound = value(inputs)
        assert _at_least(bound, mpmath.mpf(measured)), (
            f"{expr} = {mpmath.nstr(bound, 15)} is below the measured {measured} at measurement {index} "
            f"({_show(inputs)})"
        )

    run()
