"""Case splits on the gap's jumps and choices: Piecewise, Max and Min, floor and ceiling, integer values.

Four decisions on a box B (each registered into ``verify.STEPS``):

- ``{"method": "cases", "branches": [D_1, ..., D_k]}``. The node N is the first Piecewise, Max or Min of
  the gap in pre-order. At every point x of B the gap equals G_j(x), the gap with every occurrence of N
  replaced by its j-th value, for the j that N takes at x: for Max and Min one of the arguments (each
  D_j decides G_j on the whole box), for a Piecewise the first branch whose condition holds. A branch's
  points lie in the region R_j = B restricted by its condition holding and the earlier ones failing,
  as far as these are comparisons affine in one variable (``v < q``, ``3*x > 1``, ``x - 1/3 <= 0``:
  a v + c < 0 is v < -c/a for a > 0 and v > -c/a for a < 0, in exact rationals), through ``and`` (held)
  and ``or`` (failed); a strict bound leaves that end of R_j open (integers: v < q is v <= ceiling(q) -
  1). Any other condition restricts nothing, so R_j contains the branch's
  points (a touching point between branches lies in both closures). D_j decides G_j on R_j; an empty
  R_j needs no decision (null). The Piecewise's conditions must be defined on B and its regions must
  leave no point of B without a branch (the region where every condition fails is empty). Then
  gap(x) = G_j(x) >= 0 (> 0) at every x. D_j may also decide G_j only where its case's premises hold
  (the conditions in any number of variables, a Max's or Min's argument the largest or smallest:
  :mod:`theory.prover.kernel.premises`), which every point where the value is taken satisfies.
- ``{"method": "bound", "argument": j, "then": D}``. The node N is the first Max or Min at a linear
  position of the gap (reached through sums and products by numbers only), gap = R + c N with c != 0 a
  number; when c > 0 and N is a Max (c < 0 and N a Min), replacing that occurrence by its j-th argument
  a_j gives G_j <= gap, because Max >= a_j (Min <= a_j). The gap must be defined on B; D decides G_j.
- ``{"method": "fractional", "then": D}``. Every floor(u) of the gap (innermost first) is written
  u - t and every ceiling(u) is u + t, one fresh variable t in [0, 1) for each distinct node, the form H
  of the gap in (x, t). At every x of B, t(x) = u(x) - floor(u(x)) (ceiling(u(x)) - u(x)) lies in
  [0, 1) and gap(x) = H(x, t(x)); D decides H on B x [0, 1)^k, the fresh variables' sets open at 1.
- ``{"method": "integral", "then": D}`` (non-strict claims only). The gap is integer-valued by its form:
  integer numbers, integer variables, floor, ceiling, and sums, products, Max, Min, Abs and powers by
  nonnegative integer numbers of such; D decides gap + 1 > 0, and an integer > -1 is >= 0.

Provenance: derived (the definitions of Piecewise, Max, Min, floor and ceiling: floor(u) <= u <
floor(u) + 1, ceiling(u) - 1 < u <= ceiling(u); an integer greater than -1 is at least 0).
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import Any

from theory.prover.kernel import premises, trees, verify
from theory.prover.kernel.balls import infinite
from theory.prover.kernel.nodes import children, rebuilt
from theory.prover.kernel.premises import fresh_names
from theory.prover.kernel.trees import Malformed, number
from theory.prover.kernel.verify import Box, Variable, decide, defined, show, undefined

CHOICES = ("piecewise", "max", "min")
EMPTY = "empty"
"""A region that holds no point (a condition ``true`` failed, or bounds that cross)."""

Bound = tuple[str, Fraction, bool, bool]
"""(variable, q, upper, strict): v < q (v <= q when not strict) for upper, else q < v (q <= v)."""


def first(tree: Any, ops: tuple[str, ...]) -> Any | None:
    """The first node of the tree in pre-order whose op is in ``ops``."""
    if tree[0] in ops:
        return tree
    for child in children(tree):
        found = first(child, ops)
        if found is not None:
            return found
    return None


def replaced(tree: Any, node: Any, value: Any) -> Any:
    """The tree with every subtree equal to ``node`` replaced by ``value``."""
    if tree == node:
        return value
    return rebuilt(tree, lambda arg: replaced(arg, node, value))


def _bounds(condition: Any, holds: bool) -> list[Bound] | str:
    """Bounds of single variables implied by the condition holding (failing when not ``holds``), or
    EMPTY when it cannot."""
    op = condition[0]
    if op == "true":
        return [] if holds else EMPTY
    if op in ("le", "lt"):
        left, right = condition[1], condition[2]
        strict = op == "lt"
        if not holds:  # not (a <= b) is b < a; not (a < b) is b <= a
            left, right, strict = right, left, not strict
        form = trees.affine(["add", left, ["mul", ["num", "-1"], right]]) or {}
        named = [name for name, coefficient in form.items() if name is not None and coefficient != 0]
        if len(named) != 1:
            return []
        slope = form[named[0]]  # slope * v + c < 0 (<= 0): v below -c / slope when slope > 0, else above
        return [(named[0], -form.get(None, Fraction(0)) / slope, slope > 0, strict)]
    if op not in ("and", "or"):
        raise Malformed(f"unknown condition {op!r}")
    if (op == "and") == holds:  # every part holds (failed) for and (or)
        found: list[Bound] = []
        for part in condition[1:]:
            more = _bounds(part, holds)
            if isinstance(more, str):
                return EMPTY
            found += more
        return found
    return []


def boundaries(tree: Any) -> dict[str, list[Fraction]]:
    """Per variable, the points q where a comparison of a Piecewise condition of the tree, affine in that
    variable alone (:func:`_bounds`), changes: a search or a definedness check that cuts there (1/3, which
    no dyadic cut meets) leaves each side with the comparison decided."""
    found: dict[str, list[Fraction]] = {}

    def walk(node: Any) -> None:
        if node[0] in ("le", "lt"):
            bounds = _bounds(node, True)
            for name, q, _, _ in bounds if isinstance(bounds, list) else []:
                if q not in found.setdefault(name, []):
                    found[name].append(q)
        for child in children(node):
            walk(child)

    walk(tree)
    return found


def restricted(
    box: Box, domain: dict[str, Variable], bounds: list[Bound]
) -> tuple[Box, dict[str, Variable]] | None:
    """The box and domain cut by the bounds (None when no point is left): a variable's range shrinks to
    the bound and the domain's set of it ends there, open for a strict bound (integers rounded)."""
    box, domain = dict(box), dict(domain)
    for name, q, upper, strict in bounds:
        if name not in box:
            continue
        variable = domain[name]
        lo, hi = box[name]
        if variable.integer:
            q = (
                Fraction(math.ceil(q) - 1 if strict else math.floor(q))
                if upper
                else Fraction(math.floor(q) + 1 if strict else math.ceil(q))
            )
            strict = False
        if upper and (infinite(hi) or q < hi or (q == hi and strict)):
            box[name] = (lo, q)
            domain[name] = Variable(name, variable.lower, q, variable.lower_open, strict, variable.integer)
        elif not upper and (infinite(lo) or q > lo or (q == lo and strict)):
            box[name] = (q, hi)
            domain[name] = Variable(name, q, variable.upper, strict, variable.upper_open, variable.integer)
        lo, hi = box[name]
        if lo > hi or (lo == hi and (domain[name].open_at(lo, True) or domain[name].open_at(hi, False))):
            return None
    return box, domain


def regions(node: Any, box: Box, domain: dict[str, Variable]) -> list[tuple[Box, dict[str, Variable]] | None]:
    """For each value of the choice node, the region of the box where it may be taken (None: nowhere);
    for a Piecewise, one more entry last: the region where no condition holds."""
    if node[0] != "piecewise":
        return [(box, domain)] * (len(node) - 1)
    found: list[tuple[Box, dict[str, Variable]] | None] = []
    failed: list[Bound] = []
    dead = False  # an earlier condition that always holds
    for _, condition in node[1:]:
        held = _bounds(condition, True)
        if dead or isinstance(held, str):
            found.append(None)
        else:
            found.append(restricted(box, domain, failed + held))
        failing = _bounds(condition, False)
        if isinstance(failing, str):
            dead = True
        else:
            failed += failing
    found.append(None if dead else restricted(box, domain, failed))
    return found


def conditions_defined(node: Any, box: Box, domain: dict[str, Variable]) -> bool:
    """Every comparison in the Piecewise's conditions has both sides defined on the box."""
    env = verify.environment(box, domain)

    def sides(condition: Any) -> list[Any]:
        if condition[0] in ("le", "lt"):
            return [condition[1], condition[2]]
        return [side for part in condition[1:] for side in sides(part)]

    return verify.defined_on((side for _, condition in node[1:] for side in sides(condition)), env)


def _cases(
    decision: dict[str, Any], tree: Any, box: Box, domain: dict[str, Variable], strict: bool, depth: int
) -> str | None:
    """See the module docstring: every value the first choice node may take, decided on its region."""
    node = first(tree, CHOICES)
    if node is None:
        return f"the gap has no Piecewise, Max or Min on {show(box)}"
    branches = decision.get("branches")
    values = [pair[0] for pair in node[1:]] if node[0] == "piecewise" else node[1:]
    if not (isinstance(branches, list) and len(branches) == len(values)):
        raise Malformed("a cases decision needs one entry per value of the node (null for none)")
    places = regions(node, box, domain)
    if node[0] == "piecewise":
        if places[-1] is not None:
            return f"the Piecewise's conditions may all fail on {show(box)}"
        if not conditions_defined(node, box, domain):
            return f"the Piecewise's conditions are not defined on {show(box)}"
    for index, (value, branch, place) in enumerate(zip(values, branches, places, strict=False)):
        if place is None:
            continue
        if branch is None:
            return f"a value of the {node[0]} may be taken on {show(place[0])} and has no decision"
        reason = premises.decide(
            branch,
            replaced(tree, node, value),
            place[0],
            place[1],
            strict,
            depth + 1,
            premises.of_branch(node, index),
        )
        if reason is not None:
            return f"case {json.dumps(value)[:60]}: {reason}"
    return None


def linear(
    tree: Any, path: tuple[int, ...] = (), sign: Fraction = Fraction(1)
) -> tuple[Any, tuple[int, ...], Fraction] | None:
    """(node, path, coefficient) of the first Max or Min reached from the root through sums and through
    products whose other factors are numbers, with the product of those numbers; None when there is
    none."""
    op = tree[0]
    if op in ("max", "min"):
        return tree, path, sign
    if op == "add":
        for index, arg in enumerate(tree[1:], start=1):
            found = linear(arg, (*path, index), sign)
            if found is not None:
                return found
    if op == "mul":
        numbers = [arg for arg in tree[1:] if arg[0] == "num"]
        others = [index for index, arg in enumerate(tree[1:], start=1) if arg[0] != "num"]
        if len(others) == 1:
            factor = sign
            for arg in numbers:
                factor *= number(arg[1])
            if factor != 0:
                return linear(tree[others[0]], (*path, others[0]), factor)
    return None


def at_path(tree: Any, path: tuple[int, ...], value: Any) -> Any:
    """The tree with the subtree at ``path`` (argument indices) replaced by ``value``."""
    if not path:
        return value
    index = path[0]
    return [*tree[:index], at_path(tree[index], path[1:], value), *tree[index + 1 :]]


def _bound(
    decision: dict[str, Any], tree: Any, box: Box, domain: dict[str, Variable], strict: bool, depth: int
) -> str | None:
    """See the module docstring: a Max with a positive coefficient (a Min with a negative one) replaced
    by one of its arguments, a lower bound of the gap."""
    found = linear(tree)
    if found is None:
        return f"the gap has no Max or Min at a linear position on {show(box)}"
    node, path, coefficient = found
    if (node[0] == "max") != (coefficient > 0):
        return f"the {node[0]} of the gap has a coefficient of the wrong sign for a bound on {show(box)}"
    index = decision.get("argument")
    if not (isinstance(index, int) and not isinstance(index, bool) and 0 <= index < len(node) - 1):
        raise Malformed("a bound decision needs the index of an argument of the Max or Min")
    if not defined(tree, box, domain):
        return undefined(box)
    return decide(decision.get("then"), at_path(tree, path, node[index + 1]), box, domain, strict, depth + 1)


def fractional_form(tree: Any, box: Box) -> tuple[Any, list[str]]:
    """The gap with floor(u) written u - t and ceiling(u) written u + t (innermost first, one t per
    distinct node), and the fresh names used."""
    seen: dict[str, Any] = {}

    def walk(node: Any) -> Any:
        node = rebuilt(node, walk)
        if node[0] not in ("floor", "ceiling"):
            return node
        key = json.dumps(node, separators=(",", ":"))
        if key not in seen:
            seen[key] = ["var", f"\0{len(seen)}"]
        sign = "-1" if node[0] == "floor" else "1"
        return ["add", node[1], ["mul", ["num", sign], seen[key]]]

    form = walk(tree)
    names = fresh_names(box, len(seen))
    mapping = {f"\0{index}": name for index, name in enumerate(names)}

    def rename(node: Any) -> Any:
        if node[0] == "var" and node[1] in mapping:
            return ["var", mapping[node[1]]]
        return rebuilt(node, rename)

    return rename(form), names


def widened(box: Box, domain: dict[str, Variable], names: list[str]) -> tuple[Box, dict[str, Variable]]:
    """The box and domain with each fresh fraction t of ``names`` ranging over [0, 1)."""
    fraction = {name: Variable(name, Fraction(0), Fraction(1), False, True, False) for name in names}
    return {**box, **{name: (Fraction(0), Fraction(1)) for name in names}}, {**domain, **fraction}


def _fractional(
    decision: dict[str, Any], tree: Any, box: Box, domain: dict[str, Variable], strict: bool, depth: int
) -> str | None:
    """See the module docstring: floor and ceiling replaced by their argument and a fraction in [0, 1)."""
    form, names = fractional_form(tree, box)
    if not names:
        return f"the gap has no floor or ceiling on {show(box)}"
    wider_box, wider = widened(box, domain, names)
    return decide(decision.get("then"), form, wider_box, wider, strict, depth + 1)


def integer_valued(tree: Any, domain: dict[str, Variable]) -> bool:
    """The tree takes only integer values where it is defined, by its form (see the module docstring)."""
    op = tree[0]
    if op == "num":
        return number(tree[1]).denominator == 1
    if op == "var":
        return tree[1] in domain and domain[tree[1]].integer
    if op in ("floor", "ceiling"):
        return True
    if op in ("add", "mul", "max", "min", "abs"):
        return all(integer_valued(arg, domain) for arg in tree[1:])
    if op == "pow":
        exponent = tree[2]
        return (
            exponent[0] == "num"
            and number(exponent[1]).denominator == 1
            and number(exponent[1]) >= 0
            and integer_valued(tree[1], domain)
        )
    return False


def _integral(
    decision: dict[str, Any], tree: Any, box: Box, domain: dict[str, Variable], strict: bool, depth: int
) -> str | None:
    """See the module docstring: an integer-valued gap > -1 is >= 0."""
    if strict:
        return "an integral step decides a non-strict claim only"
    if not integer_valued(tree, domain):
        return f"the gap is not integer-valued by its form on {show(box)}"
    return decide(decision.get("then"), ["add", tree, ["num", "1"]], box, domain, True, depth + 1)


verify.STEPS["cases"] = _cases
verify.STEPS["bound"] = _bound
verify.STEPS["fractional"] = _fractional
verify.STEPS["integral"] = _integral
