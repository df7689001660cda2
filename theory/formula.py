"""A formula: one sympy expression with its argument order and provenance.

Every number specbound prints is some :class:`Formula` evaluated on measured quantities; numerics
``lambdify``-es ``Formula.expr`` with ``Formula.args`` (never a retyped copy of it).
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from theory.errors import InvalidArgument
from theory.provenance import Tagged


@dataclass(frozen=True)
class Formula:
    """A named sympy expression, the ordered symbols it is a function of, and where it comes from."""

    name: str
    expr: sp.Expr
    args: tuple[sp.Symbol, ...]
    tag: Tagged
    description: str

    def __post_init__(self) -> None:
        free = self.expr.free_symbols
        missing = free - set(self.args)
        if missing:
            raise InvalidArgument(
                f"formula {self.name!r} has free symbols {sorted(map(str, missing))} not in args"
            )

    def latex(self) -> str:
        """The expression as LaTeX."""
        return sp.latex(self.expr)

    def subs(self, **values: object) -> sp.Expr:
        """The expression with the named arguments substituted (symbol names as keywords).

        The symbols are replaced in one walk of the tree (sympy's ``xreplace``; ``subs`` walks it once per
        argument and tries each node against the symbol). When a value holds another argument that is
        replaced too, the two differ (``subs`` replaces in turn, so that argument is replaced inside the
        value as well): there ``subs`` is used, as always."""
        by_name = {str(a): a for a in self.args}
        unknown = set(values) - set(by_name)
        if unknown:
            raise InvalidArgument(
                f"formula {self.name!r} has no arguments {sorted(unknown)}; it takes {list(by_name)}"
            )
        replacements = {by_name[k]: sp.sympify(v) for k, v in values.items()}
        moved = {symbol for symbol, value in replacements.items() if value != symbol}
        if any(moved & value.free_symbols for value in replacements.values()):
            return self.expr.subs(replacements)
        return self.expr.xreplace(replacements)
