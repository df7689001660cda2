"""An identity S = T whose two sides differ in their atoms (square roots, logarithms, exponentials),
proved by pairing each atom of T with the atom of S whose argument has the same exact normal form.

A change of variables (``substitute``) leaves the gap and M * H(phi) with atoms whose arguments are
written differently: sqrt (1152 + 1769472 L) against sqrt (L (1152 / L + 1769472)),
ln (1 + 2 ((L + ln 384) + t)) against ln (L (14 ln 2 / L + 2 ln 3 / L + ...)), sqrt (ln (L r)) against
sqrt (1 ln (1 L) + 1 ln (1 r)). ``field`` takes each as an atom of its own, and searching every pair of
atoms for equal arguments (``sb_atoms``) costs tens of coqc CPU s on such identities. Here, at each
level (the atoms not inside another atom):

- every atom f(b) of T with no atom of S printed alike is paired with an atom f(a) of S (the same
  function) whose argument has the same kernel normal form (:func:`theory.prover.kernel.exact.normal_form`,
  the variables with a positive lower end taken positive), and ``replace (f b) with (f a)`` is proved
  by ``f_equal`` and a = b at the next level;
- a square root of a product of positive variables and of squarefree integers is written as the product
  of the square roots of those variables and primes (sqrt (x y) = sqrt x sqrt y for x >= 0:
  ``sqrt_mult_alt``), as the kernel's normal form writes it;
- the level closes by ``field`` (its conditions by ``sb_sign_side``), or along the log-linear normal form
  (:func:`theory.prover.coq.exponents.guided`: ln of products and composite integers expanded).

Nothing is assumed: every replacement is a proved equality, so a wrong pairing or a wrong split fails
its proof. Provenance: derived (f(a) = f(b) from a = b; sqrt_mult_alt; the kernel's exact normal form
chooses the pairs).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any, Protocol

import sympy as sp

from theory.prover.coq.exponents import guided
from theory.prover.coq.terms import FUNCTIONS, Untranslatable, term
from theory.prover.kernel import exact
from theory.prover.kernel.verify import Box, fixed_points

CLOSE = "field; repeat split; sb_sign_side"
"""A level's identity of rational functions of its atoms, its denominators nonzero by the sign rules."""
DEPTH = 6
"""Levels of nested atoms followed before the route gives up."""


class Printer(Protocol):
    """The exporter's writer: whether a power's base is shown positive."""

    positive: Callable[[Any], bool]


def paired(writer: Printer, subject: Any, target: Any, box: Box) -> str | None:
    """The tactic of ``subject`` = ``target`` (see the module), or None where an atom of the target has no
    partner in the subject and no split, or no atoms differ (the other routes suffice)."""
    fixed = fixed_points(box)
    positive = frozenset(name for name, (lo, _) in box.items() if float(lo) > 0)
    level = _Level(writer.positive, fixed, positive)
    try:
        script = level.tactic(subject, target, DEPTH)
    except Untranslatable:
        return None
    return script if level.changed else None


class _Level:
    """The proofs of the equations a = b between two trees, recursively through paired atoms."""

    def __init__(
        self, printable: Callable[[Any], bool], fixed: dict[str, Fraction], positive: frozenset[str]
    ) -> None:
        self.printable, self.fixed, self.positive = printable, fixed, positive
        self.changed = False

    def printed(self, tree: Any) -> str:
        return term(_bare(tree), self.printable)

    def tactic(self, left: Any, right: Any, depth: int) -> str:
        """replace each unmatched atom of ``right`` by its partner of ``left``, split square roots of
        products, then close (the goal is left = right)."""
        if depth == 0:
            raise Untranslatable("atoms nested too deeply")
        mine, theirs = _atoms(left), _atoms(right)
        shown = {self.printed(atom) for atom in mine}
        steps = []
        for atom in theirs:
            text = self.printed(atom)
            if text in shown:
                continue
            partner = self._partner(atom, mine)
            if partner is None:
                continue  # a square root split below, or an atom the closing rewrites (ln 13 of ln 169)
            self.changed = True
            function = _function(atom)
            inner = self.tactic(_argument(partner), _argument(atom), depth - 1)
            steps.append(
                f"replace {text} with {self.printed(partner)} by (apply (f_equal {function}); {inner})"
            )
        for atom in _unique(mine + theirs, self.printed):
            factors = _split(atom)
            if factors is not None:
                self.changed = True
                product = " * ".join(f"sqrt {self.printed(f)}" for f in factors)
                steps.append(
                    f"replace {self.printed(atom)} with ({product}) by "
                    "(rewrite <- ?sqrt_mult_alt by (apply Rlt_le; sb_positive); try (f_equal; ring))"
                )
        closing = self._closing(left, right)
        return "; ".join([*steps, closing])

    def _partner(self, atom: Any, candidates: list[Any]) -> Any | None:
        function, form = _function(atom), self._normal(_argument(atom))
        if form is None:
            return None
        for candidate in candidates:
            if _function(candidate) == function and self._normal(_argument(candidate)) == form:
                return candidate
        return None

    def _normal(self, tree: Any) -> Any:
        return exact.normal_form(tree, self.fixed, self.positive)

    def _closing(self, left: Any, right: Any) -> str:
        try:
            laws = guided([left, right], self.printable, None, CLOSE)
        except Untranslatable:
            laws = None
        if laws is None:
            return f"solve [ {CLOSE} ]"
        return f"first [ solve [ {CLOSE} ] | solve [ {laws} ] ]"


def _bare(tree: Any) -> Any:
    """The tree without sums and products of one term (printed in parentheses of their own)."""
    if not isinstance(tree, list) or not tree or tree[0] == "num":
        return tree
    if tree[0] in ("add", "mul") and len(tree) == 2:
        return _bare(tree[1])
    return [tree[0], *(_bare(a) for a in tree[1:])]


def _function(atom: Any) -> str:
    return "sqrt" if atom[0] == "pow" else FUNCTIONS[atom[0]]


def _argument(atom: Any) -> Any:
    return atom[1]


def _is_atom(tree: Any) -> bool:
    if tree[0] in ("log", "exp"):
        return True
    return tree[0] == "pow" and tree[2][0] == "num" and Fraction(tree[2][1]) == Fraction(1, 2)


def _atoms(tree: Any) -> list[Any]:
    """The square roots, logarithms and exponentials of ``tree`` not inside another such (each once, a
    power (sqrt a)^k counting as sqrt a)."""
    if not isinstance(tree, list) or not tree:
        return []
    if _is_atom(tree):
        return [tree]
    if tree[0] == "pow" and tree[2][0] == "num" and Fraction(tree[2][1]).denominator == 2:
        return [["pow", tree[1], ["num", "1/2"]]]
    if tree[0] in ("add", "mul"):
        found: list[Any] = []
        for argument in tree[1:]:
            found += [a for a in _atoms(argument) if a not in found]
        return found
    if tree[0] == "pow" and tree[2][0] == "num" and Fraction(tree[2][1]).denominator == 1:
        return _atoms(tree[1])
    return []


def _unique(atoms: list[Any], printed: Callable[[Any], str]) -> list[Any]:
    seen: dict[str, Any] = {}
    for atom in atoms:
        seen.setdefault(printed(atom), atom)
    return list(seen.values())


def _split(atom: Any) -> list[Any] | None:
    """The factors whose square roots multiply to ``atom`` = sqrt B: B's positive variables and the primes
    of its squarefree integers, or None when B is not such a product of two or more factors."""
    if atom[0] != "pow":
        return None
    base = atom[1]
    factors = base[1:] if base[0] == "mul" else [base]
    out: list[Any] = []
    for factor in factors:
        if factor[0] == "pow" and factor[2] == ["num", "1"]:
            factor = factor[1]  # x^1, as the substitution writes a variable
        if factor[0] == "var":
            out.append(factor)
        elif factor[0] == "num" and Fraction(factor[1]).denominator == 1 and Fraction(factor[1]) > 1:
            primes = sp.factorint(int(Fraction(factor[1])))
            if any(power > 1 for power in primes.values()):
                return None
            out += [["num", str(p)] for p in sorted(primes)]
        else:
            return None
    return out if len(out) > 1 else None
