"""Claim 4c: the sharper tail bound holds exactly for p <= 2; at p = 2 it gives the Frobenius/Maurey bound.

||R_k||_F^2 = sum_{i>k} sigma_i^2 <= sigma_{k+1}^{2-p} S_p, term by term sigma_i^2 <= sigma_{k+1}^{2-p}
sigma_i^p for sigma_i <= sigma_{k+1}, which holds iff 2 - p >= 0: this is where p <= 2 is used. At p = 2
the tail objective no longer depends on k, and its k = 0 member is Maurey's bound on the Frobenius ball.
See :mod:`paper_checks.claims.c04_interpolation_endpoints` for the split.
"""

from __future__ import annotations

from collections.abc import Sequence

from paper_checks.claims.c04_interpolation_endpoints import decide
from paper_checks.registry import Claim, ClaimResult
from theory.lemma import Lemma

ID = "4c"
TITLE = (
    "The tail bound ||R_k||_F^2 <= sigma_{k+1}^{2-p} S_p holds exactly for p <= 2; "
    "at p = 2 its k = 0 member is the Frobenius/Maurey bound"
)
CHECKS = ("sharp_tail_needs_p_le_2", "sharp_tail_at_2_is_frobenius_maurey")


def check(lemma: Lemma | None = None, checks: Sequence[str] = CHECKS) -> ClaimResult:
    """Decide claim 4c from the named self-checks of ``lemma`` (default: theory's Theorem 4.1 lemma)."""
    return decide(ID, TITLE, checks, lemma)


CLAIM = Claim(ID, TITLE, lambda context: check())
