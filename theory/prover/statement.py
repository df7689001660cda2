"""A statement for the prover: a conjunction of inequalities ``lhs <= rhs`` (or <, >=, >) over a domain.

Each inequality is kept as its *gap*, the expression that must be nonnegative (or positive, when strict):
``rhs - lhs`` for ``<=`` and ``<``, ``lhs - rhs`` for ``>=`` and ``>``. The text is read by the prover's
safe expression language (:mod:`theory.prover.language`: ``^`` is a power, decimals are exact rationals,
``Phi`` and ``phi`` the standard normal distribution function and density, no code is ever evaluated).
Read with ``symbolic=False`` (``prove``), a statement is read without sympy: an inequality whose sides are
sums of monomials by the parser's polynomial back end (:mod:`theory.prover.monomials`: the gap tree sympy
would give), any other as its *typed tree* (the text as typed, ``a - b``: the tree whose definedness is
decided and whose meaning is the statement's), which is then its gap tree (``as_typed``). A text the typed
tree cannot carry (a derivative, a number or power beyond the language's limits) is read by sympy.
Provenance: not applicable.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from theory.errors import InvalidArgument
from theory.prover.domain import Domain
from theory.prover.language import (
    MAX_BITS,
    MalformedExpression,
    parse_typed_inequalities,
    read_inequalities,
    to_tree,
)

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
    """The gap's data tree, when the statement was read without sympy: the tree :meth:`gap_tree` of sympy's
    sides would be (sides read by the polynomial back end), else the typed tree (``as_typed``)."""
    as_typed: bool = False
    """The gap tree is the typed tree (the text was not a sum of monomials and sympy was not asked)."""

    def gap_tree(self) -> list[Any]:
        """The gap's data tree: a - b from the sides when they are known (nothing cancelled), else the
        gap's."""
        if self.tree is not None:
            return self.tree
        if self.sides is None:
            return to_tree(self.gap)
        return ["add", to_tree(self.sides[0]), ["mul", ["num", "-1"], to_tree(self.sides[1])]]


@dataclass(frozen=True)
class Statement:
    """A conjunction of inequalities, every one over the same domain."""

    text: str
    inequalities: tuple[Inequality, ...]
    domain: Domain


def parse_statement(text: str, domain: Domain, symbolic: bool = True) -> Statement:
    """Parse "lhs <= rhs and lhs2 < rhs2" over ``domain``, keeping each inequality's typed tree (whose
    definedness :func:`theory.prover.definedness.require_defined` decides before any proof). With
    ``symbolic`` False, the statement is read without sympy where it can be (see the module docstring:
    its inequalities' ``gap`` and ``sides`` None, their ``tree`` the gap's tree).

    >>> from theory.prover.domain import parse_domain
    >>> s = parse_statement("log(1 + x) <= x", parse_domain("x: (-1, oo)"))
    >>> s.inequalities[0].gap
    x - log(x + 1)
    """
    if not symbolic:
        read = _statement_without_sympy(text, domain)
        if read is not None:
            return read
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


def _statement_without_sympy(text: str, domain: Domain) -> Statement | None:
    """The statement read by the polynomial back end, each inequality's gap tree sympy's when both sides
    are sums of monomials, else its typed tree; None when the text is malformed or a typed tree is missing
    or beyond the language's limits (the sympy back end then reads it, and says what is wrong)."""
    from theory.prover.monomials import Monomials, assumption_count, tree

    try:
        parts = read_inequalities(text, Monomials(domain.names), f"in {text.strip()[:80]!r}")
    except MalformedExpression:
        return None
    counts = {variable.name: assumption_count(variable.assumptions()) for variable in domain.variables}
    inequalities = []
    for piece, left, relation, right in parts:
        a, b = (right, left) if relation.startswith("<") else (left, right)
        if a.typed is None or b.typed is None:
            return None
        typed = ["add", a.typed, ["mul", ["num", "-1"], b.typed]]
        strict = relation in ("<", ">")
        if a.expr is not None and b.expr is not None:
            gap = ["add", tree(a.expr, counts), ["mul", ["num", "-1"], tree(b.expr, counts)]]
            inequalities.append(Inequality(piece, None, strict, None, typed, gap))
        elif within_limits(typed):
            inequalities.append(Inequality(piece, None, strict, None, typed, typed, as_typed=True))
        else:
            return None
    return Statement(text.strip(), tuple(inequalities), domain)


def within_limits(tree: Any) -> bool:
    """The typed tree keeps the sympy back end's limits: every number within MAX_BITS bits, every
    rational exponent's numerator within 64 bits, and no power of numbers left unfolded by the parser (a
    power beyond MAX_BITS, or 0 to a negative power: the sympy back end refuses both, naming them)."""
    op, args = tree[0], tree[1:]
    if op == "num":
        value = Fraction(args[0])
        return max(abs(value.numerator), value.denominator).bit_length() <= MAX_BITS
    if op in ("var", "const", "true"):
        return True
    if op == "pow" and args[1][0] == "num":
        exponent = Fraction(args[1][1])
        if abs(exponent.numerator).bit_length() > 64:
            return False
        if args[0][0] == "num" and exponent.denominator == 1:
            return False
    if op == "piecewise":
        return all(within_limits(value) and within_limits(condition) for value, condition in args)
    return all(within_limits(arg) for arg in args)


def statement_of(gap_relations: list[tuple[str, sp.Expr, bool]], domain: Domain, text: str) -> Statement:
    """A statement built from sympy gaps directly (the lemma registry states its inequalities this way)."""
    return Statement(text, tuple(Inequality(t, g, s) for t, g, s in gap_relations), domain)
