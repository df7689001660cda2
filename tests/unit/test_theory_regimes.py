"""The Section 5 table: which bound grows like sqrt(L), L^{3/2} or exponentially, and in N."""

from __future__ import annotations

import json

import sympy as sp

from theory import regimes


def test_table_is_complete():
    table = regimes.depth_table()
    assert len(table) == len(regimes.REGIMES) * len(regimes.BOUNDS) * len(regimes.ASSUMPTIONS)


def test_sqrt_l_comes_from_l2_aggregation_at_p0():
    assert regimes.row("rank", "ours_l2", "geometric_alpha").depth_exponent == sp.Rational(1, 2)
    assert regimes.row("rank", "ours_l1", "bounded_alpha").depth_exponent == 1


def test_frobenius_regime_with_bounded_alpha_is_l_three_halves_for_l1():
    assert regimes.row("frobenius", "ours_l1", "bounded_alpha").depth_exponent == sp.Rational(3, 2)
    assert regimes.row("frobenius", "ours_l2", "bounded_alpha").depth_exponent == 1


def test_edelman_exponential_with_geometric_alpha():
    cell = regimes.row("rank", "edelman_proxy", "geometric_alpha")
    assert cell.depth == "exponential" and cell.depth_rate_per_log_ell == 1


def test_width_exponents():
    assert regimes.row("rank", "ours_l1", "bounded_alpha").width_exponent == sp.Rational(1, 2)
    assert regimes.row("frobenius", "ours_l1", "bounded_alpha").width_exponent == sp.Rational(3, 4)
    assert regimes.row("power_law", "ours_l1", "bounded_alpha").width_exponent == sp.Rational(2, 3)
    assert regimes.row("flat", "edelman_proxy", "bounded_alpha").width_exponent == 1


def test_numeric_slope_agrees_with_the_limit():
    f = sp.lambdify(
        regimes.L, regimes.bound_expression("frobenius", "ours_l1", "bounded_alpha", regimes.L, 256)
    )
    slope = (sp.log(f(2.0e8)) - sp.log(f(1.0e8))) / sp.log(2)
    assert abs(float(slope) - 1.5) < 1e-3


def test_markdown_and_json():
    text = regimes.to_markdown()
    assert text.count("\n") == len(regimes.depth_table()) + 1
    document = json.loads(regimes.to_json())
    assert "sqrt_L" in document["settlement"] and len(document["rows"]) == len(regimes.depth_table())
    assert any("ours_l2 / rank" in label for label in document["settlement"]["sqrt_L"])
