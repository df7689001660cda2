"""Claim 8d: B_Edelman grows like L^{3/2} with bounded alpha and exponentially, at rate ln ell per layer,
with geometric alpha alpha_l = ell^{L-1-l}.

Derived: theory.regimes' laws of the Edelman proxy (L^{3/2}; exp(L ln ell)). Measured independently of
the alphas numerics computes: on encoders built with a KNOWN per-layer factor (paper_checks.claims._depth:
ell = 1 and ell = 11.3 from the design constants), the exact proxy B_Edelman (numerics.bounds.proxies) must
show a log-log depth exponent within ``tolerance`` of 3/2 (ell = 1) and an exponential rate within
``rate_tolerance`` (relative) of the law's rate times ln ell of the design. An error in how numerics
builds alpha (a wrong layer index, a missing factor) moves the measurement, not the prediction.
Provenance: derived (laws) and measured (exact proxy on built models).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from paper_checks.claims._depth import (
    BOUNDED,
    GEOMETRIC,
    KnownAlphaDesign,
    fitted,
    known_alpha_points,
    law_text,
)
from paper_checks.registry import Claim, ClaimResult, Verdict

if TYPE_CHECKING:
    from paper_checks.context import RunContext
    from paper_checks.scaling import ScalingPoint

ID = "8d"
TITLE = "B_Edelman grows like L^(3/2) with bounded alpha and like ell^L with geometric alpha"
BOUNDED_DEPTHS = (4, 8, 16, 32)
GEOMETRIC_DEPTHS = (2, 3, 4, 5, 6)


def check(
    bounded_points: list[ScalingPoint] | None = None,
    geometric_points: list[ScalingPoint] | None = None,
    design: KnownAlphaDesign = GEOMETRIC,
    tolerance: float = 0.1,
    rate_tolerance: float = 0.1,
) -> ClaimResult:
    """Decide 8d: the laws, and the exact proxy on models built with known alpha."""
    from theory.regimes import depth_law, rho

    bounded_law = depth_law("edelman_proxy", "bounded_alpha").posthoc
    geometric_law = depth_law("edelman_proxy", "geometric_alpha").posthoc
    bounded_points = bounded_points or known_alpha_points(BOUNDED, BOUNDED_DEPTHS)
    geometric_points = geometric_points or known_alpha_points(design, GEOMETRIC_DEPTHS)
    exponent = fitted(bounded_points, "edelman", log_size=True)
    rate = fitted(geometric_points, "edelman", log_size=False)
    predicted_exponent = float(bounded_law.power)
    predicted_rate = float(geometric_law.rate / rho) * math.log(design.layer_factor)
    problems = []
    if bounded_law.rate != 0:
        problems.append(f"the bounded-alpha law is {law_text(bounded_law)}")
    if abs(exponent - predicted_exponent) > tolerance:
        problems.append(f"measured L^{exponent:.2f} with ell = 1, law L^{predicted_exponent:g}")
    if abs(rate - predicted_rate) > rate_tolerance * predicted_rate:
        problems.append(f"measured rate {rate:.2f}/layer, predicted {predicted_rate:.2f}/layer")
    evidence = (
        f"laws: {law_text(bounded_law)} (bounded), {law_text(geometric_law)} (geometric); built models: "
        f"ell = 1 gives L^{exponent:.2f}, ell = {design.layer_factor:.3g} gives rate {rate:.2f}/layer vs "
        f"{predicted_rate:.2f} = ln ell (design constants, not measured alphas)"
        + (f". Disagreement: {'; '.join(problems)}" if problems else "")
    )
    return ClaimResult(
        ID,
        TITLE,
        Verdict.REFUTED if problems else Verdict.VERIFIED,
        "derived (theory.regimes laws) and measured (exact B_Edelman on models built with known alpha)",
        evidence,
        {
            "measured_exponent_bounded": exponent,
            "predicted_exponent_bounded": predicted_exponent,
            "measured_rate_geometric": rate,
            "predicted_rate_geometric": predicted_rate,
            "design_layer_factor": design.layer_factor,
            "problems": problems,
        },
    )


def _run(context: RunContext) -> ClaimResult:
    return check()


CLAIM = Claim(ID, TITLE, _run)
