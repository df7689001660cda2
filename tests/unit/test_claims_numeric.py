"""Claims 5, 6, 10, 11 and 12 on inputs fed directly: verified on good data, refuted or open on
counterexamples (no real checkpoint needed; those run in tests/slow/test_check_cli.py)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import sympy as sp

from numerics.gap import BoundRow, GapMeasurement, RatioTable
from numerics.proxies import proxies
from numerics.weights import LayerWeights, TransformerWeights
from paper_checks.claims import (
    c05_separability,
    c06_grid_rounding,
    c10_real_spectra,
    c11_proxy_growth,
    c12_bound_dominates_gap,
)
from paper_checks.registry import Verdict
from paper_checks.scaling import ScalingPoint, fit_all
from theory.lemma import Check, Lemma
from theory.provenance import Provenance, Tagged

TAG = Tagged(Provenance.DERIVED, "test")
PASSING = Lemma(11, "fake", "fake", (sp.Integer(0),), (), TAG, (Check("ok", "", lambda: (True, "0")),))


# --- claim 5 ---------------------------------------------------------------------------------------------
TABLE = [[mpmath.mpf(v) for v in row] for row in ([5, 3, 4], [2, 6, 1], [7, 7, 0.5])]


def test_claim_5_separable_sum_is_verified():
    result = c05_separability.check(TABLE, lemma=PASSING)
    assert result.verdict is Verdict.VERIFIED
    assert float(result.details["joint_min"]) == pytest.approx(3 + 1 + 0.5)


def test_claim_5_coupled_objective_is_refuted():
    def coupled(table, choice):  # penalises different p's: not a sum of per-matrix terms
        return c05_separability.summed(table, choice) + 10 * len(set(choice)) - 10

    result = c05_separability.check(TABLE, objective=coupled, lemma=PASSING)
    assert result.verdict is Verdict.REFUTED
    assert float(result.details["joint_min"]) > float(result.details["sum_of_minima"])


# --- claim 6 ---------------------------------------------------------------------------------------------
def case(ratio: float) -> c06_grid_rounding.RoundingCase:
    # bound max(1, sqrt(N) s sigma_1)^(1/(2m)) = (sqrt(100) * 2 * 5)^(1/4) = 100^(1/4) ~ 3.162
    return c06_grid_rounding.RoundingCase("M", mpmath.mpf(ratio), 100, mpmath.mpf(2), 5.0, 2)


def test_claim_6_ratio_below_the_lemma_factor_is_verified():
    result = c06_grid_rounding.check([case(1.0), case(3.1)])
    assert result.verdict is Verdict.VERIFIED
    assert float(result.details["largest_bound"]) == pytest.approx(100**0.25)


def test_claim_6_ratio_above_the_lemma_factor_is_refuted():
    result = c06_grid_rounding.check([case(1.0), case(3.2)])
    assert result.verdict is Verdict.REFUTED and result.details["violations"] == ["M"]


# --- claims 8 and 11: synthetic scaling studies ---------------------------------------------------------
def study(ours_exponent: float, edelman_rate: float, width_ours: float = 0.5, width_edelman: float = 1.5):
    points = []
    for family in ("a prefixes", "b prefixes"):
        for depth in (1, 2, 3, 4):
            ours = ours_exponent * math.log(depth) + 0.01 * (depth % 2)
            edelman = edelman_rate * depth + 0.01 * (depth % 3)
            points.append(ScalingPoint(f"{family}{depth}", "truncated", family, depth, 384, ours, edelman))
    for depth in (1, 2):
        for width in (8, 16, 32):
            ours = ours_exponent * math.log(depth) + width_ours * math.log(width) + 0.01 * (width % 3)
            edelman = edelman_rate * depth + width_edelman * math.log(width) + 0.01 * (width % 5)
            points.append(ScalingPoint(f"s{depth}-{width}", "synthetic", "grid", depth, width, ours, edelman))
    return fit_all(points)


def test_claim_11_slower_everywhere_is_verified():
    result = c11_proxy_growth.check(study(1.0, 3.0), depth_prediction="slower")
    assert result.verdict is Verdict.VERIFIED, result.evidence
    assert {c["outcome"] for c in result.details["comparisons"]} == {"slower"}


def test_claim_11_faster_width_growth_is_refuted():
    faster_in_width = study(1.0, 3.0, width_ours=2.0, width_edelman=0.5)
    result = c11_proxy_growth.check(faster_in_width, depth_prediction="slower")
    assert result.verdict is Verdict.REFUTED
    assert any(c["axis"] == "N" and c["outcome"] == "faster" for c in result.details["comparisons"])


def test_claim_11_is_open_when_the_measurement_contradicts_the_theory_table():
    result = c11_proxy_growth.check(study(1.0, 3.0), depth_prediction="faster")
    assert result.verdict is Verdict.OPEN and "but the measured" in result.evidence


# --- claim 10: proxy reports of tiny models --------------------------------------------------------------
def tiny_weights(ffn_rank: int | None = None, scale: float = 1.0) -> TransformerWeights:
    rng = np.random.default_rng(0)
    n, f = 8, 32
    w_in = rng.standard_normal((f, n)) * scale
    if ffn_rank is not None:
        w_in = rng.standard_normal((f, ffn_rank)) @ rng.standard_normal((ffn_rank, n))
    layer = LayerWeights(
        *(rng.standard_normal((n, n)) * scale for _ in range(4)), w_in, rng.standard_normal((n, f)) * scale
    )
    return TransformerWeights((layer, layer), n, 2, f, "tiny")


def test_claim_10_verified_on_a_full_rank_model_with_large_scales():
    # N = 8, d_h = 4: a Gaussian 32 x 8 matrix keeps about 0.3 of its Frobenius mass beyond index 4
    result = c10_real_spectra.check([proxies(tiny_weights(scale=3.0))], tail_share_floor=0.2)
    assert result.verdict is Verdict.VERIFIED, result.evidence


def test_claim_10_refuted_when_the_feed_forward_decay_is_too_fast_for_the_floor():
    result = c10_real_spectra.check([proxies(tiny_weights(scale=3.0))], tail_share_floor=0.5)
    assert result.verdict is Verdict.REFUTED
    assert any("tail share" in f for f in result.details["failures"])


def test_claim_10_refuted_when_a_feed_forward_matrix_is_rank_deficient():
    result = c10_real_spectra.check([proxies(tiny_weights(ffn_rank=3))])
    assert result.verdict is Verdict.REFUTED
    assert any("not full rank" in f for f in result.details["failures"])


def test_claim_10_refuted_when_p_0_is_not_the_majority():
    result = c10_real_spectra.check([proxies(tiny_weights(scale=3.0))], tail_share_floor=0.2, majority=1.0)
    assert result.verdict is Verdict.REFUTED
    assert any("p_opt = 0 for only" in f for f in result.details["failures"])


# --- claim 12 --------------------------------------------------------------------------------------------
def row(label: str, bound: float) -> BoundRow:
    gap = GapMeasurement(256, 20000, 0.25, 0.05, 0.0, 0.2, 0.05, 0.3, 0.0105)
    return BoundRow(label, 1, 8, 1, 8, "noisy", gap, 0.05, bound, 50.0, 10.0, 100.0, 1.0)


def test_claim_12_verified_when_every_bound_dominates():
    table = RatioTable((row("a", 5.0), row("b", 0.5)), 0.25, 0.05, 20000, 0.05)
    result = c12_bound_dominates_gap.check(table)
    assert result.verdict is Verdict.VERIFIED and "2/2 models" in result.evidence


def test_claim_12_refuted_when_a_bound_is_below_the_gap():
    table = RatioTable((row("a", 5.0), row("b", 0.1)), 0.25, 0.05, 20000, 0.05)
    result = c12_bound_dominates_gap.check(table)
    assert result.verdict is Verdict.REFUTED and result.details["not_dominated"] == ["b"]


def summary(full_rank: str = "yes", certainly: int = 10, possibly: int = 0) -> dict[str, object]:
    """A record shaped like numerics.certify.report.model_summary."""
    return {
        "source": "tiny (test)",
        "attention_rank_at_most_head_dim": "yes",
        "feed_forward_full_rank": full_rank,
        "p0_optimal": {
            "certainly": certainly,
            "possibly": possibly,
            "not": 12 - certainly - possibly,
            "of": 12,
        },
    }


def test_claim_10_certified_facts_that_hold_keep_the_verdict():
    report = proxies(tiny_weights(scale=3.0))
    result = c10_real_spectra.check([report], tail_share_floor=0.2, certified=[summary()])
    assert result.verdict is Verdict.VERIFIED and "certified arb intervals" in result.provenance


def test_claim_10_certified_rank_deficiency_refutes_and_undecided_is_open():
    report = proxies(tiny_weights(scale=3.0))
    refuted = c10_real_spectra.check([report], tail_share_floor=0.2, certified=[summary(full_rank="no")])
    assert refuted.verdict is Verdict.REFUTED
    undecided = c10_real_spectra.check(
        [report], tail_share_floor=0.2, certified=[summary(full_rank="undecided")]
    )
    assert undecided.verdict is Verdict.OPEN and undecided.details["undecided"]
    unsure_p = c10_real_spectra.check(
        [report], tail_share_floor=0.2, certified=[summary(certainly=2, possibly=8)]
    )
    assert unsure_p.verdict is Verdict.OPEN


def test_claim_10_certified_minority_of_p_0_refutes():
    report = proxies(tiny_weights(scale=3.0))
    minority = summary(certainly=2, possibly=0)
    result = c10_real_spectra.check([report], tail_share_floor=0.2, certified=[minority])
    assert result.verdict is Verdict.REFUTED
    assert any("possible for only 2/12" in f for f in result.details["failures"])


def test_claim_11_with_certify_adds_the_interval_decided_comparison(monkeypatch: pytest.MonkeyPatch):
    from paper_checks.context import RunContext
    from paper_checks.scaling import QUICK_GRID, REAL_MODELS

    monkeypatch.setattr(c11_proxy_growth, "theory_depth_prediction", lambda: "slower")
    monkeypatch.setattr(c11_proxy_growth, "theory_width_note", lambda: "width note")
    context = RunContext(certify=True)
    context.memo(("scaling_study", QUICK_GRID), lambda: study(1.0, 3.0))
    for model in REAL_MODELS:
        context.memo(("certified", model), lambda: {"ours_below_edelman": "yes"})
    result = c11_proxy_growth.CLAIM.run(context)
    assert result.verdict is Verdict.VERIFIED
    assert result.details["certified_ours_below_edelman"] == dict.fromkeys(REAL_MODELS, "yes")
    assert "certified B_ours < B_Edelman" in result.evidence
