"""A case's condition as a premise: the claim G >= 0 (> 0) on the points of a box where premises hold.

A premise is a pair (c, strict): c > 0 when strict, else c >= 0, and c is defined where it holds. The
``cases`` step (:mod:`theory.prover.kernel.cases`) gives each value of its node the premises that hold
wherever that value is taken (:func:`of_branch`):

- Max(a_1, ..., a_n) takes a_j only where a_j is largest: a_j - a_i >= 0 for every i != j (Min: a_i - a_j
  >= 0); at a tie the values agree, so the closed premises leave no point out;
- a Piecewise takes its j-th value where the j-th condition holds and the earlier ones fail: a <= b held
  is b - a >= 0, a < b held is b - a > 0, a <= b failed is a - b > 0, a < b failed is a - b >= 0, through
  ``and`` held and ``or`` failed (any other condition gives no premise: fewer premises, more points).

A branch's decision is then one of these (else an ordinary decision, which ignores the premises):

- ``{"method": "shift", "premise": i, "variable": v, "then": P}``: premise i is affine, c = a v + r with
  a != 0 a rational and v a real variable of the box. Every point x of the box where c(x) > 0 (>= 0) is
  the image of the point (x without v, t = c(x)) under v = (t - r) / a, and t lies in T, the exact range of
  c over the box (in rationals, closed) cut to t > 0 (t >= 0): T is a range of a fresh real variable t
  (an empty T: no point, nothing to decide). P decides the gap with v replaced by (t - r) / a on the box
  with v's range replaced by T, under the premises so substituted plus v's finite ends (v - lo >= 0,
  hi - v >= 0 written in t): a set containing every such image, so P's claim holds at every point of the
  region. ``1/(x - y)`` where x > y is 1/t on t in (0, T].
- ``{"method": "multiplier", "premise": i, "multiplier": S, "sign": D, "then": P}`` (the S-procedure):
  D decides S >= 0 on the box (an ordinary decision), P decides G - S c (> 0 when strict) under the same
  premises; where c >= 0, G = (G - S c) + S c >= G - S c. ``x y - x^2 - x (y - x) = 0`` under y - x >= 0.
- ``{"method": "imply", "premise": i, "form": C, "strict": s, "proof": P1, "then": P2}``: C is defined on
  the box; P1 decides -c >= 0 (> 0 when premise i is not strict) under the other premises and -C > 0
  (-C >= 0 when s): where C > 0 (>= 0 when not s) fails, c > 0 (>= 0) fails too, so wherever premise i
  holds (C, s) holds as well; P2 decides G with premise i replaced by (C, s). ``y^2 - x^2 >= 0`` on
  [0, 2]^2 gives ``y - x >= 0``: where y - x < 0, y = x + t with t in (0, 2], y^2 - x^2 = 2 x t + t^2 > 0.

Provenance: derived (the definitions of Max, Min and Piecewise; a real number's image under an affine
bijection; c >= 0 and S >= 0 give S c >= 0; the contrapositive of an implication).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from theory.prover.kernel import trees, verify
from theory.prover.kernel.balls import infinite
from theory.prover.kernel.nodes import rebuilt
from theory.prover.kernel.trees import Malformed
from theory.prover.kernel.verify import Box, Variable, show

Premise = tuple[Any, bool]
"""(c, strict): c > 0 when strict, else c >= 0."""

METHODS = ("shift", "multiplier", "imply")


def difference(left: Any, right: Any) -> Any:
    """The tree left - right."""
    return ["add", left, ["mul", ["num", "-1"], right]]


def _held(condition: Any, holds: bool) -> list[Premise]:
    """The premises the condition gives when it holds (fails when not ``holds``)."""
    op = condition[0]
    if op in ("le", "lt"):
        left, right = condition[1], condition[2]
        if holds:  # a <= b: b - a >= 0; a < b: b - a > 0
            return [(difference(right, left), op == "lt")]
        return [(difference(left, right), op == "le")]  # not (a <= b): a - b > 0; not (a < b): a - b >= 0
    if op in ("and", "or") and (op == "and") == holds:
        return [premise for part in condition[1:] for premise in _held(part, holds)]
    return []


def of_branch(node: Any, index: int) -> list[Premise]:
    """The premises that hold wherever the choice node (Piecewise, Max or Min) takes its value ``index``."""
    if node[0] == "piecewise":
        found = _held(node[index + 1][1], True)
        for _, condition in node[1 : index + 1]:
            found += _held(condition, False)
        return found
    arguments = node[1:]
    chosen = arguments[index]
    return [
        (difference(chosen, other) if node[0] == "max" else difference(other, chosen), False)
        for k, other in enumerate(arguments)
        if k != index
    ]


def _premise(decision: dict[str, Any], premises: list[Premise]) -> int:
    index = decision.get("premise")
    if not (isinstance(index, int) and not isinstance(index, bool) and 0 <= index < len(premises)):
        raise Malformed(f"a {decision.get('method')} decision needs the index of one of the case's premises")
    return index


def substituted(tree: Any, name: str, value: Any) -> Any:
    """The tree with every variable ``name`` replaced by the tree ``value``, each largest affine part then
    written c + sum a_v v with its like terms collected (:func:`collected`)."""

    def put(node: Any) -> Any:
        if node[0] == "var" and node[1] == name:
            return value
        return rebuilt(node, put)

    return collected(put(tree))


def collected(tree: Any) -> Any:
    """The tree with each largest affine part (:func:`theory.prover.kernel.trees.affine`) written
    c + sum a_v v, like terms collected and zero terms dropped: t + y - y is t (a ring identity, so the
    value at every point is the same), whose enclosure on t > 0 is > 0 where that of t + y - y is not."""
    form = trees.affine(tree) if tree[0] in ("add", "mul") else None
    if form is None:
        return rebuilt(tree, collected)
    terms: list[Any] = [
        ["var", key] if k == 1 else ["mul", ["num", str(k)], ["var", key]]
        for key, k in sorted((key, k) for key, k in form.items() if key is not None and k != 0)
    ]
    constant = form.get(None, Fraction(0))
    if constant != 0 or not terms:
        terms.insert(0, ["num", str(constant)])
    return terms[0] if len(terms) == 1 else ["add", *terms]


def fresh_names(box: Box, count: int) -> list[str]:
    """``count`` variable names t1, t2, ... not in the box (an underscore prepended until none clashes)."""
    prefix = "t"
    while any(name.startswith(prefix) for name in box):
        prefix = "_" + prefix
    return [f"{prefix}{index}" for index in range(1, count + 1)]


def shifted(
    tree: Any, box: Box, domain: dict[str, Variable], premises: list[Premise], index: int, name: str
) -> tuple[Any, Box, dict[str, Variable], list[Premise]] | str | None:
    """(gap, box, domain, premises) after the shift of premise ``index`` in variable ``name`` (see the
    module docstring), None when no point of the box satisfies the premise, or why the shift is refused."""
    c, strict = premises[index]
    form = trees.affine(c)
    if form is None:
        return "the premise is not affine"
    slope = form.get(name, Fraction(0))
    if name not in box or domain[name].integer or slope == 0:
        return f"the premise has no term in a real variable {name!r} of the box"
    whole = {
        key: Variable(key, lo, hi, False, False, False) for key, (lo, hi) in box.items()
    }  # the closed box: a set containing the range
    found = trees.exact_range(form, verify.environment(box, whole))
    if found is None:
        return "the premise's range on the box is not known exactly"
    lo, hi = found[0], found[1]
    lo_open = False
    if infinite(lo) or lo <= 0:  # the premise cuts the range at 0
        lo, lo_open = Fraction(0), strict
    if not infinite(hi) and (hi < lo or (hi == lo and lo_open)):
        return None
    (t,) = fresh_names(box, 1)
    rest = [["num", str(form.get(None, Fraction(0)))]] + [
        ["mul", ["num", str(k)], ["var", key]]
        for key, k in form.items()
        if key not in (None, name) and k != 0
    ]
    value = ["mul", ["num", str(1 / slope)], ["add", ["var", t], ["mul", ["num", "-1"], ["add", *rest]]]]
    moved = [(substituted(p, name, value), s) for p, s in premises]
    v_lo, v_hi = box[name]
    if not infinite(v_lo):
        moved.append((difference(value, ["num", str(v_lo)]), False))
    if not infinite(v_hi):
        moved.append((difference(["num", str(v_hi)], value), False))
    new_box = {key: pair for key, pair in box.items() if key != name}
    new_box[t] = (lo, hi)
    new_domain = {key: var for key, var in domain.items() if key != name and key in box}
    new_domain[t] = Variable(t, lo, hi, lo_open, infinite(hi), False)
    return substituted(tree, name, value), new_box, new_domain, moved


def decide(
    decision: Any,
    tree: Any,
    box: Box,
    domain: dict[str, Variable],
    strict: bool,
    depth: int,
    premises: list[Premise],
) -> str | None:
    """None when ``decision`` proves tree >= 0 (> 0 when strict) at every point of the box where the
    premises hold (see the module docstring), else why it does not."""
    if depth > verify.MAX_NESTING or not isinstance(decision, dict):
        raise Malformed("a decision must be an object (nested at most 64 deep)")
    method = decision.get("method")
    if method not in METHODS:
        return verify.decide(decision, tree, box, domain, strict, depth)
    index = _premise(decision, premises)
    c, premise_strict = premises[index]
    if method == "shift":
        name = decision.get("variable")
        if not isinstance(name, str):
            raise Malformed("a shift decision needs a variable")
        moved = shifted(tree, box, domain, premises, index, name)
        if moved is None:
            return None
        if isinstance(moved, str):
            return f"premise {index} on {show(box)}: {moved}"
        return decide(decision.get("then"), *moved[:3], strict, depth + 1, moved[3])
    if method == "multiplier":
        multiplier = decision.get("multiplier")
        trees.validate(multiplier, set(box))
        reason = verify.decide(decision.get("sign"), multiplier, box, domain, False, depth + 1)
        if reason is not None:
            return f"the multiplier is not shown >= 0: {reason}"
        rest = ["add", tree, ["mul", ["num", "-1"], multiplier, c]]
        return decide(decision.get("then"), rest, box, domain, strict, depth + 1, premises)
    form, form_strict = decision.get("form"), decision.get("strict")
    trees.validate(form, set(box))
    if not isinstance(form_strict, bool):
        raise Malformed("an imply decision needs a JSON boolean strict")
    if not verify.defined(form, box, domain):
        return f"the implied premise is not defined on the whole of {show(box)}"
    others = [premise for k, premise in enumerate(premises) if k != index]
    negated = ["mul", ["num", "-1"], form]
    reason = decide(
        decision.get("proof"),
        ["mul", ["num", "-1"], c],
        box,
        domain,
        not premise_strict,
        depth + 1,
        [*others, (negated, not form_strict)],
    )
    if reason is not None:
        return f"the premise's implication is not shown: {reason}"
    replaced = [*premises[:index], (form, form_strict), *premises[index + 1 :]]
    return decide(decision.get("then"), tree, box, domain, strict, depth + 1, replaced)
