"""Claims 5, 6, 10, 11 and 12 on inputs fed directly: verified on good data, refuted or open on
counterexamples (no real checkpoint needed; those run in tests/slow/test_check_cli.py)."""

from __future__ import annotations

import dataclasses
import itertools
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp

from numerics.bounds.proxies import proxies
from numerics.loading.weights import LayerWeights, ModelShape, TransformerWeights
from numerics.synthetic.gap import BoundRow, GapMeasurement, RatioTable
from paper_checks.claims import (
    _bound_vs_gap,
    _joint_p,
    c05_separability,
    c05b_posthoc_choice_valid,
    c05c_joint_p_assembled,
    c06_grid_rounding,
    c07_lipschitz,
    c10_real_spectra,
    c11_proxy_growth,
    c12_bound_dominates_gap,
    c12b_weight_term_orders_gaps,
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


def test_claim_6_synthetic_rank_one_attains_24_25_of_the_factor_exponent():
    # rank one: C_p = (sqrt(N) s)^{p/(p+2)} sqrt(N), so C(1/m) / C(0+) = (sqrt(N) s)^{1/(2m+1)} (m = 12)
    cases = c06_grid_rounding.synthetic_cases()
    tau = math.sqrt(384) * 1e4
    assert float(cases[0].ratio) == pytest.approx(tau ** (1 / 25), rel=1e-6)
    assert float(cases[2].ratio) > 1  # the power law's continuous optimum lies between grid points
    result = c06_grid_rounding.check(cases)
    assert result.verdict is Verdict.VERIFIED
    assert float(result.details["tightest_exponent_share"]) == pytest.approx(24 / 25, rel=1e-6)


def with_factor_exponent(lemma: Lemma, exponent_of_m) -> Lemma:
    """``lemma`` (the rounding lemma) with its factor's exponent 1/(2m) replaced, and without its
    self-checks: they do not read the statement, and a factor the spectra exceed is refuted whatever they
    say (claim 6's verdict), so the copy does not run them again (the derivative check alone 0.5-1 CPU s)."""
    relation = lemma.statement[0]
    symbols = {str(x): x for x in relation.free_symbols}
    base = sp.Max(1, sp.sqrt(symbols["N"]) * symbols["s"] * symbols["sigma_1"])
    optimum = next(a for a in sp.Mul.make_args(relation.rhs) if isinstance(a, sp.core.function.AppliedUndef))
    changed = sp.Le(relation.lhs, optimum * base ** exponent_of_m(symbols["m"]), evaluate=False)
    return dataclasses.replace(lemma, statement=(changed,), checks=())


def test_claim_6_a_factor_with_exponent_1_over_4m_is_refuted_by_the_synthetic_spectra():
    from theory.posthoc import rounding_lemma

    lemma = with_factor_exponent(rounding_lemma(), lambda m: 1 / (4 * m))
    result = c06_grid_rounding.check(c06_grid_rounding.synthetic_cases(), lemma=lemma)
    assert result.verdict is Verdict.REFUTED and result.details["violations"]
    undecided = dataclasses.replace(rounding_lemma(), checks=UNDECIDED.checks)
    assert c06_grid_rounding.check([case(1.0)], lemma=undecided).verdict is Verdict.OPEN


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


def test_claim_11_evidence_says_what_the_depth_rows_and_the_width_direction_depend_on():
    from paper_checks.claims._depth import CeilingShare

    shares = [
        CeilingShare(f"p{k}", "truncated", "prefixes", k, 384, 10.0 * k * (1.0 if k < 3 else 0.99), 10.0 * k)
        for k in (1, 2, 3)
    ]
    result = c11_proxy_growth.check(study(1.0, 3.0), shares=shares)
    assert "weight-free ceiling" in result.evidence and "on 2/3 real-weight prefixes" in result.evidence
    assert "ours never smaller" in result.evidence and "H = N / d_h" in result.evidence


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
    return TransformerWeights((layer, layer), ModelShape(n, 2, 2, f), "tiny")


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


# --- claims 12a and 12b --------------------------------------------------------------------------------
def row(label: str, bound: float, ramp_gap: float = 0.25) -> BoundRow:
    gap = GapMeasurement(256, 20000, 0.25, 0.05, 0.0, 0.2, 0.05, 0.05 + ramp_gap, 0.0105)
    return BoundRow(label, 1, 8, 1, 8, "noisy", gap, 0.05, bound, 50.0, 10.0, 100.0, 1.0)


def ratio_rows(*rows: BoundRow) -> RatioTable:
    return RatioTable(rows, 0.25, 0.05, 20000, 0.05)


def test_claim_12a_verified_when_a_bound_below_1_dominates():
    result = c12_bound_dominates_gap.check(ratio_rows(row("a", 5.0), row("b", 0.5)))
    assert result.verdict is Verdict.VERIFIED and "2/2 models dominated" in result.evidence
    assert result.details["testable_models"] == ["b"]


def test_claim_12a_refuted_when_a_bound_is_below_the_gap():
    result = c12_bound_dominates_gap.check(ratio_rows(row("a", 5.0), row("b", 0.1)))
    assert result.verdict is Verdict.REFUTED and result.details["not_dominated"] == ["b"]


def test_claim_12a_by_construction_and_says_vacuous_when_every_bound_exceeds_1_plus_h():
    # a 0-1 gap is <= 1, so its upper confidence limit is <= 1.0105: a bound of 1.02 cannot fail
    result = c12_bound_dominates_gap.check(ratio_rows(row("a", 5.0), row("b", 1.02)), [2**30, None], 1788)
    assert result.verdict is Verdict.BY_CONSTRUCTION
    assert (
        "vacuous" in result.evidence and "n >= 1.07e+09" in result.evidence and "n >= 1788" in result.evidence
    )
    assert "no weights at all" not in result.evidence and "peeling cost" in result.evidence


def test_the_size_at_sigma_zero_still_depends_on_the_weights_through_the_peeling_cost():
    from numerics.bounds.assembled import assembled_bound

    bound = dataclasses.replace(
        assembled_bound(proxies(tiny_weights()), n=64, delta=0.05, margin=0.25, T=8), sigma=0
    )
    one_shell_up = dataclasses.replace(bound, peel_cost=bound.peel_cost + math.log(3))
    sizes = [_bound_vs_gap.nonvacuous_sample_size(b, 0.05) for b in (bound, one_shell_up)]
    assert sizes[0] is not None and sizes[1] is not None and sizes[1] > sizes[0]


def test_claim_12b_verdict_follows_the_ordering_of_weight_parts_and_gaps():
    gaps = (0.10, 0.20, 0.30, 0.40, 0.50)
    table = ratio_rows(*(row(f"m{i}", 10.0, g) for i, g in enumerate(gaps)))
    alike = c12b_weight_term_orders_gaps.check(table, [1.0, 2.0, 3.0, 4.0, 5.0])
    assert alike.verdict is Verdict.VERIFIED and alike.details["kendall"]["tau"] == 1.0
    opposite = c12b_weight_term_orders_gaps.check(table, [5.0, 4.0, 3.0, 2.0, 1.0])
    assert opposite.verdict is Verdict.REFUTED and "OPPOSITELY" in opposite.evidence
    mixed = c12b_weight_term_orders_gaps.check(table, [3.0, 1.0, 5.0, 2.0, 4.0])
    assert mixed.verdict is Verdict.OPEN
    # a weight part that does not vary (the weight term removed) orders nothing
    flat = c12b_weight_term_orders_gaps.check(table, [0.0] * 5)
    assert flat.verdict is Verdict.OPEN and flat.details["kendall"]["tau"] == 0.0


def test_claim_12b_says_when_its_weight_part_is_the_parameter_count_from_shapes():
    from numerics.bounds.assembled import assembled_bound
    from tests.helpers.diagonal_models import diagonal_model

    bound = assembled_bound(diagonal_model(1, *(1.0,) * 6), n=500, delta=0.05, margin=0.5, T=4)
    source = c12b_weight_term_orders_gaps.weight_part_source(bound)
    # N = 4, H = 2 (d_h = 2), F = 8: QK_h, Vt_h 3 * 4 * 2 each (4 of them), M_in, M_out 3 * 8 * 4 each,
    # the read-out 3 * 4 * 1, by hand from the shapes
    assert source.shape_sigma == 4 * 3 * 4 * 2 + 2 * 3 * 8 * 4 + 3 * 4 * 1
    assert source.positive_p == sum(r.p != 0 for r in bound.matrices)
    table = ratio_rows(*(row(f"m{i}", 10.0, g) for i, g in enumerate((0.1, 0.2, 0.3))))
    alone = c12b_weight_term_orders_gaps.WeightPartSource(300.0, 300.0, 0)
    spectral = c12b_weight_term_orders_gaps.WeightPartSource(250.0, 300.0, 2)
    result = c12b_weight_term_orders_gaps.check(table, [3.0, 2.0, 1.0], sources=[alone] * 3, scope="n = 64")
    assert (
        "effective parameter count (the bound's Sigma) against the gaps (n = 64), not the spectra"
        in result.evidence
    )
    mixed = c12b_weight_term_orders_gaps.check(table, [3.0, 2.0, 1.0], sources=[alone, alone, spectral])
    assert "on 2/3 models" in mixed.evidence and "2 matrices take p > 0" in mixed.evidence
    assert "not the spectra" not in mixed.evidence


def test_kendall_p_values_equal_a_brute_force_count_over_all_permutations():
    x = [0.3, 1.2, 0.7, 2.5, 1.9, 0.1]
    y = [1.0, 0.4, 2.2, 3.1, 0.9, 0.5]

    def score(a, b):
        return sum(
            np.sign((a[i] - a[j]) * (b[i] - b[j])) for i, j in itertools.combinations(range(len(a)), 2)
        )

    observed = score(x, y)
    scores = [score(x, perm) for perm in itertools.permutations(y)]
    result = _bound_vs_gap.kendall(x, y)
    assert result.tau == pytest.approx(observed / 15)
    assert result.p_concordant == pytest.approx(np.mean([s >= observed for s in scores]))
    assert result.p_discordant == pytest.approx(np.mean([s <= observed for s in scores]))


def test_weight_part_and_nonvacuous_sample_size_on_a_small_model():
    from numerics.bounds.assembled import assembled_bound
    from numerics.synthetic.gap import gap_term_at

    bound = assembled_bound(proxies(tiny_weights()), n=64, delta=0.05, margin=0.25, T=8)
    whole = gap_term_at(bound, 0.05)
    free = _bound_vs_gap.weight_free_part(bound, 0.05)
    assert _bound_vs_gap.weight_part(bound, 0.05) == pytest.approx(whole - free, rel=1e-12)
    assert free >= (8 + 24 * math.sqrt(math.log(2))) / 8  # the weight-independent part at n = 64
    assert _bound_vs_gap.weight_part(dataclasses.replace(bound, sigma=0), 0.05) == 0
    n = _bound_vs_gap.nonvacuous_sample_size(bound, 0.05)
    assert n is not None and n > 64
    assert (
        gap_term_at(dataclasses.replace(bound, n=n), 0.05)
        < 1
        <= gap_term_at(dataclasses.replace(bound, n=n - 1), 0.05)
    )


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
    context.memo("depth_ceiling_shares", list)  # claim 8c's shares only add a note to the evidence
    for model in REAL_MODELS:
        context.memo(("certified", model), lambda: {"ours_below_edelman": "yes"})
    result = c11_proxy_growth.CLAIM.run(context)
    assert result.verdict is Verdict.VERIFIED
    assert result.details["certified_ours_below_edelman"] == dict.fromkeys(REAL_MODELS, "yes")
    assert "certified B_ours < B_Edelman" in result.evidence


# --- claim 7 ---------------------------------------------------------------------------------------------
UNDECIDED = Lemma(
    5, "fake", "fake", (sp.Integer(0),), (), TAG, (Check("u", "", lambda: (False, "undecided: planted")),)
)


def test_claim_7_refuted_when_the_proxy_constant_exceeds_the_stated_1_13():
    # 1.2 dominates sup GELU' = 1.1289 but is not the claimed 1.13: the proxy would evaluate another claim
    result = c07_lipschitz.check(l_phi=sp.Rational(6, 5), samples=200, lemmas=[PASSING])
    assert result.verdict is Verdict.REFUTED
    assert "L_phi <= stated 1.13000: False" in result.evidence


def test_claim_7_verified_at_1_13_and_open_when_a_lemma_check_is_undecided():
    assert c07_lipschitz.check(samples=200, lemmas=[PASSING]).verdict is Verdict.VERIFIED
    assert c07_lipschitz.check(samples=200, lemmas=[UNDECIDED]).verdict is Verdict.OPEN
    # independent reference: sup GELU' = Phi(sqrt 2) + sqrt 2 phi(sqrt 2), in plain mpmath
    with mpmath.workdps(30):
        root = mpmath.sqrt(2)
        sup = mpmath.ncdf(root) + root * mpmath.npdf(root)
    details = c07_lipschitz.check(samples=200, lemmas=[PASSING]).details
    assert details["sup_abs_gelu_derivative"] == pytest.approx(float(sup), rel=1e-15)


# --- claims 5b, 5c: the assembled bound's coupled choice ---------------------------------------------------
def options(*pairs: tuple[float, float]) -> list[_joint_p.Option]:
    return [_joint_p.Option(Fraction(k, 2), mpmath.mpf(t), mpmath.mpf(c)) for k, (t, c) in enumerate(pairs)]


def additive(sigma, peel):  # increasing in both, as GAP_TERM is
    return sigma + peel


def test_joint_minimum_equals_a_brute_force_search_and_sees_the_peeling_cost():
    table = [options((10, 5), (10.5, 0.1), (30, 0)), options((4, 2), (6, 1)), options((1, 9), (2, 3), (7, 0))]
    result = _joint_p.joint_minimum(table, additive)
    brute = min(
        itertools.product(*table),
        key=lambda combo: additive(sum(o.term for o in combo), sum(o.peel for o in combo)),
    )
    assert result.joint_choice == tuple(o.p for o in brute)
    assert result.joint_gap == additive(sum(o.term for o in brute), sum(o.peel for o in brute))
    assert result.separate_choice == (Fraction(0), Fraction(0), Fraction(0))
    assert result.separate_gap == 10 + 4 + 1 + 5 + 2 + 9
    assert result.matrices_that_differ == 2  # the first and the third matrix trade term for peeling cost


def case_5c(table, reproduces: bool = True) -> c05c_joint_p_assembled.JointCase:
    return c05c_joint_p_assembled.JointCase("model", _joint_p.joint_minimum(table, additive), reproduces)


def test_claim_5c_refuted_when_a_cheaper_shell_beats_the_per_matrix_minimum():
    coupled = [options((10, 5), (10.5, 0.1))]  # the term's minimiser pays 4.9 more peeling cost
    result = c05c_joint_p_assembled.check([case_5c(coupled)])
    assert result.verdict is Verdict.REFUTED and result.details["not_jointly_optimal"] == ["model"]


def test_claim_5c_verified_when_separable_enough_and_open_when_the_table_is_unreliable():
    decoupled = [options((10, 5), (20, 0.1)), options((3, 1), (4, 1))]
    alone = c05c_joint_p_assembled.check([case_5c(decoupled)])  # no planted case the test refutes
    assert alone.verdict is Verdict.BY_CONSTRUCTION and "by construction" in alone.evidence
    unreliable = c05c_joint_p_assembled.check([case_5c(decoupled, reproduces=False)])
    assert (
        unreliable.verdict is Verdict.OPEN and "differs from numerics.bounds.assembled" in unreliable.evidence
    )
    assert c05c_joint_p_assembled.check([]).verdict is Verdict.OPEN


def test_per_matrix_minima_are_not_jointly_optimal_in_general_two_matrix_case():
    # issue 29: rank 4 with sigma = 2^-88 at s = 1e15, N = 16, m = 4, beside the 16 x 16 identity
    table = _joint_p.planted_options(_joint_p.COUNTEREXAMPLE, 4, 1)
    result = _joint_p.counterexample()
    setting = dict(_joint_p.COUNTEREXAMPLE_SETTING)
    setting.pop("L")

    def gap(sigma, peel):  # GAP_TERM typed independently: theory.assembled's docstring statement
        n, delta, margin, m, tokens, q, k, n_max = 1000, 0.05, 1, 4, 16, 1, 2, 16
        lam = mpmath.log(2 * n * tokens * n_max * (16 * mpmath.sqrt(n) * k * n_max * q / margin + 3) + 1)
        rademacher = (8 + 24 * mpmath.sqrt(mpmath.log(2)) + 48 * mpmath.sqrt(lam * sigma)) / mpmath.sqrt(n)
        return rademacher + 3 * mpmath.sqrt(
            (mpmath.log(2 / delta) + k * mpmath.log(2 * m + 1) + peel) / (2 * n)
        )

    with mpmath.workdps(30):
        values = {
            tuple(o.p for o in combo): gap(
                mpmath.fsum(o.term for o in combo), mpmath.fsum(o.peel for o in combo)
            )
            for combo in itertools.product(*table)
        }
    best = min(values, key=values.get)
    own = tuple(min(row, key=lambda o: o.term).p for row in table)
    assert len(values) == 81 and result.joint_choice == best and own == result.separate_choice
    assert float(result.joint_gap) == pytest.approx(float(values[best]), rel=1e-20)
    assert float(result.separate_gap) == pytest.approx(float(values[own]), rel=1e-20)
    assert values[best] < values[own] - mpmath.mpf("0.01")  # 208.4879 < 208.5009
    assert own == (Fraction(2), Fraction(0)) and best == (Fraction(1, 2), Fraction(0))


def test_claim_5c_reports_the_counterexample_and_stays_scoped():
    decoupled = [options((10, 5), (20, 0.1)), options((3, 1), (4, 1))]
    result = c05c_joint_p_assembled.check([case_5c(decoupled)], _joint_p.counterexample())
    assert result.verdict is Verdict.VERIFIED and "not a general fact" in result.evidence
    assert result.details["planted_case_refuted"] and "the same test refutes it there" in result.evidence
    assert "joint optimum over the (Sigma, P) front" in result.evidence
    assert result.details["counterexample"]["joint_choice"] == ["1/2", "0"]


def _audited(p_zero_term: float, peel: float = 3.0) -> c05b_posthoc_choice_valid.ModelAudit:
    """A one-matrix model (N_i = 4, exact rank 3) whose p = 0 option pays ``p_zero_term``."""
    from types import SimpleNamespace

    row = SimpleNamespace(
        p=Fraction(0), term=mpmath.mpf(p_zero_term), dimension=4, matrix=SimpleNamespace(label="W")
    )
    bound = SimpleNamespace(matrices=(row,), sigma=mpmath.mpf(p_zero_term), peel_cost=mpmath.mpf(peel))
    table = [[_joint_p.Option(Fraction(0), mpmath.mpf(p_zero_term), mpmath.mpf(3)),
              _joint_p.Option(Fraction(1), mpmath.mpf(10**6), mpmath.mpf(1))]]  # fmt: skip
    return c05b_posthoc_choice_valid.audit(_joint_p.ModelOptions("model", bound, table, (3,)))  # type: ignore[arg-type]


def test_claim_5b_verified_on_the_theory_and_refuted_by_a_p0_term_below_the_exact_rank():
    total, union = c05b_posthoc_choice_valid.peeling_weight_total(), c05b_posthoc_choice_valid.union_term()
    assert total == 1  # 2/(3 (|j|+1)(|j|+2)) summed over Z, by hand: 1/3 + 2 * (2/3) * (1/2)
    good = c05b_posthoc_choice_valid.check(total, union, [(4, 9)], [_audited(3 * 4 * 4)])
    assert good.verdict is Verdict.VERIFIED, good.evidence
    low = c05b_posthoc_choice_valid.check(total, union, [(4, 9)], [_audited(3 * 4 * 3)])  # rank 3, not 2^2
    assert low.verdict is Verdict.REFUTED and "p = 0 term" in low.evidence
    cheap = c05b_posthoc_choice_valid.check(total, union, [(4, 9)], [_audited(48, peel=2.0)])
    assert cheap.verdict is Verdict.REFUTED and "P 2" in cheap.evidence
    heavy = c05b_posthoc_choice_valid.check(sp.Rational(3, 2), union, [(4, 9)], [_audited(48)])
    assert heavy.verdict is Verdict.REFUTED
    assert c05b_posthoc_choice_valid.check(total, union, [(4, 9)], []).verdict is Verdict.OPEN


def test_claim_5a_open_when_the_separability_lemma_is_undecided():
    result = c05_separability.check(TABLE, lemma=UNDECIDED)
    assert result.verdict is Verdict.OPEN


# --- claim 9: a limit sympy cannot decide is open, not refuted ------------------------------------------
def test_claim_9_open_when_sympy_cannot_decide_the_growth_in_t():
    from paper_checks.claims import c09_token_length
    from theory.formula import Formula

    t = sp.Symbol("T", positive=True)
    undecidable = sp.log(t) * sp.gamma(sp.sin(sp.log(t)) + 2)  # T only inside logs; bounded by log T
    result = c09_token_length.check(Formula("undecidable", undecidable, (t,), TAG, ""))
    assert result.verdict is Verdict.OPEN and "could not decide" in result.evidence
    squared = c09_token_length.check(Formula("log squared", sp.log(t) ** 2, (t,), TAG, ""))
    assert squared.verdict is Verdict.REFUTED  # only inside logs, but faster than log T


def test_claim_9_refuted_by_t_outside_a_log_even_when_the_growth_is_logarithmic():
    # log T + T/(T + 1) grows like log T, so only the structural test can see the T outside the log
    from paper_checks.claims import c09_token_length
    from theory.formula import Formula

    t = sp.Symbol("T", positive=True)
    result = c09_token_length.check(Formula("bounded extra", sp.log(t) + t / (t + 1), (t,), TAG, ""))
    assert result.verdict is Verdict.REFUTED and "outside a logarithm" in result.evidence
    assert result.details["limit_bound_over_log_T"] == "1"


def test_claim_11_default_error_bars_keep_a_difference_within_noise_open():
    # the width exponents differ by about 0.02, inside two standard errors of the fits: the default
    # threshold (z = 2) must call this undecided; without error bars (z = 0) it would read as "faster"
    within_noise = study(1.0, 3.0, width_ours=0.51, width_edelman=0.5)
    result = c11_proxy_growth.check(within_noise, depth_prediction="slower")
    assert result.verdict is Verdict.OPEN, result.evidence
    width = [c for c in result.details["comparisons"] if c["axis"] == "N"]
    assert width and all(c["outcome"] == "undecided" for c in width)
    assert c11_proxy_growth.check(within_noise, depth_prediction="slower", z=0.0).verdict is Verdict.REFUTED


def test_claim_11_labels_the_two_real_checkpoints_slope_and_does_not_count_it():
    """Two differently trained checkpoints (depths 3 and 6), B_ours steeper than B_Edelman between them:
    were their slope a depth series the claim would be refuted; it is labelled and not counted."""
    base = study(1.0, 3.0)
    real = [ScalingPoint(f"real{d}", "real", "minilm", d, 384, 5.0 * math.log(d), 0.1 * d) for d in (3, 6)]
    result = c11_proxy_growth.check(fit_all([*base.points, *real]), depth_prediction="slower")
    assert result.verdict is Verdict.VERIFIED, result.evidence
    (row,) = [c for c in result.details["comparisons"] if c["source"] == "real checkpoints"]
    assert row["outcome"] == "not a depth series" and "two differently trained" in result.evidence
