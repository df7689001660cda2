"""Claim 4b: at p = 2 Theorem 4.1 is of order 1/eps and does not reduce to the Frobenius/Maurey bound.

At p = 2 (S = ||W||_F^2) the restated Theorem 4.1 is Lambda (24 sqrt 3 N^{3/2} ||W||_F s/eps + 3 N); the
Frobenius/Maurey bound (Maurey alone on the Frobenius ball) is 144 N ||W||_F^2 (s/eps)^2 times a log.
The eps exponents (-1 and -2, computed by sympy) differ, so neither is the other, and which one is
smaller depends on eps. See :mod:`paper_checks.claims.c04_interpolation_endpoints` for the split.
"""

from __future__ import annotations

from collections.abc import Sequence

from paper_checks.claims.c04_interpolation_endpoints import decide
from paper_checks.registry import Claim, ClaimResult
from theory.lemma import Lemma

ID = "4b"
TITLE = (
    "At p = 2 Theorem 4.1 is of order 1/eps, so it does not reduce to the Frobenius/Maurey bound (1/eps^2)"
)
CHECKS = ("p_equals_2_is_not_frobenius_maurey",)


def check(lemma: Lemma | None = None, checks: Sequence[str] = CHECKS) -> ClaimResult:
    """Decide claim 4b from the named self-checks of ``lemma`` (default: theory's Theorem 4.1 lemma)."""
    return decide(ID, TITLE, checks, lemma)


CLAIM = Claim(ID, TITLE, lambda context: check())
