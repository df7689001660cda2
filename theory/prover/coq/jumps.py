"""The kernel's ``jump`` step (:mod:`theory.prover.kernel.jumps`) as a Coq proof.

On the box, v is compared with each breakpoint s_0 < ... < s_n in turn (``Rtotal_order``): below s_j
(and above s_j-1) is the open piece between them, equal to s_j is the point piece. In each piece the
printed floor (ceiling) of the affine argument u is rewritten to its value k there (``sb_floor_between``:
k <= u < k + 1, ``sb_ceil_between``: k - 1 < u <= k, both by lra from the case's bounds on v), and the
piece's lemma (the gap with that value, on the piece's closed range) concludes. A point the kernel left
without a decision is an open end of the domain: the box's strict premise excludes it (lra). The piece
lemmas are stated over the pieces' domains as the kernel decided them: an open piece with its ends open
(strict premises, from the case's strict bounds by lra), so a strict claim touching 0 at a jump (1 - x > 0
on (0, 1)) is the lemma the kernel decided; where its proof fails, coqc refuses it and the box is a named
hypothesis, never accepted wrongly. Provenance: derived (a translation of the kernel's step; each
rewrite proved by Coq).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from theory.prover.coq.steps import ENCLOSURE, Writer, on_domain
from theory.prover.coq.terms import Untranslatable, rational, rounding, variable
from theory.prover.kernel import cases, jumps
from theory.prover.kernel import polynomial as kernel_polynomial
from theory.prover.kernel.trees import Malformed
from theory.prover.kernel.verify import Box

BETWEEN = {"floor": "sb_floor_between", "ceiling": "sb_ceil_between"}


def _rewritten(index: int, printed: str, argument: str, op: str, value: int, use: str) -> str:
    """The printed floor (ceiling) rewritten to its value on the piece, then the piece's lemma."""
    return (
        f"assert (F{index} : {printed} = {rational(Fraction(value))}) by "
        f"(rewrite ({BETWEEN[op]} {argument} ({value})%Z) by lra; reflexivity);\n    "
        f"rewrite F{index}; {use}"
    )


def jump(writer: Writer, name: str, decision: dict[str, Any], box: Box, strict: bool, form: Any) -> str:
    """The ``jump`` step (see the module)."""
    v = decision.get("variable")
    tree = writer.tree if form is None else form
    if not isinstance(v, str) or v not in box:
        raise Malformed("a jump decision needs a variable of the box")
    found = jumps.pieces(tree, box, writer.domain, v)
    decisions = decision.get("pieces")
    if isinstance(found, str) or not isinstance(decisions, list) or len(decisions) != len(found):
        raise Malformed(f"a jump decision that the kernel does not read here: {found}")
    node = cases.first(tree, jumps.ROUNDINGS)
    if node is None:
        raise Malformed("a jump decision needs a floor or ceiling in the gap")
    offset, slope = kernel_polynomial.coefficients(node[1], box, v) or [Fraction(0), Fraction(1)]
    argument = writer.subject(node[1])
    printed = rounding(node[0], argument)
    breakpoints = jumps.breakpoints(slope, offset, Fraction(box[v][0]), Fraction(box[v][1])) or []
    values, tactics = [], []
    for index, (piece, then) in enumerate(zip(found, decisions, strict=True)):
        at = (
            breakpoints[index // 2]
            if index % 2 == 0
            else (breakpoints[index // 2] + breakpoints[index // 2 + 1]) / 2
        )
        value = jumps.rounded(node[0], slope * at + offset)
        values.append(value)
        if piece is None or then is None:
            tactics.append(None if piece is not None else "lra")  # lra: an open end, a strict premise
            continue
        with on_domain(writer, piece[2]):
            lemma = writer.lemma(f"{name}_piece_{index}", then, piece[1], strict, piece[0])
        tactics.append(_rewritten(index, printed, argument, node[0], value, writer.use(lemma)))
    for index, tactic in enumerate(tactics):
        if tactic is not None:
            continue
        # a point the kernel saw as an open end of a piece: the neighbouring open piece's value holds there
        neighbours = [k for k in (index - 1, index + 1) if 0 <= k < len(tactics) and tactics[k] is not None]
        same = [k for k in neighbours if values[k] == values[index] and k % 2 == 1]
        if same:
            tactics[index] = tactics[same[0]]
            continue
        # a jump at an end of this range that the kernel decided in the enclosing step: this lemma's
        # closed range holds it too, decided here by its enclosure at the point (coqc checks it)
        piece = found[index]
        if piece is None:
            raise Untranslatable("a jump point without a decision has no Coq proof")
        with on_domain(writer, piece[2]):
            lemma = writer.lemma(f"{name}_piece_{index}", ENCLOSURE, piece[1], strict, piece[0])
        tactics[index] = _rewritten(index, printed, argument, node[0], values[index], writer.use(lemma))
    coq = variable(v)

    def chain(j: int) -> str:
        below = "lra" if j == 0 else tactics[2 * j - 1]
        above = "lra" if j == len(breakpoints) - 1 else chain(j + 1)
        return (
            f"destruct (Rtotal_order {coq} {rational(Fraction(breakpoints[j]))}) as [C{j}|[C{j}|C{j}]];\n  "
            f"[ {below}\n  | {tactics[2 * j]}\n  | {above} ]"
        )

    return "try unfold gap; " + chain(0)
