"""The parser's polynomial back end: a side of a statement as sympy's data tree, without sympy.

A side written with numbers, variables, + - * / and integer powers is a *sum of monomials* as sympy's
constructors build it when no product or power keeps a sum unexpanded: a number times a sum is distributed
(``2*(x + 1)`` is 2*x + 2, ``-(x - y)`` is -x + y), like terms are collected (``x + x`` is 2*x, ``x/x`` is
1), a power of a monomial by an integer is taken factor by factor (``(2*x)^2`` is 4*x^2). Here such a side
is a polynomial {monomial: coefficient} (exact rationals, integer exponents, negative ones for a division
by a monomial), and :func:`tree` writes it as :func:`theory.prover.language.to_tree` writes sympy's
expression: the number first, then the terms in sympy's canonical order (``Basic.compare``: by class,
then by the length of the content, then part by part; a symbol's content is its name and the
assumptions its domain gives it, :data:`ASSUMPTIONS`), each term its coefficient first, then its
factors in the same order.

Anything else gives ``None``: a product of a sum and a non-number (``x*(x + 1)``, which sympy keeps as a
product), a power of a sum or with a non-integer exponent, a function, a constant, a Piecewise, a division
by a sum or by 0, and a number beyond the language's MAX_BITS; the statement is then read by the sympy back
end (:class:`theory.prover.language.Symbolic`), which also says what is wrong with malformed input.
tests/unit/theory/prover/test_prove_without_sympy.py checks the trees against sympy's on generated sides.
Provenance: not applicable (parsing).
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Mapping
from fractions import Fraction
from typing import Any

from theory.prover.language import MAX_BITS, Parsed, rational_text

Monomial = tuple[tuple[str, int], ...]
"""((name, exponent), ...) sorted by name, no exponent 0; () is the constant monomial."""
Polynomial = dict[Monomial, Fraction]
"""monomial -> nonzero coefficient."""

MAX_EXPONENT = 10**6
"""Largest |exponent| of a power or a monomial this back end builds (beyond it: None)."""

ASSUMPTIONS: dict[tuple[bool, str | None], int] = {
    (False, None): 8,
    (False, "positive"): 19,
    (False, "nonnegative"): 12,
    (False, "negative"): 21,
    (False, "nonpositive"): 14,
    (True, None): 14,
    (True, "positive"): 25,
    (True, "nonnegative"): 18,
    (True, "negative"): 27,
    (True, "nonpositive"): 20,
}
"""(integer, sign assumption) of a domain's symbol -> the number of assumptions sympy 1.14 derives for
it (``len(Symbol(...)._assumptions0)``), which orders two symbols before their names do."""

_CLASSES = {"Zero": 0, "One": 1, "Half": 2, "NegativeOne": 5, "Integer": 7, "Rational": 8, "Symbol": 13}
_CLASSES.update({"Pow": 15, "Mul": 16})
"""Positions in sympy's ``ordering_of_classes`` of the classes a sum of monomials has."""


def assumption_count(assumptions: Mapping[str, bool]) -> int:
    """The :data:`ASSUMPTIONS` count of a symbol made with these keywords
    (:meth:`theory.prover.domain.VariableDomain.assumptions`)."""
    signs = [name for name in assumptions if name not in ("real", "integer")]
    return ASSUMPTIONS[("integer" in assumptions, signs[0] if signs else None)]


def _small(value: Fraction) -> bool:
    return max(abs(value.numerator), value.denominator).bit_length() <= MAX_BITS


def _checked(polynomial: Polynomial) -> Polynomial | None:
    """The polynomial without zero terms, or None when a number in it is beyond MAX_BITS."""
    kept = {monomial: c for monomial, c in polynomial.items() if c != 0}
    if not all(_small(c) for c in kept.values()):
        return None
    return kept


def _times(a: Monomial, b: Monomial, by: int = 1) -> Monomial | None:
    """a * b^by as a monomial, or None when an exponent leaves MAX_EXPONENT."""
    exponents = dict(a)
    for name, exponent in b:
        exponents[name] = exponents.get(name, 0) + by * exponent
    if any(abs(e) > MAX_EXPONENT for e in exponents.values()):
        return None
    return tuple(sorted((name, e) for name, e in exponents.items() if e != 0))


def _constant(polynomial: Polynomial) -> Fraction | None:
    """The polynomial's value when it is a number, else None."""
    if not polynomial:
        return Fraction(0)
    return polynomial.get(()) if len(polynomial) == 1 else None


class Monomials:
    """The polynomial back end of the parser (:class:`theory.prover.language.Builder`): a side as a
    :data:`Polynomial`, or None (see the module docstring)."""

    def __init__(self, names: Collection[str]) -> None:
        self.names = names

    def number(self, value: Fraction) -> Polynomial | None:
        return _checked({(): value})

    def variable(self, name: str) -> Polynomial | None:
        return {((name, 1),): Fraction(1)}

    def constant(self, name: str) -> None:
        return None

    def add(self, a: Polynomial, b: Polynomial) -> Polynomial | None:
        total = dict(a)
        for monomial, coefficient in b.items():
            total[monomial] = total.get(monomial, Fraction(0)) + coefficient
        return _checked(total)

    def negate(self, a: Polynomial) -> Polynomial | None:
        return {monomial: -coefficient for monomial, coefficient in a.items()}

    def multiply(self, a: Polynomial, b: Polynomial) -> Polynomial | None:
        """a * b where sympy expands it: one factor a number, or both one term."""
        for number, other in ((_constant(a), b), (_constant(b), a)):
            if number is not None:
                return _checked({monomial: number * c for monomial, c in other.items()})
        if len(a) != 1 or len(b) != 1:
            return None
        ((m, c),), ((n, d),) = a.items(), b.items()
        product = _times(m, n)
        return None if product is None else _checked({product: c * d})

    def reciprocal(self, a: Polynomial) -> Polynomial | None:
        """1 / a for one nonzero term."""
        if len(a) != 1:
            return None
        ((m, c),) = a.items()
        inverse = _times((), m, -1)
        return None if inverse is None else _checked({inverse: 1 / c})

    def power(self, base: Polynomial, exponent: Polynomial) -> Polynomial | None:
        """base ^ n for one term and an integer n (a nonzero base when n <= 0), within MAX_BITS."""
        n = _constant(exponent)
        if n is None or n.denominator != 1 or abs(n) > MAX_EXPONENT or len(base) != 1:
            return None
        ((m, c),) = base.items()
        size = max(abs(c.numerator), c.denominator).bit_length() * abs(int(n))
        if size > MAX_BITS:
            return None
        powered = _times((), m, int(n))
        return None if powered is None else _checked({powered: c ** int(n)})

    def function(self, name: str, arguments: list[Any]) -> None:
        return None

    def derivative(self, function: Parsed, variable: Parsed) -> Parsed:
        return Parsed(None, None)

    def piecewise(self, pieces: list[tuple[Any, Any]]) -> None:
        return None

    def true(self) -> None:
        return None

    def relation(self, left: Any, relation: str, right: Any) -> None:
        return None

    def join(self, operator: str, a: Any, b: Any) -> None:
        return None


Node = tuple[Any, ...]
"""A part of sympy's expression: ("Number", q), ("Symbol", name, assumptions), ("Pow", symbol, n),
("Mul", part, ...)."""


def _class(node: Node) -> str:
    if node[0] != "Number":
        return str(node[0])
    value = node[1]
    special = {Fraction(0): "Zero", Fraction(1): "One", Fraction(1, 2): "Half", Fraction(-1): "NegativeOne"}
    return special.get(value, "Integer" if value.denominator == 1 else "Rational")


def _content(node: Node) -> tuple[Any, ...]:
    """sympy's ``_hashable_content`` as far as it orders: a number's (p, q), a symbol's name padded to
    its length, a power's (base, exponent), a product's factors."""
    if node[0] == "Number":
        return (node[1].numerator, node[1].denominator)
    if node[0] == "Symbol":
        return (node[1],) + (None,) * (node[2])
    if node[0] == "Pow":
        return (node[1], ("Number", Fraction(node[2])))
    return node[1:]


def compare(a: Node, b: Node) -> int:
    """-1, 0 or 1 as sympy's ``Basic.compare`` orders the two parts."""
    first, second = _CLASSES[_class(a)], _CLASSES[_class(b)]
    if first != second:
        return -1 if first < second else 1
    left, right = _content(a), _content(b)
    if len(left) != len(right):
        return -1 if len(left) < len(right) else 1
    for x, y in zip(left, right, strict=True):
        if isinstance(x, tuple):
            found = compare(x, y)
        elif x is None:
            found = 0
        else:
            found = (x > y) - (x < y)
        if found:
            return found
    return 0


_ORDER = functools.cmp_to_key(compare)


def _as_tree(node: Node) -> list[Any]:
    if node[0] == "Number":
        return ["num", rational_text(node[1])]
    if node[0] == "Symbol":
        return ["var", node[1]]
    if node[0] == "Pow":
        return ["pow", _as_tree(node[1]), ["num", str(node[2])]]
    return ["mul", *(_as_tree(part) for part in node[1:])]


def tree(polynomial: Polynomial, assumptions: Mapping[str, int]) -> list[Any]:
    """The data tree sympy's expression of the polynomial has (see the module docstring); ``assumptions``
    gives each variable its count from :data:`ASSUMPTIONS`."""
    terms: list[Node] = []
    number = polynomial.get((), Fraction(0))
    for monomial, coefficient in polynomial.items():
        if not monomial:
            continue
        factors: list[Node] = []
        for name, exponent in monomial:
            symbol = ("Symbol", name, assumptions[name])
            factors.append(symbol if exponent == 1 else ("Pow", symbol, exponent))
        factors.sort(key=_ORDER)
        if coefficient != 1:
            terms.append(("Mul", ("Number", coefficient), *factors))
        else:
            terms.append(factors[0] if len(factors) == 1 else ("Mul", *factors))
    terms.sort(key=_ORDER)
    if number != 0 or not terms:
        terms.insert(0, ("Number", number))
    if len(terms) == 1:
        return _as_tree(terms[0])
    return ["add", *(_as_tree(term) for term in terms)]
