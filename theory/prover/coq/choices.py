"""The kernel's case splits (:mod:`theory.prover.kernel.cases`: ``cases``, ``bound``, ``fractional``) as Coq
proofs, box by box, each nested decision in a lemma of its own (proved, or a named hypothesis):

- ``cases`` on a Max or Min of two arguments a, b (printed (a + b +- |a - b|) / 2): ``sb_max_which``
  (``sb_min_which``) says the printed term equals a or b; each side is rewritten to its argument and
  decided by ``name_case_j`` (the gap with the node replaced by that argument, on the box);
- ``cases`` on a Piecewise (printed ``if Rlt_dec a b then v1 else ...``): each decision of the standard
  library is destructed in turn (the failed conditions as b <= a, b < a: ``Rnot_lt_le``, ``Rnot_le_lt``),
  each branch decided by ``name_case_j`` on the kernel's region of the branch (its bounds from the
  conditions by ``lra``); a branch the kernel found empty is closed by ``lra`` from its conditions;
- ``bound``: the gap R + c N with N a Max (c > 0) or Min (c < 0) of two arguments, N >= a_j (<= a_j) by
  ``sb_max_above`` (``sb_min_below``), ``name_bound`` decides R + c a_j and ``lra`` concludes;
- ``fractional``: the form H(x, t) of the gap (floor(u) = u - t, ceiling(u) = u + t) is a certificate of
  its own (a nested module, the fractions t ranging over [0, 1)); ``sb_floor_fraction``
  (``sb_ceil_fraction``, ``_lt`` for a strict claim) instantiates each t with u - floor(u)
  (ceiling(u) - u), and H at those values is the gap (``sb_identity``);
- ``integral``: the gap is ``sb_int`` (IZR of an integer) by ``sb_integer`` node by node (numerals, floor,
  ceiling, +, *, -, ^ n, |.|, Max, Min; an integer variable has no such premise in a box lemma, so a gap
  with one is left to coqc's verdict), ``name_shifted`` decides gap + 1 > 0 and ``sb_integral_le``
  concludes.

Provenance: derived (a translation of the kernel's decisions; each identity and bound proved by Coq).
"""

from __future__ import annotations

import json
import math
from typing import Any

from theory.prover.coq import premised
from theory.prover.coq.steps import Writer, end_text, keep_one_box, on_domain
from theory.prover.coq.terms import COMPARISONS, Untranslatable, condition, rounding, variable
from theory.prover.kernel import cases, premises
from theory.prover.kernel.nodes import rebuilt
from theory.prover.kernel.trees import Malformed
from theory.prover.kernel.verify import Box

WHICH = {"max": "sb_max_which", "min": "sb_min_which"}
"""The preamble's lemma: the printed Max (Min) of a, b equals a or b."""
BOUNDS = {"max": "sb_max_above", "min": "sb_min_below"}
"""The preamble's lemma: the printed Max (Min) of a, b is >= (<=) both."""
WHICH_PREMISED = {"max": "sb_max_which_le", "min": "sb_min_which_le"}
"""The preamble's lemma: the printed Max (Min) of a, b is a (b) with a - b >= 0 (b - a >= 0), or the other."""
NEGATED = {"lt": "Rnot_lt_le", "le": "Rnot_le_lt"}
"""A failed condition a < b (a <= b) as b <= a (b < a)."""


def _two(node: Any) -> None:
    if node[0] in WHICH and len(node) != 3:
        raise Untranslatable(
            f"a {node[0]} of {len(node) - 1} arguments has no case split in Coq yet (two only)"
        )


def choices(writer: Writer, name: str, decision: dict[str, Any], box: Box, strict: bool, form: Any) -> str:
    """The ``cases`` step (see the module)."""
    tree = writer.tree if form is None else form
    node = cases.first(tree, cases.CHOICES)
    branches = decision.get("branches")
    if node is None or not isinstance(branches, list) or len(branches) != len(node) - 1:
        raise Malformed("a cases decision needs a Piecewise, Max or Min and one entry per value of it")
    _two(node)
    places = cases.regions(node, box, writer.domain)
    if node[0] in WHICH and premised.uses(branches):
        return _premised_which(writer, name, node, branches, tree, box, strict)
    if node[0] in WHICH:
        a, b = (writer.subject(arg) for arg in node[1:])
        uses = []
        for j, (value, branch) in enumerate(zip(node[1:], branches, strict=True)):
            lemma = writer.lemma(f"{name}_case_{j}", branch, box, strict, cases.replaced(tree, node, value))
            uses.append(writer.use(lemma))
        return (
            f"try unfold gap; destruct ({WHICH[node[0]]} {a} {b}) as [W|W]; rewrite W;\n"
            f"  [ {uses[0]} | {uses[1]} ]"
        )
    return _piecewise(writer, name, node, branches, places, tree, box, strict)


def _premised_which(
    writer: Writer, name: str, node: Any, branches: list[Any], tree: Any, box: Box, strict: bool
) -> str:
    """A Max or Min of two arguments whose values are decided under their premises: ``sb_max_which_le``
    (``sb_min_which_le``) gives the printed term's argument with its premise, each branch's tactic runs
    with it (:mod:`theory.prover.coq.premised`)."""
    a, b = (writer.subject(arg) for arg in node[1:])
    scripts = []
    for j, (value, branch) in enumerate(zip(node[1:], branches, strict=True)):
        given = premises.of_branch(node, j)
        label = f"{name}_case_{j}"
        asserted, named = premised.stated(writer, given, label)
        body = premised.tactic(
            writer, label, branch, cases.replaced(tree, node, value), box, writer.domain, strict, named
        )
        scripts.append(asserted + body)
    return (
        f"try unfold gap; destruct ({WHICH_PREMISED[node[0]]} {a} {b}) as [[W P]|[W P]]; rewrite W;\n  "
        f"[ {scripts[0]}\n  | {scripts[1]} ]"
    )


def _piecewise(
    writer: Writer,
    name: str,
    node: Any,
    branches: list[Any],
    places: list[Any],
    tree: Any,
    box: Box,
    strict: bool,
) -> str:
    """The Piecewise's conditions destructed in order, each branch by its lemma on its region."""
    script = "try unfold gap; "
    for j, ((value, test), branch, place) in enumerate(zip(node[1:], branches, places, strict=False)):
        if place is None:
            use = "exfalso; lra"
        elif branch is None:
            raise Malformed("a reachable branch of a cases decision has no decision")
        else:
            region = place[0]
            if any(v not in box or (region[v] != box[v] and place[1][v].integer) for v in region):
                raise Untranslatable("a Piecewise region of an integer variable has no Coq proof yet")
            with on_domain(writer, place[1]):  # the region's ends open where the kernel's are
                case = cases.replaced(tree, node, value)
                if premised.uses(branch):
                    use = _premised_branch(writer, name, node, j, branch, case, place, strict)
                else:
                    use = writer.use(writer.lemma(f"{name}_case_{j}", branch, region, strict, case))
        if test[0] == "true":
            return script + use
        if test[0] not in COMPARISONS:
            raise Untranslatable(f"a Piecewise condition {test[0]!r} has no Coq form yet")
        label = f"C{j}"
        script += (
            f"destruct ({condition(test, writer.positive)}) as [{label}|{label}]; cbv iota;\n"
            f"  [ {use} | apply {NEGATED[test[0]]} in {label} ];\n  "
        )
    raise Untranslatable("a Piecewise whose last condition is not True has no Coq form yet")


def _premised_branch(
    writer: Writer, name: str, node: Any, j: int, branch: Any, case: Any, place: Any, strict: bool
) -> str:
    """A Piecewise branch decided under its premises: the held condition C_j and the failed ones C_k (k < j)
    in the context, each asserted as its premise (:func:`theory.prover.kernel.premises.of_branch`), then
    the branch's tactic (:mod:`theory.prover.coq.premised`)."""
    given = premises.of_branch(node, j)
    if len(given) != j + (node[j + 1][1][0] != "true"):
        raise Untranslatable("a Piecewise condition other than one comparison has no premised Coq form yet")
    label = f"{name}_case_{j}"
    asserted, named = premised.stated(writer, given, label)
    return asserted + premised.tactic(writer, label, branch, case, place[0], place[1], strict, named)


def bound(writer: Writer, name: str, decision: dict[str, Any], box: Box, strict: bool, form: Any) -> str:
    """The ``bound`` step (see the module)."""
    tree = writer.tree if form is None else form
    found = cases.linear(tree)
    index = decision.get("argument")
    if found is None or not isinstance(index, int) or not 0 <= index < len(found[0]) - 1:
        raise Malformed("a bound decision needs a Max or Min at a linear position and one of its arguments")
    node, path, _ = found
    _two(node)
    lower = cases.at_path(tree, path, node[index + 1])
    lemma = writer.lemma(f"{name}_bound", decision.get("then"), box, strict, lower)
    a, b = (writer.subject(arg) for arg in node[1:])
    relation = "<" if strict else "<="
    return (
        f"assert (N : 0 {relation} {writer.subject(lower)}) by ({writer.use(lemma)});\n  "
        f"pose proof ({BOUNDS[node[0]]} {a} {b}) as M; try unfold gap; lra"
    )


def _fractions(tree: Any) -> list[Any]:
    """The distinct floor and ceiling nodes of the tree in the order of
    :func:`~theory.prover.kernel.cases.fractional_form`'s fresh variables (innermost first)."""
    seen: dict[str, Any] = {}

    def walk(node: Any) -> Any:
        inner = rebuilt(node, walk)
        if inner[0] in ("floor", "ceiling"):
            seen.setdefault(json.dumps(inner, separators=(",", ":")), node)
        return inner

    walk(tree)
    return list(seen.values())


def fractional(writer: Writer, name: str, decision: dict[str, Any], box: Box, strict: bool, form: Any) -> str:
    """The ``fractional`` step (see the module)."""
    tree = writer.tree if form is None else form
    shaped, names = cases.fractional_form(tree, box)
    nodes = _fractions(tree)
    if not names or len(nodes) != len(names):
        raise Malformed("a fractional decision needs a floor or ceiling in the gap")
    if any(v.integer for v in writer.domain.values()):
        raise Untranslatable("a fractional step over an integer variable has no Coq proof yet")
    wider_box, wider = cases.widened(box, writer.domain, names)
    domain = [
        {
            "name": v,
            "lower": end_text(lo),
            "upper": end_text(hi),
            "lower_open": wider[v].open_at(lo, True) if not math.isinf(lo) else True,
            "upper_open": wider[v].open_at(hi, False) if not math.isinf(hi) else True,
            "integer": False,
        }
        for v, (lo, hi) in wider_box.items()
    ]
    module = f"{name}_fractions"
    inequality = f"the form of {name} with its floors and ceilings as fractions in [0, 1)"
    keep_one_box(
        writer, module, inequality, shaped, domain, strict, decision.get("then"), "the fractional form"
    )
    arguments = [variable(v) for v in box]
    values = []
    for node in nodes:
        u = writer.subject(node[1])
        printed = rounding(node[0], u)
        values.append(f"({u} - {printed})" if node[0] == "floor" else f"({printed} - {u})")
    lemma = "_fraction_lt" if strict else "_fraction"
    steps = []
    for k, node in enumerate(nodes):
        rest = [f"w{i}" for i in range(k)] + ["w"] + values[k + 1 :]
        rule = ("sb_floor" if node[0] == "floor" else "sb_ceil") + lemma
        u = writer.subject(node[1])
        steps.append(
            f"apply ({rule} (fun w => {module}.gap {' '.join(arguments + rest)}) {u}); "
            f"intros w{k} T{k}; cbv beta"
        )
    relation = "<" if strict else "<="
    instance = f"{module}.gap {' '.join(arguments + values)}"
    return (
        f"assert (S : 0 {relation} {instance}) by (\n    "
        + ";\n    ".join(steps)
        + f";\n    apply {module}.statement; lra);\n  "
        f"assert (E : {writer.subject(form)} = {instance})\n"
        f"    by (try unfold gap; unfold {module}.gap; sb_identity);\n  "
        "rewrite E; exact S"
    )


def integral(writer: Writer, name: str, decision: dict[str, Any], box: Box, strict: bool, form: Any) -> str:
    """The ``integral`` step (see the module)."""
    if strict:
        raise Malformed("an integral step decides a non-strict claim only")
    tree = writer.tree if form is None else form
    shifted = ["add", tree, ["num", "1"]]
    lemma = writer.lemma(f"{name}_shifted", decision.get("then"), box, True, shifted)
    return (
        f"assert (N : 0 < {writer.subject(shifted)}) by ({writer.use(lemma)});\n  "
        "apply sb_integral_le; [ try unfold gap; sb_integer | try unfold gap; lra ]"
    )


STEPS = {"cases": choices, "bound": bound, "fractional": fractional, "integral": integral}
"""The kernel's case-split steps with a Coq proof here, by method."""
