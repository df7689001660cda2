"""Claim 4a: as p -> 0+ with S_p = rank r, Theorem 4.1 tends to the rank bound plus one rounding unit.

Claim 4 of the project ("the interpolation bound reduces to the rank bound at p = 0 and to the
Frobenius/Maurey bound at p = 2") is split into three precise sub-claims, because one verdict would
mislead (the p = 2 half is false as stated):

- 4a (this module): lim_{p -> 0+} of the restated Theorem 4.1 with S = r is 3 N (r + 1) Lambda, the rank
  bound 3 N r Lambda (k = r, no tail) plus 3 N Lambda from rounding k up;
- 4b (``c04b_interpolation_p2``): at p = 2 Theorem 4.1 is of order 1/eps while the Frobenius/Maurey bound
  is of order 1/eps^2, so it does not reduce to it;
- 4c (``c04c_sharp_tail``): the sharper tail ||R_k||_F^2 <= sigma_{k+1}^{2-p} S_p holds exactly when
  p <= 2, and at p = 2 its k = 0 member is the Frobenius/Maurey bound.

Evidence: the named self-checks of :func:`theory.interpolation.lemma` (sympy limits, exponents and sign
decisions). Provenance: derived (sympy), under the reconstructed Theorem 4.1.
"""

from __future__ import annotations

from collections.abc import Sequence

from paper_checks.claims._lemmas import check_records, one_line, verdict_of
from paper_checks.registry import Claim, ClaimResult
from theory.lemma import Lemma

ID = "4a"
TITLE = (
    "As p -> 0+ with S_p = rank r, Theorem 4.1 tends to 3 N (r + 1) Lambda: the rank bound plus 3 N Lambda"
)

CHECKS = ("limit_p_to_0_is_rank_bound",)
"""The self-checks of theory.interpolation.lemma() that decide this claim."""


def decide(claim_id: str, title: str, checks: Sequence[str], lemma: Lemma | None = None) -> ClaimResult:
    """A claim decided by the named self-checks of ``lemma`` (default: theory's Theorem 4.1 lemma)."""
    if lemma is None:
        from theory.interpolation import lemma as interpolation_lemma

        lemma = interpolation_lemma()
    records = check_records([lemma], checks)
    return ClaimResult(
        claim_id,
        title,
        verdict_of(records, expected=len(checks)),
        f"derived (sympy), under reconstructed Theorem 4.1 ('{lemma.name}', {lemma.tag.provenance.value})",
        one_line(records) or f"lemma {lemma.name} has none of the checks {list(checks)}",
        {"checks": records, "notes": lemma.notes},
    )


def check(lemma: Lemma | None = None, checks: Sequence[str] = CHECKS) -> ClaimResult:
    """Decide claim 4a from the named self-checks of ``lemma``."""
    return decide(ID, TITLE, checks, lemma)


CLAIM = Claim(ID, TITLE, lambda context: check())
