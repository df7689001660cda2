"""The kernel's steps on a form of the gap (``scale``, ``unsigned``, ``sum``) as Coq proofs, box by box.

Each step is proved as the kernel decided it, its pieces in lemmas of their own (each proved, or a named
hypothesis, by the writer's :meth:`~theory.prover.coq.export._Writer.lemma`):

- ``scale`` by m to the form f: ``name_by`` proves 0 < m on the box (an enclosure of m, as the kernel's),
  ``E : subject * m = f`` is an identity (``sb_identity``, m > 0 in the context for its denominators),
  ``name_scaled`` decides f by the nested decision, and ``sb_scale`` (g m = f, m > 0, f >= 0 give g >= 0;
  ``sb_scale_strict`` for > 0) concludes;
- ``unsigned``: for each |u| the kernel resolved (innermost first, by the sign of u's enclosure on the box),
  ``name_abs_j`` proves 0 <= u (or 0 <= -u) by enclosure, ``Rabs_pos_eq`` (``sb_abs_neg``) rewrites
  |u| as u (-1 u), the rewritten subject is the kernel's form (``sb_identity``) and ``name_unsigned``
  decides it;
- ``sum`` of the parts T_1 .. T_n: ``E : subject = T_1 + ... + T_n`` (``sb_identity``), ``name_part_i``
  decides T_i with the claim's strictness, and ``lra`` adds them.

Provenance: derived (a translation of the kernel's decisions; the identities and signs are proved by Coq).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from theory.prover.kernel import signs
from theory.prover.kernel.trees import Malformed
from theory.prover.kernel.verify import Box, Variable
from theory.prover.kernel.verify import decide as kernel_decide

if TYPE_CHECKING:
    from theory.prover.coq.export import _Writer as Writer

ENCLOSURE = {"method": "enclosure"}
"""The decision of a sign the kernel shows by its enclosure on the box."""


def scale(writer: Writer, name: str, decision: dict[str, Any], box: Box, strict: bool, form: Any) -> str:
    """gap * m = f with m > 0 on the box, then f decided: the gap has f's sign (see the module)."""
    multiplier, scaled = decision.get("by"), decision.get("form")
    positive = writer.lemma(f"{name}_by", ENCLOSURE, box, True, multiplier)
    nested = writer.lemma(f"{name}_scaled", decision.get("then"), box, strict, scaled)
    m = writer.subject(multiplier)
    rule = "sb_scale_strict" if strict else "sb_scale"
    return (
        f"assert (M : 0 < {m}) by ({_apply(writer, positive)});\n  "
        f"{writer.identity(form, scaled, box, times=multiplier, prelude=SIMPLIFY_M)};\n  "
        f"apply ({rule} ({writer.subject(form)}) {m} {writer.subject(scaled)});\n"
        f"  [ exact M | exact E | {_apply(writer, nested)} ]"
    )


SIMPLIFY_M = "rewrite ?Rmult_1_l, ?Rmult_1_r, ?Rplus_0_l, ?Rplus_0_r in M; "
"""m > 0 with 1 x, x + 0, ... simplified (the kernel's normal-form trees carry them), so that lra reads it
as the identity's denominator nonzero."""


def unsigned(writer: Writer, name: str, decision: dict[str, Any], box: Box, strict: bool, form: Any) -> str:
    """Each |u| of a signed u written u or -1 u (see the module), then the form decided."""
    subject = writer.tree if form is None else form
    found: list[tuple[Any, int]] = []
    resolved = signs.resolved(subject, _recording(box, writer.domain, found))
    facts, rewrites = [], []
    for index, (argument, sign) in enumerate(found, start=1):
        signed = argument if sign == 1 else ["mul", ["num", "-1"], argument]
        lemma = writer.lemma(f"{name}_abs_{index}", ENCLOSURE, box, False, signed)
        facts.append(f"assert (A{index} : 0 <= {writer.subject(signed)}) by ({_apply(writer, lemma)});\n  ")
        rule = "Rabs_pos_eq" if sign == 1 else "sb_abs_neg"
        rewrites.append(f"try rewrite ({rule} _ A{index}); ")
    nested = writer.lemma(f"{name}_unsigned", decision.get("then"), box, strict, resolved)
    identity = writer.identity(form, resolved, box, prelude="".join(rewrites))
    return "".join(facts) + f"{identity};\n  rewrite E; {_apply(writer, nested)}"


def _recording(
    box: Box, domain: dict[str, Variable], found: list[tuple[Any, int]]
) -> Callable[[Any], int | None]:
    """The kernel's rule for the sign of an abs argument (its enclosure on the box >= 0, else <= 0), each
    answer recorded in ``found`` in the order asked (innermost first)."""

    def sign(argument: Any) -> int | None:
        for value, tree in ((1, argument), (-1, ["mul", ["num", "-1"], argument])):
            if kernel_decide(ENCLOSURE, tree, box, domain, False) is None:
                found.append((argument, value))
                return value
        return None

    return sign


def sum_(writer: Writer, name: str, decision: dict[str, Any], box: Box, strict: bool, form: Any) -> str:
    """subject = T_1 + ... + T_n, each T_i decided (see the module)."""
    parts = decision.get("parts")
    if not (isinstance(parts, list) and parts and all(isinstance(part, dict) for part in parts)):
        raise Malformed("a sum decision needs a non-empty list of parts {form, then}")
    forms = [part.get("form") for part in parts]
    relation = "<" if strict else "<="
    facts = []
    for index, (part, record) in enumerate(zip(forms, parts, strict=True), start=1):
        lemma = writer.lemma(f"{name}_part_{index}", record.get("then"), box, strict, part)
        claim = f"0 {relation} {writer.subject(part)}"
        facts.append(f"assert (P{index} : {claim}) by ({_apply(writer, lemma)});\n  ")
    return "".join(facts) + f"{writer.identity(form, ['add', *forms], box)};\n  rewrite E; lra"


def _apply(writer: Writer, lemma: str) -> str:
    """The tactic using a lemma of the box at the point of the goal (its variables given: a form may not
    mention them all), its premises by lra."""
    return f"apply ({lemma} {' '.join(writer.names)}); lra"


Step = Callable[["Writer", str, dict[str, Any], Box, bool, Any], str]
STEPS: dict[str, Step] = {"scale": scale, "unsigned": unsigned, "sum": sum_}
"""The kernel's steps with a Coq proof here, by method."""
