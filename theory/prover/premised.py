"""The search's proposals for a case decided under its premises (the kernel's rule:
:mod:`theory.prover.kernel.premises`).

A value of a Piecewise, Max or Min that the search cannot decide on its region as a box (the gap x y - x^2
of Min(x, y)^2 <= x y is negative where x > y) is tried under the premises of its case, in this order:

- **shift**: a premise affine in a real variable v (y - x >= 0) is made a range of a fresh variable t by
  v = (t - r) / a, and the gap so substituted (x (x + t) - x^2) is searched on the new box;
- **multiplier**: for a polynomial gap g and a polynomial premise c, the quotient s of g by c when c
  divides g exactly (sympy's ``div``; g - s c = 0), with s >= 0 searched on the box;
- **imply**: a polynomial premise c (y^2 - x^2 >= 0) whose factors over the rationals (sympy's
  ``factor_list``) are all of one sign on the box but one affine factor f of odd multiplicity (x + y >= 0
  on [0, 2]^2) implies sigma f >= 0 (sigma that sign); its proof (-c > 0 where -sigma f > 0) and the
  rest are searched in turn, one level deep.

Everything proposed is a certificate the kernel re-checks; sympy proposes, nothing of it is trusted.
Provenance: standard (the S-procedure; unique factorization in Q[x1, ..., xn]).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from theory.prover.kernel import premises as rule
from theory.prover.kernel import trees
from theory.prover.kernel.verify import Box, Variable

Finder = Callable[[Any, Box, dict[str, Variable], bool], "dict[str, Any] | None"]
"""The search's plain decision for a tree on a box (its ``find``)."""
Holds = Callable[[Any, Box, dict[str, Variable], bool], bool]
"""The kernel's enclosure of a tree on a box is >= 0 (> 0 when strict)."""

MAX_LEVEL = 2
"""Premised searches nested (an implication's proof inside a case)."""


def decision(
    tree: Any,
    box: Box,
    domain: dict[str, Variable],
    strict: bool,
    premises: list[rule.Premise],
    find: Finder,
    holds: Holds,
    level: int = 0,
) -> dict[str, Any] | None:
    """A premised decision of tree >= 0 (> 0) on the box under ``premises`` (see the module), or None."""
    for index, (premise, _) in enumerate(premises):
        form = trees.affine(premise)
        if form is None:
            continue
        for name, slope in form.items():
            if name is None or slope == 0 or name not in box or domain[name].integer:
                continue
            moved = rule.shifted(tree, box, domain, premises, index, name)
            if isinstance(moved, str):
                continue
            step = {"method": "shift", "premise": index, "variable": name}
            if moved is None:
                return {**step, "then": {"method": "enclosure"}}
            then = find(moved[0], moved[1], moved[2], strict)
            if then is not None:
                return {**step, "then": then}
    if level >= MAX_LEVEL:
        return None
    for index, (premise, premise_strict) in enumerate(premises):
        if trees.affine(premise) is not None:
            continue
        quotient = _quotient(tree, premise)
        if quotient is not None:
            sign = find(quotient, box, domain, False)
            rest = ["add", tree, ["mul", ["num", "-1"], quotient, premise]]
            then = find(rest, box, domain, strict) if sign is not None else None
            if then is not None:
                return {
                    "method": "multiplier",
                    "premise": index,
                    "multiplier": quotient,
                    "sign": sign,
                    "then": then,
                }
        implied = _implied(premise, box, domain, holds)
        if implied is None:
            continue
        others = [p for k, p in enumerate(premises) if k != index]
        proof = decision(
            ["mul", ["num", "-1"], premise],
            box,
            domain,
            not premise_strict,
            [*others, (["mul", ["num", "-1"], implied], not premise_strict)],
            find,
            holds,
            level + 1,
        )
        if proof is None:
            continue
        replaced = [*premises[:index], (implied, premise_strict), *premises[index + 1 :]]
        then = decision(tree, box, domain, strict, replaced, find, holds, level + 1)
        if then is not None:
            return {
                "method": "imply",
                "premise": index,
                "form": implied,
                "strict": premise_strict,
                "proof": proof,
                "then": then,
            }
    return None


def _symbols(*tree_list: Any) -> dict[str, Any]:
    import sympy as sp

    names = sorted({name for tree in tree_list for name in _variables(tree)})
    return {name: sp.Symbol(name, real=True) for name in names}


def _variables(tree: Any) -> list[str]:
    if tree[0] == "var":
        return [tree[1]]
    return [name for arg in tree[1:] if isinstance(arg, list) for name in _variables(arg)]


def _polynomials(*tree_list: Any) -> tuple[list[Any], list[Any]] | None:
    """The sympy polynomials of the trees over their common variables, or None when one is not one."""
    import sympy as sp

    from theory.prover.language import MalformedExpression, from_tree

    symbols = _symbols(*tree_list)
    if not symbols:
        return None
    try:
        found = [sp.Poly(from_tree(tree, symbols), *symbols.values()) for tree in tree_list]
    except (MalformedExpression, sp.PolynomialError, TypeError):
        return None
    if not all(p.domain.is_ZZ or p.domain.is_QQ for p in found):
        return None
    return found, list(symbols.values())


def _quotient(tree: Any, premise: Any) -> Any | None:
    """s with tree = s * premise exactly (polynomials over the rationals), or None."""
    from theory.prover.language import to_tree

    found = _polynomials(tree, premise)
    if found is None or found[0][1].is_zero:
        return None
    quotient, remainder = found[0][0].div(found[0][1])
    if not remainder.is_zero or quotient.is_zero:
        return None
    return to_tree(quotient.as_expr())


def _implied(premise: Any, box: Box, domain: dict[str, Variable], holds: Holds) -> Any | None:
    """sigma f for the one affine factor f of odd multiplicity of the polynomial premise whose sign the
    kernel's enclosure does not show on the box (every other factor of one sign, the product of their
    signs sigma), or None."""
    from theory.prover.language import to_tree

    found = _polynomials(premise)
    if found is None:
        return None
    constant, factors = found[0][0].factor_list()
    sign = 1 if constant > 0 else -1
    open_factor = None
    for factor, multiplicity in factors:
        written = to_tree(factor.as_expr())
        if multiplicity % 2 == 0:
            continue
        if holds(written, box, domain, False):
            continue
        if holds(["mul", ["num", "-1"], written], box, domain, False):
            sign = -sign
            continue
        if open_factor is not None or trees.affine(written) is None:
            return None
        open_factor = written
    if open_factor is None:
        return None
    return open_factor if sign > 0 else ["mul", ["num", str(Fraction(sign))], open_factor]
