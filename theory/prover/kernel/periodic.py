"""A gap periodic in one variable over the whole line, decided on one period.

A decision ``{"method": "periodic", "variable": v, "period": "P", "then": D}`` on a box B holds when v's
range in B and its set in the domain are the whole line (-oo, oo), P is a rational > 0 (an integer when v
is an integer variable), the gap is defined on B, and:

- with every floor(u) written floor(u - k) + k and every ceiling(u) written ceiling(u - k) + k, for k
  the integer part (floor) of the constant term of u's exact normal form (so that a shifted argument
  and the unshifted one meet: floor(x/2 + 1) = floor(x/2) + 1), the exact normal form
  (:mod:`theory.prover.kernel.exact`) of gap(v + P) - gap(v) is 0;
- D decides the gap on B with v in [0, P] (the domain's set of v the closed interval [0, P]).

Why sound: floor(u - k) + k = floor(u) for an integer k (and ceiling alike), so the rewritten trees are
the gap and the shifted gap wherever they are defined, which is everywhere on B; the normal form's
identity then gives gap(y + P) = gap(y) for every y, hence gap(x) = gap(x - m P) for every integer m.
Every x is x0 + m P with x0 = x - floor(x / P) P in [0, P) (an integer when x and P are), where D
decides the claim. ``floor(x/2) + floor((x + 1)/2) <= x`` over the reals: the gap x - floor(x/2) -
floor((x + 1)/2) has period 2 and is decided on [0, 2] by its jumps. Provenance: derived (the
definition of floor and ceiling; division with remainder).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from theory.prover.kernel import exact, verify
from theory.prover.kernel.balls import infinite
from theory.prover.kernel.nodes import rebuilt
from theory.prover.kernel.trees import Malformed, number
from theory.prover.kernel.verify import Box, Variable, decide, defined, show, undefined

ROUNDINGS = ("floor", "ceiling")


def shifted(tree: Any, name: str, period: Fraction) -> Any:
    """The tree with the variable ``name`` replaced by name + period."""
    if tree[0] == "var" and tree[1] == name:
        return ["add", tree, ["num", str(period)]]
    return rebuilt(tree, lambda node: shifted(node, name, period))


def integer_parts_out(tree: Any, fixed: dict[str, Fraction]) -> Any | None:
    """The tree with floor(u) written floor(u - k) + k (ceiling alike), k the floor of the constant term
    of u's normal form, innermost first; None when a normal form is too large."""
    failed = False

    def walk(node: Any) -> Any:
        nonlocal failed
        node = rebuilt(node, walk)
        if node[0] not in ROUNDINGS:
            return node
        form = exact.normal_form(node[1], fixed)
        if form is None:
            failed = True
            return node
        k = math.floor(form.get(exact.ONE, Fraction(0)))
        if k == 0:
            return node
        form = {**form, exact.ONE: form.get(exact.ONE, Fraction(0)) - k}
        return ["add", [node[0], exact.as_tree({m: c for m, c in form.items() if c})], ["num", str(k)]]

    result = walk(tree)
    return None if failed else result


def _periodic(
    decision: dict[str, Any], tree: Any, box: Box, domain: dict[str, Variable], strict: bool, depth: int
) -> str | None:
    """See the module docstring."""
    name = decision.get("variable")
    if name not in box:
        raise Malformed("a periodic decision needs a variable of the box")
    period = number(decision.get("period"))
    variable = domain[name]
    lo, hi = box[name]
    if not (infinite(lo) and infinite(hi) and infinite(variable.lower) and infinite(variable.upper)):
        return f"a periodic decision needs {name} over the whole line, not {show(box)}"
    if period <= 0 or (variable.integer and period.denominator != 1):
        return f"the period {period} is not > 0 (an integer for the integer variable {name})"
    if not defined(tree, box, domain):
        return undefined(box)
    fixed = verify.fixed_points(box)
    after = integer_parts_out(shifted(tree, name, period), fixed)
    before = integer_parts_out(tree, fixed)
    if after is None or before is None:
        return f"the gap's floor and ceiling arguments are too large to compare on {show(box)}"
    difference = exact.normal_form(["add", after, ["mul", ["num", "-1"], before]], fixed)
    if difference != {}:
        return f"the gap is not shown periodic in {name} with period {period}"
    period_box = {**box, name: (Fraction(0), period)}
    one_period = {**domain, name: Variable(name, Fraction(0), period, False, False, variable.integer)}
    return decide(decision.get("then"), tree, period_box, one_period, strict, depth + 1)


verify.STEPS["periodic"] = _periodic
