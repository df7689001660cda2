"""Claim 8b: with geometrically growing alpha (alpha_l = ell^{L-1-l}), the post hoc bounds of ours grow
like L in both aggregations (the l1 proxy and the l2 assembled bound), and exponentially, with rate
p/(p+2) ln ell per layer, at any fixed p > 0.

Derived by theory.regimes: at p = 0 the summand sqrt(N rank) does not see alpha, so the l1 proxy is a
sum of L constants; the l2 bound is sqrt(Lambda Sigma) with Sigma ~ L and Lambda ~ ln(max sensitivity) ~
L ln ell, hence ~ L (not sqrt(L): the log factor is linear in depth here). Provenance: derived.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import sympy as sp

from paper_checks.claims._depth import law_text
from paper_checks.registry import Claim, ClaimResult, Verdict

if TYPE_CHECKING:
    from paper_checks.context import RunContext
    from theory.regimes import DepthLaw

ID = "8b"
TITLE = (
    "With geometric alpha the post hoc bounds of ours grow like L (l1 and l2), and exponentially, at "
    "rate p/(p+2) ln ell per layer, at any fixed p > 0"
)


def check(laws: tuple[DepthLaw, ...] | None = None) -> ClaimResult:
    """Decide 8b from the geometric-alpha laws of ``ours_l1`` and ``ours_l2``."""
    from theory.regimes import depth_law, p, rho

    laws = laws or tuple(depth_law(b, "geometric_alpha") for b in ("ours_l1", "ours_l2"))
    problems = []
    for law in laws:
        if not (law.posthoc.rate == 0 and law.posthoc.power == 1):
            problems.append(f"{law.bound} post hoc is {law_text(law.posthoc)}, not L")
        if sp.simplify(law.positive_p.rate - rho * p / (p + 2)) != 0:
            problems.append(f"{law.bound} at fixed p is {law_text(law.positive_p)}")
    shown = "; ".join(
        f"{law.bound}: post hoc {law_text(law.posthoc)}, fixed p {law_text(law.positive_p)}" for law in laws
    )
    return ClaimResult(
        ID,
        TITLE,
        Verdict.REFUTED if problems else Verdict.VERIFIED,
        "derived (theory.regimes growth laws, geometric alpha)",
        shown + (f". Disagreement: {'; '.join(problems)}" if problems else ""),
        {"laws": {law.bound: law_text(law.posthoc) for law in laws}, "problems": problems},
    )


def _run(context: RunContext) -> ClaimResult:
    return check()


CLAIM = Claim(ID, TITLE, _run)
