"""Claim 4: the interpolation covering bound reduces to the rank bound at p = 0 and to the
Frobenius/Maurey bound at p = 2.

Evidence: the self-checks of theory's derived Theorem 4.1 (:func:`theory.interpolation.lemma`): the
limit p -> 0+ with S_p = rank r gives the rank bound r N, and at p = 2 the balanced value is
2 sqrt(A B), the geometric mean of the parametric head A and the Maurey tail B (Frobenius radius).
Provenance: derived (sympy), under the reconstructed Theorem 4.1.
"""

from __future__ import annotations

from collections.abc import Sequence

from paper_checks.claims._lemmas import check_records, one_line, verdict_of
from paper_checks.registry import Claim, ClaimResult
from theory.lemma import Lemma

ID = "4"
TITLE = "The interpolation covering bound reduces to the rank bound at p = 0 and to Frobenius/Maurey at p = 2"

CHECKS = ("limit_p_to_0_is_rank_bound", "p_equals_2_is_frobenius_maurey")
"""The self-checks of theory.interpolation.lemma() that decide this claim."""


def check(lemma: Lemma | None = None, checks: Sequence[str] = CHECKS) -> ClaimResult:
    """Decide claim 4 from the named self-checks of ``lemma`` (default: theory's derived Theorem 4.1)."""
    if lemma is None:
        from theory.interpolation import lemma as interpolation_lemma

        lemma = interpolation_lemma()
    records = check_records([lemma], checks)
    return ClaimResult(
        ID,
        TITLE,
        verdict_of(records, expected=len(checks)),
        f"derived (sympy), under reconstructed Theorem 4.1 ('{lemma.name}', {lemma.tag.provenance.value})",
        one_line(records) or f"lemma {lemma.name} has none of the checks {list(checks)}",
        {"checks": records, "notes": lemma.notes},
    )


CLAIM = Claim(ID, TITLE, lambda context: check())
