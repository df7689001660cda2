"""Claim 8: depth dependence: sqrt(L) for ours (in which regime and aggregation?) versus L^{3/2} for
Edelman (bounded factors), and exponential growth of B_Edelman when alpha grows geometrically.

Theory: the depth-exponent table of :mod:`theory.regimes` (sympy limits under stated assumptions) and
its lemma's self-checks settle where each growth comes from: sqrt(L) only for ours with l2 aggregation
(the assembled bound's shape) in the rank and flat regimes; the l1 proxy is L^1 at p = 0 whatever alpha
does; Edelman is L^{3/2} with bounded alpha and exp(L log ell) with geometric alpha.

Numbers (same source as ``specbound bound``: :func:`numerics.proxies.proxies` through the scaling
study): on the depth series of real weights (prefixes of minilm-l3/l6) and the synthetic grid, the
fitted log-log exponent of B_ours must match the table's entry for the regime the weights are in
(rank: p_opt = 0 for almost all matrices) within ``tolerance``; and the fitted exponential rate of
B_Edelman over the real prefixes must match the table's rate (rate per log ell) times the measured mean
log per-layer factor log ell = ln(alpha_0) / (L - 1) of minilm-l6, within ``rate_tolerance`` (relative).
Provenance: derived, under the reconstructed Section 5 (assumptions in theory.regimes), measured on
exact proxies.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import mpmath

from paper_checks.claims._lemmas import check_records, one_line, verdict_of
from paper_checks.registry import Claim, ClaimResult, Verdict
from paper_checks.scaling import ScalingStudy, study_for_context
from theory.lemma import Lemma

if TYPE_CHECKING:
    from paper_checks.context import RunContext

ID = "8"
TITLE = "Depth: sqrt(L) for ours (which regime?) vs L^(3/2) for Edelman; exponential when alpha is geometric"

RATE_MODEL = "minilm-l6"


@dataclass(frozen=True)
class TablePrediction:
    """What theory's depth table predicts for the regime the measured weights are in."""

    regime: str
    ours_depth_exponent: float
    edelman_rate_per_log_ell: float
    sqrt_l_cells: tuple[str, ...]


def predict(regime: str = "rank") -> TablePrediction:
    """Read the prediction off theory.regimes (ours l1 proxy and Edelman proxy, geometric alpha)."""
    from theory import regimes

    ours = regimes.row(regime, "ours_l1", "geometric_alpha")
    edelman = regimes.row(regime, "edelman_proxy", "geometric_alpha")
    if ours.depth_exponent is None or edelman.depth_rate_per_log_ell is None:
        raise ValueError(f"theory.regimes: unexpected depth kinds for the {regime} regime: {ours}, {edelman}")
    return TablePrediction(
        regime,
        float(ours.depth_exponent),
        float(edelman.depth_rate_per_log_ell),
        tuple(regimes.settlement()["sqrt_L"]),
    )


def mean_log_layer_factor(context: RunContext, model: str = RATE_MODEL) -> float:
    """ln(alpha_0) / (L - 1): the mean log per-layer Lipschitz factor of ``model`` (numerics.proxies)."""
    report = context.report(model)
    return float(mpmath.log(report.alphas[0])) / (report.num_layers - 1)


def check(
    study: ScalingStudy,
    log_layer_factor: float,
    prediction: TablePrediction | None = None,
    lemma: Lemma | None = None,
    tolerance: float = 0.15,
    rate_tolerance: float = 0.25,
) -> ClaimResult:
    """Decide claim 8 from the table, its lemma's checks and the measured depth growth."""
    if lemma is None:
        from theory.regimes import lemma as regimes_lemma

        lemma = regimes_lemma()
    prediction = prediction or predict()
    records = check_records([lemma])
    symbolic = verdict_of(records)
    measured = {origin: study.exponent("ours", "L", (origin,)) for origin in ("truncated", "synthetic")}
    rate = study.rate("edelman", "L", ("truncated",))
    expected_rate = prediction.edelman_rate_per_log_ell * log_layer_factor
    problems = []
    for origin, fit in measured.items():
        if fit is not None and abs(fit.value - prediction.ours_depth_exponent) > tolerance:
            expected = prediction.ours_depth_exponent
            problems.append(f"B_ours on {origin} grows like L^{fit.value:.2f}, the table says L^{expected:g}")
    if rate is not None and abs(rate.value - expected_rate) > rate_tolerance * abs(expected_rate):
        problems.append(f"B_Edelman rate {rate.value:.2f}/layer vs predicted {expected_rate:.2f}/layer")
    if not prediction.sqrt_l_cells:
        problems.append("the table has no regime with sqrt(L) depth growth")
    if all(fit is None for fit in measured.values()) or rate is None:
        verdict = Verdict.OPEN
    elif problems:
        verdict = Verdict.REFUTED
    else:
        verdict = symbolic
    shown = ", ".join(f"{o}: {f}" for o, f in measured.items() if f is not None)
    cells = "; ".join(prediction.sqrt_l_cells) or "no cell"
    measured_rate = f"{rate.value:.2f}" if rate else "n/a"
    evidence = (
        f"sqrt(L) only for {cells} (l2 aggregation); the l1 proxy at "
        f"p=0 is L^{prediction.ours_depth_exponent:g}. Measured B_ours {shown}; B_Edelman rate "
        f"{measured_rate}/layer vs predicted {expected_rate:.2f} "
        f"({prediction.edelman_rate_per_log_ell:g} x mean log layer factor {log_layer_factor:.2f})"
        + (f". Disagreement: {'; '.join(problems)}" if problems else "")
        + f"; theory: {one_line(records)}"
    )
    return ClaimResult(
        ID,
        TITLE,
        verdict,
        "derived (theory.regimes sympy limits, reconstructed Section 5) and measured (exact proxies)",
        evidence,
        {
            "prediction": prediction.__dict__,
            "measured_ours_depth_exponents": {
                o: (f.value, f.stderr) if f else None for o, f in measured.items()
            },
            "measured_edelman_rate": (rate.value, rate.stderr) if rate else None,
            "predicted_edelman_rate": expected_rate,
            "problems": problems,
            "checks": records,
        },
    )


def _run(context: RunContext) -> ClaimResult:
    return check(study_for_context(context), mean_log_layer_factor(context))


CLAIM = Claim(ID, TITLE, _run)
