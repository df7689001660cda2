"""Expressions that carry both their text in the prover's language and their value in mpmath: the soundness
suite's oracle. Each :class:`Term` is built by the generator from Python values, never parsed from text, so
the reference shares nothing with the prover's parser, definedness check, search or kernel.

Values are computed at the caller's mpmath precision (the suite uses :data:`DIGITS`). A point where the
expression is undefined, as the language defines it (a quotient by 0, a log of a number <= 0, a
non-integer power of a number < 0 or a power <= 0 of 0, a square root of a number < 0), raises
:class:`UndefinedHere`; a Piecewise evaluates only the branch its conditions select.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction

import mpmath

DIGITS = 60
"""Decimal digits of every oracle evaluation (the suite asks for at least 50)."""

Point = Mapping[str, Fraction]
Values = Mapping[str, mpmath.mpf]


class UndefinedHere(ArithmeticError):
    """The expression is undefined at the point."""


@dataclass(frozen=True)
class Term:
    """``text``: the expression in the prover's language; ``value(values)``: its mpmath value."""

    text: str
    value: Callable[[Values], mpmath.mpf]

    def at(self, point: Point) -> mpmath.mpf:
        """The value at a rational point, at :data:`DIGITS` digits."""
        with mpmath.workdps(DIGITS):
            return +self.value({name: mp(v) for name, v in point.items()})  # + rounds a lazy constant (pi)


def mp(value: Fraction) -> mpmath.mpf:
    """A rational as an mpf (the same rounding every time, so x - q is exactly 0 at x = q)."""
    return mpmath.mpf(value.numerator) / value.denominator


def number(value: Fraction | int) -> Term:
    value = Fraction(value)
    text = str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    return Term(f"({text})" if value < 0 or value.denominator != 1 else text, lambda _v: mp(value))


def constant(text: str, value: Callable[[], mpmath.mpf]) -> Term:
    """A closed-form constant such as pi/2 or log(2), its value computed at the working precision."""
    return Term(f"({text})", lambda _v: value())


def var(name: str) -> Term:
    return Term(name, lambda v: v[name])


def add(*terms: Term) -> Term:
    text = "(" + " + ".join(t.text for t in terms) + ")"
    return Term(text, lambda v: mpmath.fsum(t.value(v) for t in terms))


def sub(a: Term, b: Term) -> Term:
    return Term(f"({a.text} - {b.text})", lambda v: a.value(v) - b.value(v))


def mul(*terms: Term) -> Term:
    """The product (factors written 1 left out of the text and the value)."""
    terms = tuple(t for t in terms if t.text != "1") or (number(1),)
    if len(terms) == 1:
        return terms[0]
    text = "(" + "*".join(t.text for t in terms) + ")"
    return Term(text, lambda v: mpmath.fprod(t.value(v) for t in terms))


def neg(a: Term) -> Term:
    return Term(f"(-{a.text})", lambda v: -a.value(v))


def div(a: Term, b: Term) -> Term:
    def value(v: Values) -> mpmath.mpf:
        denominator = b.value(v)
        if denominator == 0:
            raise UndefinedHere("a quotient by 0")
        return a.value(v) / denominator

    return Term(f"({a.text}/{b.text})", value)


def power(a: Term, exponent: Fraction | int) -> Term:
    """a^e for a rational e: a < 0 needs an integer e, a = 0 a positive one."""
    e = Fraction(exponent)

    def value(v: Values) -> mpmath.mpf:
        base = a.value(v)
        if base < 0 and e.denominator != 1:
            raise UndefinedHere("a non-integer power of a number < 0")
        if base == 0 and e <= 0:
            raise UndefinedHere("a power <= 0 of 0")
        if e.denominator == 1:
            return base ** int(e)
        return mpmath.power(base, mp(e))

    return Term(f"({a.text})^({number(e).text})", value)


def sqrt(a: Term) -> Term:
    def value(v: Values) -> mpmath.mpf:
        inner = a.value(v)
        if inner < 0:
            raise UndefinedHere("a square root of a number < 0")
        return mpmath.sqrt(inner)

    return Term(f"sqrt({a.text})", value)


def log(a: Term) -> Term:
    def value(v: Values) -> mpmath.mpf:
        inner = a.value(v)
        if inner <= 0:
            raise UndefinedHere("a log of a number <= 0")
        return mpmath.log(inner)

    return Term(f"log({a.text})", value)


def _function(name: str, f: Callable[[mpmath.mpf], mpmath.mpf]) -> Callable[[Term], Term]:
    return lambda a: Term(f"{name}({a.text})", lambda v: f(a.value(v)))


exp = _function("exp", mpmath.exp)
atan = _function("atan", mpmath.atan)
tanh = _function("tanh", mpmath.tanh)
erf = _function("erf", mpmath.erf)
erfc = _function("erfc", mpmath.erfc)
absolute = _function("Abs", abs)
floor = _function("floor", mpmath.floor)
ceiling = _function("ceiling", mpmath.ceil)
phi_cdf = _function("Phi", lambda u: (1 + mpmath.erf(u / mpmath.sqrt(2))) / 2)


def maximum(a: Term, b: Term) -> Term:
    return Term(f"Max({a.text}, {b.text})", lambda v: max(a.value(v), b.value(v)))


def minimum(a: Term, b: Term) -> Term:
    return Term(f"Min({a.text}, {b.text})", lambda v: min(a.value(v), b.value(v)))


Condition = tuple[Term, str, Term] | None
"""(left, "<" or "<=", right), or None for True."""


def piecewise(*pieces: tuple[Term, Condition]) -> Term:
    """The first piece whose condition holds (the last condition should be None: True)."""

    def holds(condition: Condition, v: Values) -> bool:
        if condition is None:
            return True
        left, op, right = condition
        a, b = left.value(v), right.value(v)
        return bool(a < b) if op == "<" else bool(a <= b)

    def value(v: Values) -> mpmath.mpf:
        for term, condition in pieces:
            if holds(condition, v):
                return term.value(v)
        raise UndefinedHere("a Piecewise without a branch")

    def show(condition: Condition) -> str:
        return "True" if condition is None else f"{condition[0].text} {condition[1]} {condition[2].text}"

    text = ", ".join(f"({t.text}, {show(c)})" for t, c in pieces)
    return Term(f"Piecewise({text})", value)
