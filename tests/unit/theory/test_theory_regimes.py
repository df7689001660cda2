"""The Section 5 growth laws: derived as functions of p and the aggregation, every L-dependence kept,
the post hoc cap, and the width comparison with Edelman read off plainly."""

from __future__ import annotations

import json
import math

import mpmath
import sympy as sp

from theory import regimes
from theory.growth import Growth, GrowthUndecided, growth

p, L, rho = regimes.p, regimes.L, regimes.rho


def test_one_depth_law_per_aggregation_as_a_function_of_p():
    l1 = regimes.depth_law("ours_l1", "bounded_alpha").positive_p
    l2 = regimes.depth_law("ours_l2", "bounded_alpha").positive_p
    assert sp.simplify(l1.power - 2 * (p + 1) / (p + 2)) == 0 and l1.rate == 0
    assert sp.simplify(l2.power - (3 * p + 2) / (2 * (p + 2))) == 0 and l2.log_power == sp.Rational(1, 2)
    geometric = regimes.depth_law("ours_l1", "geometric_alpha").positive_p
    assert sp.simplify(geometric.rate - rho * p / (p + 2)) == 0


def test_the_table_is_read_off_the_law():
    law = regimes.depth_law("ours_l1", "bounded_alpha")
    for regime in regimes.REGIMES:
        cell = regimes.row(regime, "ours_l1", "bounded_alpha")
        assert cell.depth_growth == law.at(regimes.REGIME_P[regime])
    assert regimes.row("frobenius", "ours_l1", "bounded_alpha").depth_exponent == sp.Rational(3, 2)
    assert regimes.row("power_law", "ours_l1", "bounded_alpha").depth_exponent == sp.Rational(4, 3)


def test_l2_at_p0_under_geometric_alpha_is_linear_because_lambda_grows_like_L():
    # the old table said sqrt(L): it dropped ln(max sensitivity) ~ L ln ell from Lambda
    assert regimes.row("rank", "ours_l2", "geometric_alpha").depth_exponent == 1
    assert regimes.row("rank", "ours_l2", "bounded_alpha").depth_exponent == sp.Rational(1, 2)
    assert regimes.row("rank", "ours_l2", "bounded_alpha").depth_growth.log_power == sp.Rational(1, 2)


def test_geometric_l2_slope_measured_numerically_is_one():
    # an independent check of the procedure: evaluate the bound itself at large L (ell = 2)
    expr = regimes.depth_bound("ours_l2", "geometric_alpha", sp.Integer(0)).subs(rho, sp.log(2))
    f = sp.lambdify(L, expr, "mpmath")
    slope = float(mpmath.log(f(4.0e4)) - mpmath.log(f(2.0e4))) / math.log(2)
    assert 0.97 < slope < 1.03


def test_posthoc_cap_p0_is_always_available():
    for regime in ("frobenius", "power_law"):
        for aggregation, cap in (("ours_l1", 1), ("ours_l2", sp.Rational(1, 2))):
            cell = regimes.row(regime, aggregation, "bounded_alpha")
            assert cell.depth_growth.power > cap and cell.posthoc_depth_growth.power == cap
        geometric = regimes.row(regime, "ours_l1", "geometric_alpha")
        assert geometric.depth == "exponential" and geometric.posthoc_depth_growth == Growth(0, 1, 0)


def test_edelman_l32_and_exponential():
    assert regimes.row("rank", "edelman_proxy", "bounded_alpha").depth_exponent == sp.Rational(3, 2)
    cell = regimes.row("rank", "edelman_proxy", "geometric_alpha")
    assert cell.depth == "exponential" and cell.depth_rate_per_log_ell == 1


def test_width_side_by_side_ours_is_never_smaller():
    expected = {
        "rank": (sp.Rational(1, 2), sp.Rational(1, 2)),
        "frobenius": (sp.Rational(3, 4), sp.Rational(1, 2)),
    }
    expected |= {"flat": (1, 1), "power_law": (sp.Rational(3, 5), sp.Rational(1, 2))}
    for regime, (ours, edelman) in expected.items():
        cell = regimes.row(regime, "ours_l1", "bounded_alpha")
        assert (cell.posthoc_width_exponent, cell.edelman_width_exponent) == (ours, edelman)
    assert "none of the four regimes" in regimes.width_statement()


def test_numeric_slope_agrees_with_the_law():
    f = sp.lambdify(L, regimes.depth_bound("ours_l1", "bounded_alpha", sp.Integer(2)))
    slope = (math.log(f(2.0e8)) - math.log(f(1.0e8))) / math.log(2)
    assert abs(slope - 1.5) < 1e-3


def test_growth_procedure_refuses_what_it_cannot_decide():
    x = sp.Symbol("x", positive=True)
    assert growth(sp.exp(3 * x) * x**2 + x**5, x) == Growth(3, 2, 0)
    assert growth(sp.log(x**2 + 1) * sp.sqrt(x), x) == Growth(0, sp.Rational(1, 2), 1)
    try:
        growth(sp.sin(x) + 2, x)
    except GrowthUndecided:
        pass
    else:
        raise AssertionError("sin has no growth class and must not get one")
    try:
        growth(x**2 - x**2 * (1 + 1 / x), x)  # leading terms cancel: not eventually positive
    except GrowthUndecided:
        pass
    else:
        raise AssertionError("a cancelling sum must be refused")


def test_markdown_and_json():
    text = regimes.to_markdown()
    assert "| rank | 0 | ours_l2 | geometric_alpha | L^(1) |" in text
    document = json.loads(regimes.to_json())
    assert len(document["rows"]) == len(regimes.depth_table()) == 32
    assert any(label == "ours_l2 / rank / bounded_alpha" for label in document["settlement"]["sqrt_L"])
    assert not any("geometric" in label for label in document["settlement"]["sqrt_L"])


def test_assembled_law_counts_the_read_out_in_sigma_as_in_k():
    import sympy as sp

    from theory import assembled

    bound = regimes._ours_l2(sp.Integer(0), sp.Integer(2), "bounded_alpha", sp.Integer(1), sp.Integer(256))
    # L = 1, N = 256, rank 2 at p = 0: four layer matrices 3 N 2 each and the read-out w, 3 N 1; K = 5;
    # m = ceil(1 + ln 256) = 7; Q = C = 2; P = K (PEEL_COST(ceil(4 log2 2)) + PEEL_COST(ceil(log2 2)))
    peel = 5 * (assembled.PEEL_COST.subs(j=4) + assembled.PEEL_COST.subs(j=1))
    by_hand = assembled.GAP_TERM.subs(
        Sigma=4 * 3 * 256 * 2 + 3 * 256, n=1000, delta=sp.Rational(1, 10), gamma_m=1, m=7, K=5, T=16,
        N_max=256, Q=2, P=peel,
    )  # fmt: skip
    assert sp.N(bound - by_hand, 30) == 0


def test_frobenius_regime_uses_its_own_sigma_1_as_spectral_norm():
    import sympy as sp

    value = regimes.width_bound("frobenius", "edelman_proxy", sp.Integer(0)).subs(regimes.N, 4)
    # N = 4: sigma_1 = N^{-1/2} = 1/2, ||W||_{2,1} = sqrt(N) ||W||_F = 2; xi_l by hand, six layers, alpha = 1
    third = sp.Rational(2, 3)
    xi = (
        (sp.Rational(1, 8) * 2) ** third + (sp.Rational(1, 4) * 2) ** third + (sp.Rational(1, 2) * 2) ** third
    )
    xi += 2**third
    assert sp.N(value - (1 + 6 * xi) ** sp.Rational(3, 2), 30) == 0
