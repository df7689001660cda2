"""The kernel's ``periodic`` step (:mod:`theory.prover.kernel.periodic`) as a Coq proof.

The box's subject S(v) (v over the whole line) is shown periodic, S(v + P) = S(v) for every real v
(``Pd``), and decided on one period by the nested lemma ``name_period`` (the kernel's nested decision on
v in [0, P]); ``sb_periodic`` (``sb_periodic_lt`` for a strict claim: every x is y + m P with y in
[0, P], m an integer) concludes.

``Pd`` is proved as the kernel proves it: each floor (ceiling) of an argument u, in S(v + P) and in
S(v), is written floor(w) + k with k the integer part of the constant term of u's exact normal form and
w that normal form less k, printed from the normal form (so that a shifted argument and an unshifted
one print the same w): ``sb_floor_shifted`` (``sb_ceil_shifted``) from u = w + k (``sb_identity``);
after these rewrites the two sides are equal by ``sb_identity``. Where they are not (a nested floor, a
printed term the rewrites miss), coqc refuses the proof and the box is a named hypothesis. Provenance:
derived (a translation of the kernel's step; each rewrite proved by Coq).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from theory.prover.coq.steps import Writer, on_domain
from theory.prover.coq.terms import Untranslatable, rounding, term, variable
from theory.prover.kernel import exact
from theory.prover.kernel import periodic as kernel_periodic
from theory.prover.kernel.nodes import rebuilt
from theory.prover.kernel.trees import Malformed, number
from theory.prover.kernel.verify import Box, Variable

SHIFTED = {"floor": "sb_floor_shifted", "ceiling": "sb_ceil_shifted"}
"""The preamble's lemma: floor(u) = floor(w) + k (ceiling alike) where u = w + k, k an integer."""


def _renamed(tree: Any, name: str, fresh: str) -> Any:
    """The tree with the variable ``name`` written ``fresh``."""
    if tree[0] == "var" and tree[1] == name:
        return ["var", fresh]
    return rebuilt(tree, lambda node: _renamed(node, name, fresh))


def _roundings(tree: Any) -> list[Any]:
    """The floor and ceiling nodes of the tree (Untranslatable for one inside another's argument)."""
    if not isinstance(tree, list) or not tree or tree[0] in ("num", "var", "const"):
        return []
    if tree[0] in SHIFTED:
        if _roundings(tree[1]):
            raise Untranslatable("a periodic step with a floor or ceiling inside another has no Coq proof")
        return [tree]
    return [node for argument in tree[1:] for node in _roundings(argument)]


def _shift_facts(trees: list[Any], positive: Any) -> list[str]:
    """For each distinct floor (ceiling) of an argument u in ``trees``: F_i, its value floor(w) + k (the
    kernel's integer part out of u's exact normal form)."""
    facts: dict[str, str] = {}
    for node in (node for tree in trees for node in _roundings(tree)):
        form = exact.normal_form(node[1], {})
        if form is None:
            raise Untranslatable("a floor argument of the periodic step has no exact normal form")
        k = math.floor(form.get(exact.ONE, Fraction(0)))
        rest = {**form, exact.ONE: form.get(exact.ONE, Fraction(0)) - k}
        u, w = term(node[1], positive), term(exact.as_tree({m: c for m, c in rest.items() if c}), positive)
        left = rounding(node[0], u)
        if (u == w and k == 0) or left in facts:
            continue
        facts[left] = (
            f"assert (F{len(facts)} : {left} = {rounding(node[0], w)} + IZR ({k})%Z) "
            f"by (apply {SHIFTED[node[0]]}; sb_identity)"
        )
    return list(facts.values())


def periodic(writer: Writer, name: str, decision: dict[str, Any], box: Box, strict: bool, form: Any) -> str:
    """The ``periodic`` step (see the module)."""
    v = decision.get("variable")
    if not isinstance(v, str) or v not in box:
        raise Malformed("a periodic decision needs a variable of the box")
    period = number(decision.get("period"))
    whole = writer.domain[v]
    if period <= 0 or not all(math.isinf(end) for end in (*box[v], whole.lower, whole.upper)):
        raise Malformed("a periodic decision needs a period > 0 and its variable over the whole line")
    if whole.integer:
        raise Untranslatable("a periodic step over an integer variable has no Coq proof yet")
    fresh = next(f"{v}_{k}" for k in range(len(writer.domain) + 1) if f"{v}_{k}" not in writer.domain)
    tree = _renamed(writer.tree if form is None else form, v, fresh)
    later = kernel_periodic.shifted(tree, fresh, period)
    facts = _shift_facts([later, tree], writer.positive)
    rewrites = "".join(f"rewrite F{index}; " for index in range(len(facts)))
    one = {**writer.domain, v: Variable(v, Fraction(0), period, False, False, False)}
    with on_domain(writer, one):
        period_box = {**box, v: (Fraction(0), period)}
        lemma = writer.lemma(f"{name}_period", decision.get("then"), period_box, strict, form)
    w, p = variable(fresh), term(["num", str(period)], writer.positive)
    arguments = " ".join(w if name_ == variable(v) else name_ for name_ in writer.names)
    shown = "".join(f"{fact};\n    " for fact in facts)
    rule = "sb_periodic_lt" if strict else "sb_periodic"
    return (
        f"assert (Pd : forall {w} : R, {term(later, writer.positive)} = {term(tree, writer.positive)}) by (\n"
        f"    intros {w}; {shown}{rewrites}sb_identity);\n  "
        f"refine ({rule} (fun {w} : R => {term(tree, writer.positive)}) {p} _ Pd _ {variable(v)});\n  "
        f"[ lra | intros {w} Y; cbv beta; apply ({lemma} {arguments}); lra ]"
    )
