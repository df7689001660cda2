"""Evaluate theory's sympy formulas on measured numbers, at a chosen precision, never retyping them.

Every number specbound prints is ``Formula.expr`` lambdified with ``Formula.args`` (cached per formula
and backend). The ``mpmath`` backend evaluates at ``dps`` decimal digits, so powers sigma^p, sums and
the products of many spectral norms in the depth factor (which overflow float64 on deep or wide
models) stay finite and correct. The ``numpy`` backend of :func:`log_form` serves fast vectorised
searches only; reported values always come from :func:`evaluate`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from numerics.spectrum import Spectrum
from theory.errors import InvalidArgument
from theory.formula import Formula

DEFAULT_DPS = 50
"""Default working precision in decimal digits (``--dps``)."""

MAX_DPS = 100_000


def check_dps(dps: object) -> int:
    """``dps`` if it is an integer in [15, 100000] (at least float64's digits), else InvalidArgument."""
    if not isinstance(dps, int) or isinstance(dps, bool) or not 15 <= dps <= MAX_DPS:
        raise InvalidArgument(
            f"dps={dps!r} must be an integer in [15, {MAX_DPS}] (decimal digits of precision)"
        )
    return dps


@functools.cache
def compiled(formula: Formula, backend: str = "mpmath") -> Callable[..., Any]:
    """``formula.expr`` lambdified over ``formula.args`` for ``backend`` ("mpmath" or "numpy"), cached."""
    return sp.lambdify(formula.args, formula.expr, modules=backend)


@functools.cache
def argument_names(formula: Formula) -> tuple[str, ...]:
    """The names of ``formula.args`` in order (cached: printing sympy symbols is slow)."""
    return tuple(str(a) for a in formula.args)


def to_mpf(value: object, name: str) -> mpmath.mpf:
    """A finite real value as an mpf at the current precision (exact for floats, ints and rationals)."""
    if type(value) is float and math.isfinite(value):  # the common case, fast
        return mpmath.mpf(value)
    if isinstance(value, sp.Rational):
        value = Fraction(int(value.p), int(value.q))
    if isinstance(value, Fraction):
        result = mpmath.mpf(value.numerator) / value.denominator
    elif isinstance(value, bool) or not isinstance(
        value, int | float | np.integer | np.floating | mpmath.mpf
    ):
        raise InvalidArgument(f"{name}={value!r} must be a real number (int, float, rational or mpmath.mpf)")
    else:
        result = mpmath.mpf(int(value)) if isinstance(value, int | np.integer) else mpmath.mpf(value)
    if not mpmath.isfinite(result):
        raise InvalidArgument(f"{name}={value!r} is not finite; formulas take finite real values")
    return result


def evaluate(formula: Formula, *, dps: int = DEFAULT_DPS, **values: object) -> mpmath.mpf:
    """``formula`` at the named ``values`` (symbol names as keywords), in mpmath at ``dps`` digits.

    Raises InvalidArgument for a missing or unknown argument, a non-finite value, or a result that is
    not a finite real number (never returns inf or nan).

    >>> from theory.proxy import SUMMAND
    >>> print(mpmath.nstr(evaluate(SUMMAND, p=0, S=4, s=7, N=9), 20))
    6.0
    """
    check_dps(dps)
    names = argument_names(formula)
    if len(values) != len(names) or not all(n in values for n in names):
        missing = [n for n in names if n not in values]
        unknown = sorted(set(values) - set(names))
        raise InvalidArgument(
            f"formula {formula.name!r} takes {list(names)}; missing {missing}, unknown {unknown}"
        )
    function = compiled(formula, "mpmath")
    with mpmath.workdps(dps):
        arguments = [to_mpf(values[n], n) for n in names]
        try:
            result = function(*arguments)
        except (ZeroDivisionError, ValueError) as error:
            raise InvalidArgument(f"formula {formula.name!r} is undefined at {values}: {error}") from None
        if isinstance(result, mpmath.mpc):
            if result.imag != 0:
                raise InvalidArgument(
                    f"formula {formula.name!r} is complex at {values}; check the argument domains"
                )
            result = result.real
        result = mpmath.mpf(result)
        if not mpmath.isfinite(result):
            raise InvalidArgument(
                f"formula {formula.name!r} is not finite at {values}; check the argument domains"
            )
        return +result


def evaluate_from(formula: Formula, available: Mapping[str, object], *, dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """:func:`evaluate` with the formula's arguments taken by name from ``available`` (extra keys ignored)."""
    return evaluate(formula, dps=dps, **{name: available[name] for name in argument_names(formula)})


def schatten_power_sum(spec: Spectrum, p: object, *, dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """S_p = sum_i sigma_i^p in mpmath at ``dps`` digits; S_0 = rank (exact, docs: notation).

    Every stored singular value > 0 enters for p > 0 (as in the authors' ``norms.py``); the exact
    zeros of a thin-factor product contribute nothing.

    >>> from numerics.spectrum import spectrum
    >>> float(schatten_power_sum(spectrum(np.diag([4.0, 1.0])), Fraction(1, 2)))
    3.0
    """
    check_dps(dps)
    with mpmath.workdps(dps):
        exponent = to_mpf(p, "p")
        if not 0 <= exponent <= 2:
            raise InvalidArgument(f"p={p!r} is outside [0, 2], the range of Schatten indices of the bound")
        if exponent == 0:
            return mpmath.mpf(spec.rank)
        return mpmath.fsum(
            mpmath.power(mpmath.mpf(v), exponent) for v in spec.singular_values.tolist() if v > 0
        )


def log_schatten_power_sums(spec: Spectrum, ps: np.ndarray) -> np.ndarray:
    """log S_p for each p in ``ps``, in float64 (a log-sum-exp of p log sigma_i: no overflow; log rank at 0).

    For the fast vectorised search of the post hoc p only; reported values use :func:`schatten_power_sum`.

    >>> from numerics.spectrum import spectrum
    >>> logs = log_schatten_power_sums(spectrum(np.diag([4.0, 1.0])), np.array([0.0, 0.5, 2.0]))
    >>> np.exp(logs).round(12).tolist()
    [2.0, 3.0, 17.0]
    """
    logs = np.log(spec.singular_values[spec.singular_values > 0])
    exponents = np.outer(ps, logs)
    top = exponents.max(axis=1)
    with np.errstate(under="ignore"):
        sums = np.exp(exponents - top[:, None]).sum(axis=1)
    return np.where(ps == 0, np.log(spec.rank), top + np.log(sums))


@functools.cache
def log_form(formula: Formula, linear: tuple[str, ...] = ("p",)) -> Callable[..., Any] | None:
    """log(formula) as a numpy function of the ``linear`` arguments and the logs of all the others.

    Derived symbolically: log of the expression, logs expanded (all other arguments are positive), and
    log(x) replaced by a new symbol; None when the expression does not reduce to the logs (then callers
    search in mpmath). The numpy function takes the arguments in ``formula.args`` order.

    >>> from theory.proxy import SUMMAND
    >>> f = log_form(SUMMAND)
    >>> round(float(np.exp(f(0.0, np.log(4.0), np.log(7.0), np.log(9.0)))), 12)
    6.0
    """
    replaced: dict[sp.Expr, sp.Symbol] = {}
    symbols = []
    for arg in formula.args:
        if str(arg) in linear:
            symbols.append(arg)
            continue
        log_symbol = sp.Symbol(f"log_{arg}", real=True)
        positive = sp.Symbol(str(arg), positive=True)
        replaced[sp.log(positive)] = log_symbol
        symbols.append((arg, positive, log_symbol))
    expr = formula.expr.subs({item[0]: item[1] for item in symbols if isinstance(item, tuple)})
    logged = sp.expand_log(sp.log(expr), force=True).subs(replaced)
    plain = [item[1] for item in symbols if isinstance(item, tuple)]
    if logged.free_symbols & set(plain):
        return None
    arguments = [item[2] if isinstance(item, tuple) else item for item in symbols]
    # The numpy module object, not the string "numpy": same printer and functions, but sympy then does
    # not run ``from numpy import *``, which imports numpy.f2py (about 0.2 s of every command's start).
    return sp.lambdify(arguments, logged, modules=[np])
