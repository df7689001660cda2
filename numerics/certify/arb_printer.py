"""Theory's sympy Formulas printed as Python over python-flint arb balls (imports sympy; the bound path's
stored formulas take :mod:`numerics.certify.stored_arb` instead).

A small printer turns ``Formula.expr`` into Python over ``arb`` balls: integers and rationals become
exact balls (``arb(2)/arb(3)`` contains 2/3), ``x**y`` is arb's power, sqrt/log/exp/ceiling are arb's
methods. Arb's operations are inclusion-isotone (Johansson 2017, provenance ``standard``), so the
result is a ball containing the formula's exact value at every point of the argument balls.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import sympy as sp
from sympy.printing.pycode import PythonCodePrinter

from numerics.certify.balls import arb_type
from theory.formula import Formula


class ArbPrinter(PythonCodePrinter):
    """Prints a sympy expression as Python code over python-flint ``arb`` balls (namespace: ``arb``)."""

    def _print_Integer(self, expr: sp.Integer) -> str:
        return f"arb({int(expr)})"

    def _print_Rational(self, expr: sp.Rational) -> str:
        return f"(arb({int(expr.p)})/arb({int(expr.q)}))"

    def _print_Float(self, expr: sp.Float) -> str:
        # a decimal literal becomes a ball containing that decimal number
        return f"arb({str(expr)!r})"

    def _print_Pi(self, expr: sp.Expr) -> str:
        return "arb.pi()"

    def _print_Exp1(self, expr: sp.Expr) -> str:
        return "arb.const_e()"

    def _print_Pow(self, expr: sp.Pow, rational: bool = False) -> str:
        base = self._print(expr.base)
        if expr.exp == sp.S.Half:
            return f"({base}).sqrt()"
        return f"({base})**({self._print(expr.exp)})"

    def _print_log(self, expr: sp.Expr) -> str:
        return f"({self._print(expr.args[0])}).log()"

    def _print_exp(self, expr: sp.Expr) -> str:
        return f"({self._print(expr.args[0])}).exp()"

    def _print_ceiling(self, expr: sp.Expr) -> str:
        return f"({self._print(expr.args[0])}).ceil()"

    def _print_floor(self, expr: sp.Expr) -> str:
        return f"({self._print(expr.args[0])}).floor()"


@functools.cache
def compiled_arb(formula: Formula) -> Callable[..., Any]:
    """``formula.expr`` as a Python function of arb balls over ``formula.args`` (cached)."""
    arb = arb_type()

    return sp.lambdify(formula.args, formula.expr, modules=[{"arb": arb}], printer=ArbPrinter)
