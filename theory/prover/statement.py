"""A statement for the prover: a conjunction of inequalities ``lhs <= rhs`` (or <, >=, >) over a domain.

Each inequality is kept as its *gap*, the expression that must be nonnegative (or positive, when strict):
``rhs - lhs`` for ``<=`` and ``<``, ``lhs - rhs`` for ``>=`` and ``>``. The text is read by the prover's
safe expression language (:mod:`theory.prover.language`: ``^`` is a power, decimals are exact rationals,
``Phi`` and ``phi`` the standard normal distribution function and density, no code is ever evaluated).
Provenance: not applicable.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sympy as sp

from theory.errors import InvalidArgument
from theory.prover.domain import Domain
from theory.prover.language import MalformedExpression, parse_typed_inequalities, to_tree


class MalformedStatement(InvalidArgument):
    """The statement cannot be parsed, has no relation, or uses a variable without a domain."""


@dataclass(frozen=True)
class Inequality:
    """gap >= 0 (gap > 0 when strict); ``text`` is the inequality as the user wrote it."""

    text: str
    gap: sp.Expr
    strict: bool
    sides: tuple[sp.Expr, sp.Expr] | None = None
    """(a, b) with gap = a - b as written, when the statement was parsed: sympy's gap may have cancelled a
    term that is undefined somewhere (f - f is 0 even where f is undefined); the tree keeps it."""
    typed: Any = None
    """The typed tree of a - b as written, before any simplification (:class:`~theory.prover.language.
    Parsed`), when the statement was parsed."""

    def gap_tree(self) -> list[Any]:
        """The gap's data tree: a - b from the sides when they are known (nothing cancelled), else the
        gap's."""
        if self.sides is None:
            return to_tree(self.gap)
        return ["add", to_tree(self.sides[0]), ["mul", ["num", "-1"], to_tree(self.sides[1])]]

    @property
    def relation(self) -> str:
        """'gap > 0' or 'gap >= 0'."""
        return f"{self.gap} {'>' if self.strict else '>='} 0"


@dataclass(frozen=True)
class Statement:
    """A conjunction of inequalities, every one over the same domain."""

    text: str
    inequalities: tuple[Inequality, ...]
    domain: Domain


def parse_statement(text: str, domain: Domain) -> Statement:
    """Parse "lhs <= rhs and lhs2 < rhs2" over ``domain``, keeping each inequality's typed tree (whose
    definedness :func:`theory.prover.definedness.require_defined` decides before any proof).

    >>> from theory.prover.domain import parse_domain
    >>> s = parse_statement("log(1 + x) <= x", parse_domain("x: (-1, oo)"))
    >>> s.inequalities[0].gap
    x - log(x + 1)
    """
    try:
        parts = parse_typed_inequalities(text, domain.symbols(), f"in {text.strip()[:80]!r}")
    except MalformedExpression as error:
        raise MalformedStatement(str(error)) from None
    inequalities = []
    for piece, left, relation, right in parts:
        a, b = (right, left) if relation.startswith("<") else (left, right)
        typed = None if None in (a.typed, b.typed) else ["add", a.typed, ["mul", ["num", "-1"], b.typed]]
        inequalities.append(
            Inequality(piece, a.expr - b.expr, relation in ("<", ">"), (a.expr, b.expr), typed)
        )
    return Statement(text.strip(), tuple(inequalities), domain)


def statement_of(gap_relations: list[tuple[str, sp.Expr, bool]], domain: Domain, text: str) -> Statement:
    """A statement built from sympy gaps directly (the lemma registry states its inequalities this way)."""
    return Statement(text, tuple(Inequality(t, g, s) for t, g, s in gap_relations), domain)
