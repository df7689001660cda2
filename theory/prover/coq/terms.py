"""Coq terms of a certificate's data tree (the tree the kernel checks), over Coq's real numbers.

Each node prints as the Coq function with the same value wherever the language's function is defined
(the kernel only accepts a gap defined on every box, so the two agree on the domain):

- ``["num", "p/q"]`` as ``(p / q)``, ``["var", v]`` as ``v_<v>``, ``pi`` as ``PI``, ``e`` as ``(exp 1)``;
- add and mul as ``+`` and ``*``; ``["pow", a, n]`` for an integer literal n as ``a ^ n`` (Coq's ``pow``
  over a natural number) or ``/ (a ^ -n)``; an exponent p/2 as a power of ``sqrt a``; any other exponent b
  as ``Rpower a b`` = exp(b ln a) where the kernel encloses the base above 0 on the whole domain (the
  language's a^b only where a > 0: Coq's ln 0 = 0 makes Rpower 0 b = 1), else as ``sb_rpow a b``, the
  preamble's definition by cases (Rpower a b for a > 0, else 0), which is the language's a^b wherever
  the kernel defines it (a > 0, or a = 0 with b > 0), printed only where b is shown > 0 on the domain
  (at a = 0, b = 0 the language's 0^0 is 1 and sb_rpow's 0: :class:`Untranslatable`);
- exp log atan abs as ``exp ln atan Rabs``; floor(t) and ceiling(t) as ``IZR (Raux.Zfloor t)`` and
  ``IZR (Raux.Zceil t)`` (Flocq's integer floor and ceiling, which Interval evaluates); max(a, b) as
  ``((a + b + Rabs (a - b)) / 2)`` and min(a, b) as ``((a + b - Rabs (a - b)) / 2)`` (the same real
  functions; Interval evaluates Rabs, not Rmax or Rmin), folded from the left over more arguments.

- erf(t) as ``(sb_erf t)``, the preamble's standard definition 2/sqrt(pi) int_0^t exp(-s^2) ds
  (Coquelicot's ``RInt``);
- a Piecewise whose conditions are single comparisons a < b, a <= b and whose last condition is True as
  ``(if Rlt_dec a b then v1 else ...)`` (``Rle_dec`` for <=): the first branch whose condition holds, as
  the language's.

erfc, tanh and any other Piecewise have no printed form yet: :class:`Untranslatable`.
Provenance: derived (a structural printer; its faithfulness is tested by evaluating printed terms in Coq
against arb at rational points).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from theory.errors import SpecboundError

FUNCTIONS = {"exp": "exp", "log": "ln", "atan": "atan", "abs": "Rabs"}
"""Language function -> Coq function of one real argument."""
FOLDS = {"max": "+", "min": "-"}
"""max / min of two arguments a, b -> the sign of |a - b| in (a + b +- |a - b|) / 2."""
CONSTANTS = {"pi": "PI", "e": "(exp 1)"}
POWER_AT_ZERO = "sb_rpow"
"""The preamble's a^b for a base that may reach 0 (Rpower a b for a > 0, else 0)."""
ERF = "sb_erf"
"""The preamble's erf x = 2 / sqrt PI * RInt (fun t => exp (-(t*t))) 0 x (preamble.ERF)."""
ROUNDINGS = {"floor": "Raux.Zfloor", "ceiling": "Raux.Zceil"}
COMPARISONS = {"lt": "Rlt_dec", "le": "Rle_dec"}
"""A Piecewise condition a < b (a <= b) -> the decision of Coq's standard library that tests it."""
"""floor / ceiling -> Flocq's integer function (Zfloor x <= x < Zfloor x + 1, Zceil x - 1 < x <= Zceil x)."""


class Untranslatable(SpecboundError):
    """A part of a certificate that the exporter cannot state or prove in Coq yet (named in the message)."""


def variable(name: str) -> str:
    """The Coq identifier of a domain variable (prefixed, so no variable shadows a Coq name)."""
    if not name.replace("_", "").isalnum() or not name.isascii():
        raise Untranslatable(f"the variable name {name!r} is not a Coq identifier")
    return f"v_{name}"


def binders(names: list[str]) -> str:
    """``forall v_x v_y : R,`` over the Coq names: typed, so that a claim not mentioning a variable (a
    multiplier's positivity, a constant face) still states it as a real."""
    return f"forall {' '.join(names)} : R,"


def rational(value: Fraction) -> str:
    """An exact rational as a Coq real: ``3``, ``(-3)``, ``(3 / 4)``, ``(-3 / 4)``."""
    numerator = f"({value.numerator})" if value.numerator < 0 else str(value.numerator)
    if value.denominator == 1:
        return numerator
    return f"({value.numerator} / {value.denominator})"


def points(box: dict[str, tuple[Any, Any]]) -> str:
    """The tactic substituting each variable that the box fixes to a point by its value."""
    return "".join(
        f"assert ({variable(name)} = {rational(Fraction(lo))}) by lra; subst {variable(name)}; "
        for name, (lo, hi) in box.items()
        if lo == hi
    )


def term(tree: Any, positive: Callable[[Any], bool]) -> str:
    """The Coq term of ``tree``; ``positive(base)`` says whether the base of a general power is shown > 0
    on the domain (``Rpower``; else ``sb_rpow``)."""
    head = tree[0]
    if head == "num":
        return rational(Fraction(tree[1]))
    if head == "var":
        return variable(tree[1])
    if head == "const":
        return CONSTANTS[tree[1]]
    if head in ("add", "mul"):
        joint = " + " if head == "add" else " * "
        return "(" + joint.join(term(arg, positive) for arg in tree[1:]) + ")"
    if head == "pow":
        return _power(tree[1], tree[2], positive)
    if head in FUNCTIONS:
        return f"({FUNCTIONS[head]} {term(tree[1], positive)})"
    if head in ROUNDINGS:
        return rounding(head, term(tree[1], positive))
    if head in FOLDS:
        printed = [term(arg, positive) for arg in tree[1:]]
        folded = printed[0]
        for other in printed[1:]:
            folded = f"(({folded} + {other} {FOLDS[head]} Rabs ({folded} - {other})) / 2)"
        return folded
    if head == "erf":
        return f"({ERF} {term(tree[1], positive)})"
    if head == "piecewise":
        return _piecewise(tree[1:], positive)
    raise Untranslatable(f"the function {head!r} has no Coq form in the exporter yet")


def condition(tree: Any, positive: Callable[[Any], bool]) -> str:
    """The Coq decision of a Piecewise condition a < b or a <= b (``Rlt_dec a b``, ``Rle_dec a b``)."""
    if tree[0] not in COMPARISONS:
        raise Untranslatable(f"a Piecewise condition {tree[0]!r} has no Coq form yet (only < and <=)")
    return f"{COMPARISONS[tree[0]]} {term(tree[1], positive)} {term(tree[2], positive)}"


def _piecewise(pairs: list[Any], positive: Callable[[Any], bool]) -> str:
    value, test = pairs[0]
    if test[0] == "true":
        return term(value, positive)
    if len(pairs) == 1:
        raise Untranslatable("a Piecewise whose last condition is not True has no Coq form yet")
    rest = _piecewise(pairs[1:], positive)
    return f"(if {condition(test, positive)} then {term(value, positive)} else {rest})"


def uses_erf(tree: Any) -> bool:
    """The tree has an erf node (its file needs the preamble's erf lemmas)."""
    return (
        isinstance(tree, list) and bool(tree) and (tree[0] == "erf" or any(uses_erf(arg) for arg in tree[1:]))
    )


def rounding(head: str, argument: str) -> str:
    """floor(t) or ceiling(t) as the real IZR (Raux.Zfloor t) or IZR (Raux.Zceil t)."""
    return f"(IZR ({ROUNDINGS[head]} {argument}))"


def _power(base: Any, exponent: Any, positive: Callable[[Any], bool]) -> str:
    printed = term(base, positive)
    if exponent[0] == "num":
        value = Fraction(exponent[1])
        if value.denominator in (1, 2):
            root = printed if value.denominator == 1 else f"(sqrt {printed})"
            count = abs(value.numerator)
            power = root if count == 1 else f"({root} ^ {count})"
            return f"(/ {power})" if value < 0 else power
    if not positive(base):
        if not positive(exponent):  # 0^0 = 1 in the language, sb_rpow 0 0 = 0 in Coq
            raise Untranslatable(
                "a power whose base may be 0 and whose exponent may reach 0 has no Coq form yet "
                "(the language's 0^0 is 1, the preamble's sb_rpow 0 0 is 0)"
            )
        return f"({POWER_AT_ZERO} {printed} {term(exponent, positive)})"
    return f"(Rpower {printed} {term(exponent, positive)})"
