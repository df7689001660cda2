"""The paper's content in the verifier's forms: what theory.prover and theory.derive decide and check,
kept out of them (they import nothing of the paper; tests/unit/project/test_verifier_boundary.py).

Modules: inequalities (every lemma inequality `specbound theory` decides, as
:class:`theory.prover.lemma_inequalities.LemmaInequality` entries), softmax_every_length (the softmax
Jacobian bound for every length, reduced to one variable by sympy-checked steps), coq_softmax (that
reduction as one Coq file), theorem_3_1 (theorem_3_1.v, the assembled bound's chain in Coq). The paper
reaches the verifier through two hooks: the entries are the prover's generic records, decided by
:func:`theory.prover.lemma_inequalities.decide`; and :func:`facts` is what ``specbound derive`` gives a
derivation to name (``lemma:NAME``, ``piece:NAME``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from theory.derive import Facts

__all__ = ["coq_softmax", "facts", "inequalities", "softmax_every_length", "theorem_3_1"]
"""facts, and the modules other packages use (each imported by its full name)."""


def facts() -> Facts:
    """The paper's facts for :func:`theory.derive.derive`: the lemma inequalities (``lemma:NAME``) and the
    pieces of Theorem 4.1's chain (``piece:NAME``, :func:`theory.interpolation.theorem_chain`)."""
    from theory.derive import Facts
    from theory.interpolation import theorem_chain
    from theory.paper_proofs.inequalities import all_lemma_inequalities

    return Facts(all_lemma_inequalities, theorem_chain, "Theorem 4.1's chain")
