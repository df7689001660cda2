"""A statement for the prover: a conjunction of inequalities ``lhs <= rhs`` (or <, >=, >) over a domain.

Each inequality is kept as its *gap*, the expression that must be nonnegative (or positive, when strict):
``rhs - lhs`` for ``<=`` and ``<``, ``lhs - rhs`` for ``>=`` and ``>``. The text is read by the prover's
safe expression language (:mod:`theory.prover.language`: ``^`` is a power, decimals are exact rationals,
``Phi`` and ``phi`` the standard normal distribution function and density, no code is ever evaluated).
Read with ``symbolic=False`` (``prove``), a statement whose sides are sums of monomials is read by the
parser's polynomial back end (:mod:`theory.prover.monomials`: the same gap tree, without sympy); any other
by sympy's.
Provenance: not applicable.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from theory.errors import InvalidArgument
from theory.prover.domain import Domain
from theory.prover.language import MalformedExpression, parse_typed_inequalities, read_inequalities, to_tree

if TYPE_CHECKING:
    import sympy as sp


class MalformedStatement(InvalidArgument):
    """The statement cannot be parsed, has no relation, or uses a variable without a domain."""


@dataclass(frozen=True)
class Inequality:
    """gap >= 0 (gap > 0 when strict); ``text`` is the inequality as the user wrote it."""

    text: str
    gap: sp.Expr | None
    """The gap as sympy made it; None when the statement was read without sympy (:attr:`tree`)."""
    strict: bool
    sides: tuple[sp.Expr, sp.Expr] | None = None
    """(a, b) with gap = a - b as written, when the statement was parsed: sympy's gap may have cancelled a
    term that is undefined somewhere (f - f is 0 even where f is undefined); the tree keeps it."""
    typed: Any = None
    """The typed tree of a - b as written, before any simplification (:class:`~theory.prover.language.
    Parsed`), when the statement was parsed."""
    tree: Any = None
    """The gap's data tree, when the statement was read without sympy (its sides by the polynomial back
    end: the tree :meth:`gap_tree` of sympy's sides would be)."""

    def gap_tree(self) -> list[Any]:
        """The gap's data tree: a - b from the sides when they are known (nothing cancelled), else the
        gap's."""
        if self.tree is not None:
            return self.tree
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


def parse_statement(text: str, domain: Domain, symbolic: bool = True) -> Statement:
    """Parse "lhs <= rhs and lhs2 < rhs2" over ``domain``, keeping each inequality's typed tree (whose
    definedness :func:`theory.prover.definedness.require_defined` decides before any proof). With
    ``symbolic`` False, a statement of sums of monomials is read without sympy (its inequalities' ``gap``
    and ``sides`` None, their ``tree`` the gap's tree).

    >>> from theory.prover.domain import parse_domain
    >>> s = parse_statement("log(1 + x) <= x", parse_domain("x: (-1, oo)"))
    >>> s.inequalities[0].gap
    x - log(x + 1)
    """
    if not symbolic:
        polynomial = _polynomial_statement(text, domain)
        if polynomial is not None:
            return polynomial
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


def _polynomial_statement(text: str, domain: Domain) -> Statement | None:
    """The statement read by the polynomial back end, or None when a side is not a sum of monomials or
    the text is malformed (the sympy back end then reads it, and says what is wrong)."""
    from theory.prover.monomials import Monomials, assumption_count, tree

    try:
        parts = read_inequalities(text, Monomials(domain.names), f"in {text.strip()[:80]!r}")
    except MalformedExpression:
        return None
    counts = {variable.name: assumption_count(variable.assumptions()) for variable in domain.variables}
    inequalities = []
    for piece, left, relation, right in parts:
        a, b = (right, left) if relation.startswith("<") else (left, right)
        if a.expr is None or b.expr is None:
            return None
        typed = ["add", a.typed, ["mul", ["num", "-1"], b.typed]]
        gap = ["add", tree(a.expr, counts), ["mul", ["num", "-1"], tree(b.expr, counts)]]
        inequalities.append(Inequality(piece, None, relation in ("<", ">"), None, typed, gap))
    return Statement(text.strip(), tuple(inequalities), domain)


def statement_of(gap_relations: list[tuple[str, sp.Expr, bool]], domain: Domain, text: str) -> Statement:
    """A statement built from sympy gaps directly (the lemma registry states its inequalities this way)."""
    return Statement(text, tuple(Inequality(t, g, s) for t, g, s in gap_relations), domain)
