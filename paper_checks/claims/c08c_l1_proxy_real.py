"""Claim 8c: the authors' l1 proxy B_ours grows like L in depth on real weights (measured).

Prediction: theory.regimes' post hoc law of the l1 proxy (L^1: p = 0 is available and C_0 = sqrt(N rank)
does not see alpha). Measurement (the numbers ``specbound bound`` prints, numerics.bounds.proxies through the
scaling study): the fitted log-log exponent of B_ours over the layer prefixes of the real checkpoints
(minilm-l3, minilm-l6) and over the synthetic grid, each within ``tolerance`` of the law.
Provenance: measured on exact proxies; prediction derived.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from paper_checks.claims._depth import law_text
from paper_checks.registry import Claim, ClaimResult, Verdict
from paper_checks.scaling import ScalingStudy, study_for_context

if TYPE_CHECKING:
    from paper_checks.context import RunContext

ID = "8c"
TITLE = "The authors' l1 proxy B_ours grows like L in depth on real weights"
ORIGINS = ("truncated", "synthetic")


def check(study: ScalingStudy, predicted: float | None = None, tolerance: float = 0.15) -> ClaimResult:
    """Decide 8c: the measured exponents against ``predicted`` (theory.regimes' l1 post hoc law)."""
    from theory.regimes import depth_law

    law = depth_law("ours_l1", "geometric_alpha").posthoc
    predicted = float(law.power) if predicted is None else predicted
    fits = {origin: study.exponent("ours", "L", (origin,)) for origin in ORIGINS}
    measured = {origin: fit for origin, fit in fits.items() if fit is not None}
    problems = [
        f"B_ours on {origin} grows like L^{fit.value:.2f}, the law says L^{predicted:g}"
        for origin, fit in measured.items()
        if abs(fit.value - predicted) > tolerance
    ]
    if "truncated" not in measured:
        verdict = Verdict.OPEN
    else:
        verdict = Verdict.REFUTED if problems else Verdict.VERIFIED
    shown = "; ".join(f"{origin}: {fit}" for origin, fit in measured.items()) or "no depth series"
    return ClaimResult(
        ID,
        TITLE,
        verdict,
        "measured (exact proxies on real-weight prefixes and synthetic models); prediction derived",
        f"predicted L^{predicted:g} ({law_text(law)}, post hoc); measured {shown}"
        + (f". Disagreement: {'; '.join(problems)}" if problems else "")
        + ("" if "truncated" in measured else ". No real-weight depth series: open"),
        {
            "predicted_exponent": predicted,
            "measured": {o: (f.value, f.stderr) for o, f in measured.items()},
            "problems": problems,
        },
    )


def _run(context: RunContext) -> ClaimResult:
    return check(study_for_context(context))


CLAIM = Claim(ID, TITLE, _run)
