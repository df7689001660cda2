"""A statement for the prover: a conjunction of inequalities ``lhs <= rhs`` (or <, >=, >) over a domain.

Each inequality is kept as its *gap*, the expression that must be nonnegative (or positive, when strict):
``rhs - lhs`` for ``<=`` and ``<``, ``lhs - rhs`` for ``>=`` and ``>``. Expressions are sympy, parsed with
``^`` as power and decimals read as exact rationals (``1.13`` is 113/100). Besides sympy's functions the
parser knows ``Phi(x) = (1 + erf(x / sqrt 2)) / 2`` and ``phi(x) = exp(-x^2/2) / sqrt(2 pi)``, the
standard normal distribution function and density (GELU(x) = x Phi(x)). Provenance: not applicable.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import sympy as sp
from sympy.parsing.sympy_parser import (
    convert_xor,
    parse_expr,
    rationalize,
    standard_transformations,
)

from theory.errors import InvalidArgument
from theory.prover.domain import Domain


class MalformedStatement(InvalidArgument):
    """The statement cannot be parsed, has no relation, or uses a variable without a domain."""


def normal_cdf(x: sp.Expr) -> sp.Expr:
    """Phi(x) = (1 + erf(x / sqrt 2)) / 2, the standard normal distribution function."""
    return (1 + sp.erf(x / sp.sqrt(2))) / 2


def normal_density(x: sp.Expr) -> sp.Expr:
    """phi(x) = exp(-x^2 / 2) / sqrt(2 pi), the standard normal density."""
    return sp.exp(-(x**2) / 2) / sp.sqrt(2 * sp.pi)


_RELATION = re.compile(r"(<=|>=|<|>)")
_TRANSFORMATIONS = (*standard_transformations, convert_xor, rationalize)


@dataclass(frozen=True)
class Inequality:
    """gap >= 0 (gap > 0 when strict); ``text`` is the inequality as the user wrote it."""

    text: str
    gap: sp.Expr
    strict: bool

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


def _local_names(domain: Domain) -> dict[str, object]:
    """Phi, phi, oo and e (Euler's number), overridden by the domain's variables of the same name."""
    names: dict[str, object] = {
        "Phi": sp.Lambda(_X, normal_cdf(_X)),
        "phi": sp.Lambda(_X, normal_density(_X)),
        "oo": sp.oo,
        "e": sp.E,
    }
    names.update(domain.symbols())
    return names


_X = sp.Dummy("x", real=True)


def _parse_side(text: str, domain: Domain, where: str) -> sp.Expr:
    if not text.strip():
        raise MalformedStatement(f"{where}: one side of the inequality is empty")
    try:
        expr = parse_expr(text, local_dict=_local_names(domain), transformations=_TRANSFORMATIONS)
    except Exception as error:  # sympy raises SyntaxError, TokenError, TypeError... on bad text
        raise MalformedStatement(f"{where}: cannot parse {text.strip()!r} ({type(error).__name__})") from None
    if not isinstance(expr, sp.Expr):
        raise MalformedStatement(f"{where}: {text.strip()!r} is not a real expression")
    unknown = sorted(str(s) for s in expr.free_symbols if str(s) not in domain.names)
    if unknown:
        raise MalformedStatement(
            f"{where}: variable(s) {', '.join(unknown)} have no domain; add them to --domain"
        )
    return expr


def _parse_inequality(text: str, domain: Domain) -> Inequality:
    parts = _RELATION.split(text)
    if len(parts) != 3:
        count = (len(parts) - 1) // 2
        raise MalformedStatement(
            f"{text.strip()!r} has {count} relations; write exactly one of <=, <, >=, > per inequality "
            "(join several with 'and')"
        )
    left_text, operator, right_text = parts
    left = _parse_side(left_text, domain, f"in {text.strip()!r}")
    right = _parse_side(right_text, domain, f"in {text.strip()!r}")
    gap = right - left if operator.startswith("<") else left - right
    return Inequality(text.strip(), gap, strict=operator in ("<", ">"))


def parse_statement(text: str, domain: Domain) -> Statement:
    """Parse "lhs <= rhs and lhs2 < rhs2" over ``domain``.

    >>> from theory.prover.domain import parse_domain
    >>> s = parse_statement("log(1 + x) <= x", parse_domain("x: (-1, oo)"))
    >>> s.inequalities[0].gap
    x - log(x + 1)
    """
    pieces = [piece for piece in re.split(r"\band\b|&", text) if piece.strip()]
    if not pieces:
        raise MalformedStatement("the statement is empty; write e.g. 'log(1 + x) <= x'")
    return Statement(text.strip(), tuple(_parse_inequality(piece, domain) for piece in pieces), domain)


def statement_of(gap_relations: list[tuple[str, sp.Expr, bool]], domain: Domain, text: str) -> Statement:
    """A statement built from sympy gaps directly (the lemma registry states its inequalities this way)."""
    return Statement(text, tuple(Inequality(t, g, s) for t, g, s in gap_relations), domain)
