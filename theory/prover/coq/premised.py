"""A case decided under its premises (:mod:`theory.prover.kernel.premises`) as a Coq tactic, run where the
context holds the box's bounds and each premise as ``0 <= c`` (``0 < c``):

- an ordinary decision: its lemma on the box (the premises unused);
- ``multiplier``: ``0 <= S`` by the sign's lemma, ``0 <= G - S c`` by the rest's tactic, and
  ``sb_multiplier`` (``_lt``) concludes with the premise;
- ``shift``: the shifted claim H(y, t) over the new box is a certificate of its own (a nested module, its
  decision an ordinary one), instantiated at t = c(x) (its bounds from the premise and the box by
  ``lra``); ``sb_shift`` (``_lt``) with the identity G(x) = H(y, c(x)) (``sb_identity``, or ``field``
  with the premise for its denominators) concludes;
- ``imply``: ``sb_imply`` (``_lt``, ``_le_lt``, ``_lt_le``) gives the implied premise from the original
  one and the proof's tactic, run with the negated form as a premise; the rest's tactic follows with the
  implied premise in place.

Provenance: derived (a translation of the kernel's premised decisions; each step proved by Coq).
"""

from __future__ import annotations

from typing import Any

from theory.prover.coq.steps import Writer, end_text, keep_one_box
from theory.prover.coq.terms import Untranslatable, variable
from theory.prover.kernel import premises
from theory.prover.kernel.trees import Malformed
from theory.prover.kernel.verify import Box, Variable

Given = list[tuple[Any, bool, str]]
"""The premises in the context: (c, strict, the hypothesis's name)."""

IMPLY = {
    (False, False): "sb_imply",
    (True, True): "sb_imply_lt",
    (False, True): "sb_imply_le_lt",
    (True, False): "sb_imply_lt_le",
}
"""(premise strict, implied strict) -> the preamble's lemma."""


def uses(data: Any) -> bool:
    """The certificate data holds a premised decision anywhere (its file then needs the lemmas)."""
    if isinstance(data, dict):
        return data.get("method") in premises.METHODS or any(uses(value) for value in data.values())
    if isinstance(data, list):
        return any(uses(item) for item in data)
    return False


def relation(strict: bool) -> str:
    """``<`` for a strict claim, else ``<=``."""
    return "<" if strict else "<="


def stated(writer: Writer, given: list[tuple[Any, bool]], label: str) -> tuple[str, Given]:
    """Each premise asserted in the normal form 0 <= c (0 < c) by ``lra`` from the context (the hypothesis
    that states it as a comparison); the tactic and the premises with their names."""
    script, named = "", []
    for index, (c, strict) in enumerate(given):
        name = f"P_{label}_{index}"
        script += f"assert ({name} : 0 {relation(strict)} {writer.subject(c)}) by lra;\n  "
        named.append((c, strict, name))
    return script, named


def tactic(
    writer: Writer,
    name: str,
    decision: Any,
    tree: Any,
    box: Box,
    domain: dict[str, Variable],
    strict: bool,
    given: Given,
) -> str:
    """A tactic proving 0 <= tree (0 < tree when strict) in the context (see the module)."""
    method = decision.get("method") if isinstance(decision, dict) else None
    if method not in premises.METHODS:
        return writer.use(writer.lemma(name, decision, box, strict, tree))
    index = decision.get("premise")
    if not (isinstance(index, int) and 0 <= index < len(given)):
        raise Malformed(f"a {method} decision needs the index of one of the case's premises")
    c, premise_strict, hypothesis = given[index]
    assert isinstance(decision, dict)
    if method == "multiplier":
        multiplier = decision.get("multiplier")
        sign = writer.lemma(f"{name}_sign", decision.get("sign"), box, False, multiplier)
        rest_tree = ["add", tree, ["mul", ["num", "-1"], multiplier, c]]
        rest = tactic(writer, f"{name}_rest", decision.get("then"), rest_tree, box, domain, strict, given)
        premise = f"(Rlt_le _ _ {hypothesis})" if premise_strict else hypothesis
        lemma = "sb_multiplier_lt" if strict else "sb_multiplier"
        return (
            f"assert (M_{name} : 0 <= {writer.subject(multiplier)}) by ({writer.use(sign)});\n  "
            f"assert (R_{name} : 0 {relation(strict)} {writer.subject(rest_tree)}) by ({rest});\n  "
            f"apply ({lemma} _ {writer.subject(multiplier)} {writer.subject(c)} M_{name} {premise}); "
            "first [ lra | nra ]"
        )
    if method == "shift":
        return _shift(writer, name, decision, tree, box, domain, strict, given, index)
    form, form_strict = decision.get("form"), decision.get("strict")
    if not isinstance(form_strict, bool):
        raise Malformed("an imply decision needs a JSON boolean strict")
    negated = ["mul", ["num", "-1"], form]
    others = [premise for k, premise in enumerate(given) if k != index]
    proof = tactic(
        writer,
        f"{name}_proof",
        decision.get("proof"),
        ["mul", ["num", "-1"], c],
        box,
        domain,
        not premise_strict,
        [*others, (negated, not form_strict, f"N_{name}")],
    )
    implied = f"I_{name}"
    replaced = [*given[:index], (form, form_strict, implied), *given[index + 1 :]]
    then = tactic(writer, f"{name}_then", decision.get("then"), tree, box, domain, strict, replaced)
    return (
        f"assert ({implied} : 0 {relation(form_strict)} {writer.subject(form)}) by (\n    "
        f"apply ({IMPLY[premise_strict, form_strict]} {writer.subject(c)} {writer.subject(form)}); "
        f"[ intros N_{name}; {proof} | exact {hypothesis} ]);\n  {then}"
    )


def _shift(
    writer: Writer,
    name: str,
    decision: dict[str, Any],
    tree: Any,
    box: Box,
    domain: dict[str, Variable],
    strict: bool,
    given: Given,
    index: int,
) -> str:
    """The shift step (see the module)."""
    kernel_given = [(c, s) for c, s, _ in given]
    moved = premises.shifted(tree, box, domain, kernel_given, index, str(decision.get("variable")))
    if isinstance(moved, str):
        raise Malformed(f"a shift the kernel refuses: {moved}")
    if moved is None:
        return "exfalso; lra"
    then = decision.get("then")
    if isinstance(then, dict) and then.get("method") in premises.METHODS:
        raise Untranslatable("a shift followed by another premised step has no Coq form yet")
    shifted_tree, shifted_box, shifted_domain, _ = moved
    records = [
        {
            "name": key,
            "lower": end_text(lo),
            "upper": end_text(hi),
            "lower_open": shifted_domain[key].open_at(lo, True),
            "upper_open": shifted_domain[key].open_at(hi, False),
            "integer": shifted_domain[key].integer,
        }
        for key, (lo, hi) in shifted_box.items()
    ]
    module = f"{name}_shift"
    inequality = f"the case {name} with a premise made a range"
    keep_one_box(writer, module, inequality, shifted_tree, records, strict, then, "the shifted case")
    (fresh,) = set(shifted_box) - set(box)
    arguments = [
        f"({writer.subject(given[index][0])})" if key == fresh else variable(key) for key in shifted_box
    ]
    instance = f"{module}.gap {' '.join(arguments)}"
    lemma = "sb_shift_lt" if strict else "sb_shift"
    return (
        f"apply ({lemma} _ ({instance}));\n  "
        f"[ unfold {module}.gap; first [ sb_identity | solve [ field; repeat split; lra ] ]\n  "
        f"| apply {module}.statement; lra ]"
    )
