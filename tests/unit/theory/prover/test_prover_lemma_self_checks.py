"""Inequalities the lemmas' self-checks decided by sympy alone, now decided by the prover: each is proved,
and a planted false variant (a constant moved 1e-6 relative, or the domain widened past the true one) is
refuted with a witness re-checked here in exact rationals or mpmath, independently of the prover."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy as sp

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from theory.paper_proofs import inequalities as registry
from theory.prover import lemma_inequalities as lemmas

NEW = ["frobenius_radius", "tail_prefactor_below_144", "sharp_tail_termwise"]
NEW += ["lambda_positive", "rounding_derivative_brackets", "c_p_increasing", "ceiling_tail_decreasing"]
NEW += ["token_growth_coefficient_positive", "ramp_between_indicators"]
NEW += ["head_dimension", "k_star_is_a_minimum", "balanced_term_positive", "grid_rounding_factor"]
NEW += ["gelu_below_identity", "c_p_in_1_2"]


def _entry(name: str) -> lemmas.LemmaInequality:
    (entry,) = [e for e in registry.all_lemma_inequalities() if e.name == name]
    return entry


def _point(verdict: lemmas.LemmaVerdict) -> dict[str, Fraction]:
    assert verdict.result.status == "refuted"
    witness = verdict.to_json()["witness"]["point"]
    return {name: Fraction(value) for name, value in witness.items()}


@pytest.mark.parametrize("name", NEW)
def test_each_self_check_inequality_is_proved_with_a_checked_certificate_and_reduction(name):
    verdict = lemmas.decide(_entry(name))
    assert verdict.status == "proved" and verdict.certificates_checked
    assert all(verdict.steps_hold)
    assert verdict.result.seconds < 5


def test_the_sharp_tail_is_stated_from_the_lemma_sides_and_needs_p_le_2():
    entry = _entry("sharp_tail_termwise")
    (inequality,) = entry.statement.inequalities
    t, p = (entry.statement.domain.symbols()[name] for name in ("t", "p"))
    assert sp.simplify(inequality.gap - (t**p - t**2)) == 0
    widened = lemmas.decide(registry._sharp_tail("3"))  # the lemma's "needs p <= 2": refuted past 2
    point = _point(widened)
    assert point["p"] > 2 and 0 < point["t"] <= 1
    with mpmath.workdps(50):
        tt, pp = mpmath.mpf(point["t"].numerator) / point["t"].denominator, mpmath.mpf(point["p"].numerator)
        pp /= point["p"].denominator
        assert tt**2 > tt**pp  # sigma_i^2 > sigma_{k+1}^{2-p} sigma_i^p at the witness


def test_the_sharp_tail_reduction_rejects_sides_that_are_not_the_lemma_ones(monkeypatch):
    from theory import interpolation

    assert registry._sharp_tail().steps[0].check()
    planted = lambda big, small: (small**2, big ** (3 - interpolation.p) * small**interpolation.p)  # noqa: E731
    monkeypatch.setattr(interpolation, "sharp_tail_sides", planted)  # sigma_{k+1} no longer scales out
    assert not registry._sharp_tail().steps[0].check()


def _planted(entry: lemmas.LemmaInequality, factor: sp.Expr) -> lemmas.LemmaInequality:
    """entry with its (only) bound moved: the gap rhs - lhs replaced by rhs * factor - lhs via the parts."""
    (inequality,) = entry.statement.inequalities
    lhs, rhs = inequality.text.split(" <= ") if " <= " in inequality.text else (None, None)
    assert lhs is not None
    domain = entry.statement.domain
    return lemmas.inequality(
        entry.lemma,
        "planted",
        [(sp.sympify(lhs), "<=", sp.sympify(rhs) * factor)],
        domain.to_text(),
        "planted",
    )


def test_a_frobenius_radius_bound_moved_down_1e_6_is_refuted_at_a_rechecked_corner():
    verdict = lemmas.decide(_planted(_entry("frobenius_radius"), 1 - sp.Rational(1, 10**6)))
    point = _point(verdict)
    assert sum(value**2 for value in point.values()) > 3 * (1 - Fraction(1, 10**6))


def test_a_tail_prefactor_bound_moved_down_1e_6_is_refuted_with_a_rechecked_witness():
    verdict = lemmas.decide(_planted(_entry("tail_prefactor_below_144"), 1 - sp.Rational(1, 10**6)))
    point = _point(verdict)
    assert (1 - point["x"]) * (1 - point["y"]) > 1 - Fraction(1, 10**6)


def test_the_tail_prefactor_ratio_is_the_covering_lemma_one():
    from theory import covering

    (inequality,) = _entry("tail_prefactor_below_144").statement.inequalities
    x, y = sp.symbols("x y")
    sigma = sp.Symbol("sigma", positive=True)
    prefactor, bound = covering.tail_prefactor(sigma, covering.N * x, covering.N * y)
    names = {s.name: s for s in inequality.gap.free_symbols}
    gap = inequality.gap.xreplace({names["x"]: x, names["y"]: y})
    assert sp.simplify(gap - (1 - prefactor / bound)) == 0


def test_the_rounding_brackets_with_tau_1_not_the_largest_are_refuted_with_a_rechecked_witness():
    entry = _entry("rounding_derivative_brackets")
    gaps = [inequality.gap for inequality in entry.statement.inequalities]
    widened = entry.statement.domain.to_text().replace("r2: (0, 1]", "r2: (0, 2]")
    planted = lemmas.inequality(
        entry.lemma, "planted", [(-gap, "<=", 0) for gap in gaps], widened, "tau_2 up to 2 tau_1"
    )
    point = _point(lemmas.decide(planted))
    assert point["r2"] > 1
    with mpmath.workdps(50):
        r2, r3, p = (mpmath.mpf(point[n].numerator) / point[n].denominator for n in ("r2", "r3", "p"))
        mean_gap = (r2**p * mpmath.log(r2) + r3**p * mpmath.log(r3)) / (1 + r2**p + r3**p)
        mass_gap = -mpmath.log(1 + r2**p + r3**p)
        assert mean_gap > 0 or mass_gap > 0  # a bracket is positive: E_w log tau > log tau_1 at the witness


def test_the_rounding_brackets_are_the_posthoc_ones_at_tau_1_equal_1():
    from theory.posthoc import rounding_derivative_brackets

    entry = _entry("rounding_derivative_brackets")
    names = entry.statement.domain.symbols()
    own = rounding_derivative_brackets((sp.Integer(1), sp.Symbol("r2"), sp.Symbol("r3")))
    for inequality, bracket in zip(entry.statement.inequalities, own, strict=True):
        free = {s.name: s for s in bracket.free_symbols}
        rebound = bracket.xreplace({free[name]: names[name] for name in free})
        assert sp.simplify(inequality.gap + rebound) == 0  # gap = 0 - bracket


def _mp(value: Fraction) -> mpmath.mpf:
    return mpmath.mpf(value.numerator) / value.denominator


def _decide_widened(name: str, domain: str) -> dict[str, Fraction]:
    """The entry's statement (gap > 0, or >= 0) over a domain widened past the true one: refuted."""
    entry = _entry(name)
    (inequality,) = entry.statement.inequalities
    parts = [(inequality.gap, ">" if inequality.strict else ">=", 0)]
    return _point(lemmas.decide(lemmas.inequality(entry.lemma, "planted", parts, domain, "widened")))


def test_c_p_increasing_past_p_2_is_refuted_with_a_rechecked_witness():
    from theory.interpolation import derive_balance

    point = _decide_widened("c_p_increasing", "p: (0, 3)")
    assert point["p"] > 2
    with mpmath.workdps(50):
        c_p = derive_balance().c_p
        (symbol,) = c_p.free_symbols
        f = sp.lambdify(symbol, c_p, "mpmath")
        assert mpmath.diff(f, _mp(point["p"])) < 0  # c_p decreases at the witness


def test_the_tail_slope_over_negative_p_is_refuted_with_a_rechecked_witness():
    point = _decide_widened("ceiling_tail_decreasing", "B: (0, oo), k: (0, oo), p: [-2, 2]")
    b, k, p = (_mp(point[name]) for name in ("B", "k", "p"))
    assert p < 0 and b > 0 and k > 0
    with mpmath.workdps(50):
        assert mpmath.diff(lambda kk: b * kk ** (-2 / p), k) > 0  # B k^{-2/p} increases in k at the witness


def test_the_token_growth_coefficient_over_negative_alpha_is_refuted_with_a_rechecked_witness():
    from theory.baselines import edelman_token_growth

    name = "token_growth_coefficient_positive"
    domain = _entry(name).statement.domain.to_text().replace("alpha_l: (0, oo)", "alpha_l: [-1, oo)")
    point = _decide_widened(name, domain)
    _, coefficient = edelman_token_growth()
    exact = {s: sp.Rational(*point[s.name].as_integer_ratio()) for s in coefficient.free_symbols}
    assert point["alpha_l"] <= 0 and coefficient.subs(exact) <= 0  # exact rationals and surds, by sympy


def test_a_ramp_twice_as_steep_inside_is_refuted_with_a_rechecked_witness():
    from theory.assembled import RAMP_LOSS

    u, margin = RAMP_LOSS.args
    steep = sp.Piecewise((1, u <= 0), (1 - 2 * u / margin, u < margin), (0, True))
    point = _point(lemmas.decide(registry._ramp_between_indicators(steep)))
    assert 1 - 2 * point["t"] < 0 and 0 < point["t"] < 1  # below 1[u <= 0] = 0 inside, in exact rationals


def test_a_ramp_whose_pieces_do_not_meet_the_indicators_is_not_proved():
    from theory.assembled import RAMP_LOSS

    u, margin = RAMP_LOSS.args
    wide = sp.Piecewise((1, u <= 0), (1 - u / (2 * margin), u < 2 * margin), (0, True))
    verdict = lemmas.decide(registry._ramp_between_indicators(wide))
    assert verdict.steps_hold[1] is False and verdict.steps_hold[2] is False
    assert verdict.status == "undecided"  # 0 <= 1 - t/2 <= 1 holds: only the reduction catches it
