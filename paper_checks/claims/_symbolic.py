"""Small sympy helpers shared by the symbolic claims: decide an identity or a sign, with a witness."""

from __future__ import annotations

import sympy as sp


def is_identity(lhs: sp.Expr, rhs: sp.Expr) -> tuple[bool, str]:
    """Whether ``lhs == rhs`` identically (the simplified difference is 0), and that difference."""
    difference = sp.simplify(lhs - rhs)
    return bool(difference == 0), str(difference)


def elasticity(expr: sp.Expr, symbol: sp.Symbol) -> sp.Expr:
    """x d(log f)/dx: the exponent of ``symbol`` when ``expr`` is a power of it times other factors."""
    return sp.simplify(symbol * sp.diff(expr, symbol) / expr)


def sign_on_interval(expr: sp.Expr, var: sp.Symbol, lo: sp.Expr, hi: sp.Expr) -> int | None:
    """+1 / -1 / 0 when ``expr`` is positive / negative / zero for all ``var`` in (lo, hi); else None.

    The open interval is reached by the substitution var = lo + (hi - lo) t / (1 + t), t > 0, so that
    sympy's assumptions can decide the sign of a rational function (docs/architecture.md).

    >>> p = sp.Symbol("p")
    >>> sign_on_interval(-1 / (p + 2) ** 2, p, 0, 2)
    -1
    """
    t = sp.Symbol("t_sub", positive=True)
    mapped = sp.factor(sp.together(expr.subs(var, lo + (hi - lo) * t / (1 + t))))
    if mapped == 0:
        return 0
    if mapped.is_positive:
        return 1
    if mapped.is_negative:
        return -1
    return None
