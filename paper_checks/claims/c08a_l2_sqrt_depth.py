"""Claim 8a: with bounded alpha, the l2-aggregated bound (the project's assembled bound) grows like
sqrt(L ln L) in depth (the paper's sqrt(L) up to a log factor: the factor is (ln L)^{1/2}).

Derived by theory.regimes (the growth procedure of theory.growth on GAP_TERM with every L-dependence:
the scale 2 K b gamma alpha / margin, Lambda, K ln(2m+1), the peeling cost): the post hoc law is
L^{1/2} (ln L)^{1/2}, the p = 0 law, since p = 0 is in every grid. At a fixed p > 0 it is
L^{(3p+2)/(2(p+2))} (ln L)^{1/2}, up to L (ln L)^{1/2} at p = 2. Provenance: derived, under the
reconstructed assembled bound and the regimes' assumptions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import sympy as sp

from paper_checks.claims._depth import law_text
from paper_checks.registry import Claim, ClaimResult, Verdict

if TYPE_CHECKING:
    from paper_checks.context import RunContext
    from theory.regimes import DepthLaw

ID = "8a"
TITLE = "With bounded alpha the l2-aggregated (assembled) bound grows like sqrt(L ln L) in depth L"


def check(law: DepthLaw | None = None) -> ClaimResult:
    """Decide 8a from the post hoc law of ``ours_l2`` under bounded alpha (theory.regimes by default)."""
    from theory.growth import GrowthUndecided
    from theory.regimes import depth_law

    try:
        law = law or depth_law("ours_l2", "bounded_alpha")
    except GrowthUndecided as error:
        return ClaimResult(ID, TITLE, Verdict.OPEN, "derived: undecided", f"growth undecided: {error}")
    posthoc = law.posthoc
    half = sp.Rational(1, 2)
    holds = posthoc.rate == 0 and posthoc.power == half and posthoc.log_power == half
    evidence = (
        f"post hoc law {law_text(posthoc)} (the p = 0 law); at fixed p in (0, 2]: {law_text(law.positive_p)}"
    )
    return ClaimResult(
        ID,
        TITLE,
        Verdict.VERIFIED if holds else Verdict.REFUTED,
        "derived (theory.regimes growth law of the reconstructed assembled bound, bounded alpha)",
        evidence,
        {"posthoc": law_text(posthoc), "fixed_p": law_text(law.positive_p), "p0": law_text(law.at_zero)},
    )


def _run(context: RunContext) -> ClaimResult:
    return check()


CLAIM = Claim(ID, TITLE, _run)
