"""Theorem 4.1 restated (theory.interpolation): true with its logs and constants (finding 2 of issue 10),
and exactly what holds at p = 2 (finding 3)."""

from __future__ import annotations

import math

import mpmath
import pytest
import sympy as sp

from theory import interpolation as thm
from theory.proxy import SUMMAND

p = sp.Symbol("p", positive=True)
N, S, s, eps, C = sp.symbols("N S s epsilon C", positive=True)
M = sp.Symbol("M", positive=True, integer=True)


def _old_statement() -> sp.Expr:
    """The statement before the fix, typed here: c_p N^{2(p+1)/(p+2)} S^{2/(p+2)} (s/eps)^{2p/(p+2)}."""
    c_p = (p + 2) / 2 * (2 / p) ** (p / (p + 2))
    return c_p * N ** (2 * (p + 1) / (p + 2)) * S ** (2 / (p + 2)) * (s / eps) ** (2 * p / (p + 2))


# A 1 x 1 matrix W = w with |w| <= 1 (S = |w|^p <= 1, C = 1), one input x = 1 (s = 1; M = 2 counting a
# second copy): covering [-1, 1] at radius eps needs at least 1/eps balls, so log N(eps) >= ln(1/eps).
SMALL = {p: sp.Rational(1, 100), eps: sp.Rational(1, 1000), N: 1, S: 1, s: 1, C: 1, M: 2}


def test_old_statement_is_below_the_true_covering_number_at_small_p_and_eps():
    true_lower = math.log(1000)
    assert float(_old_statement().subs(SMALL)) < 1.2 < true_lower


def test_restated_theorem_dominates_the_true_covering_number_there():
    assert float(thm.theorem_4_1().subs(SMALL)) >= math.log(1000)


def test_statement_is_a_relation_over_an_explicit_domain():
    relation = thm.STATEMENT
    assert isinstance(relation, sp.Le)
    assert relation.free_symbols <= set(thm.DOMAIN)
    assert thm.DOMAIN[p] == sp.Interval.Lopen(0, 2) and thm.DOMAIN[eps] == sp.Interval.open(0, sp.oo)


def test_old_statement_is_below_the_composed_covering_lemmas_on_the_grid():
    found = thm.grid_counterexample(sp.Le(thm.STATEMENT.lhs, _old_statement()), thm.grid_points()[::5])
    assert found is not None


@pytest.mark.slow
def test_restated_statement_holds_on_the_dense_grid():
    assert thm.grid_counterexample(thm.STATEMENT, thm.grid_points()) is None


def test_grid_check_is_a_self_check_of_the_lemma_and_fails_on_a_false_statement(monkeypatch):
    result = {r.name: r for r in thm.lemma().results}[thm.STATEMENT_CHECK]
    assert result.verdict
    false_statement = sp.Le(thm.STATEMENT.lhs, _old_statement())
    monkeypatch.setattr(thm, "statement", lambda: false_statement)
    ok, witness = thm._check_statement_on_grid()
    assert not ok and "counterexample" in witness


def test_objective_is_read_off_the_covering_lemmas():
    # g(k) = 3 N k + 144 N^2 (S/k)^{2/p} (s/eps)^2: 3N from d1 + d2 + 1 <= 3N, 144 = 36 * 2^2 (eps/2), N^2 =
    # d2 <= N times ||R_k||_F^2 <= N sigma_{k+1}^2.
    k = thm.k
    g = thm.balance_objective()
    assert sp.simplify(g - (3 * N * k + 144 * N**2 * S ** (2 / p) * k ** (-2 / p) * (s / eps) ** 2)) == 0


def test_derived_exponents_are_the_papers():
    exponents = thm.theorem_exponents()
    assert sp.simplify(exponents[N] - 2 * (p + 1) / (p + 2)) == 0
    assert sp.simplify(exponents[S] - 2 / (p + 2)) == 0
    assert sp.simplify(exponents[s] - 2 * p / (p + 2)) == 0
    assert sp.simplify(exponents[eps] + 2 * p / (p + 2)) == 0


def test_balanced_term_at_eps_one_is_K_p_times_summand_squared():
    # K_1 = c_1 3^{2/3} 144^{1/3}, c_1 = (3/2) 2^{1/3}: 1.5 (2 * 9 * 144)^{1/3} = 1.5 * 2592^{1/3}.
    summand = SUMMAND.expr.subs(SUMMAND.args[0], p)
    values = {p: 1, N: 768, S: sp.Rational(411, 10), s: sp.Rational(93, 4)}
    ratio = (thm.balanced_term().subs(eps, 1) / summand**2).subs(values)
    assert abs(float(ratio) - 1.5 * 2592 ** (1 / 3)) < 1e-9


def test_c_p_known_values():
    c_p = thm.derive_balance().c_p
    assert abs(float(c_p.subs(p, sp.Rational(1, 2))) - 1.6494) < 1e-3
    assert abs(float(c_p.subs(p, 1)) - 1.8899) < 1e-3
    assert c_p.subs(p, 2) == 2


def test_k_star_minimises_the_objective_numerically():
    d = thm.derive_balance()
    values = {thm.A_head: 300, thm.B_tail: 7.0e5, p: 0.8}
    f = sp.lambdify(thm.k, d.objective.subs(values), "mpmath")
    k_star = float(d.k_star.subs(values))
    best = f(k_star)
    assert all(f(k_star * factor) >= best for factor in (0.5, 0.9, 0.99, 1.01, 1.1, 2.0))
    assert abs(best - float(d.closed_form(thm.A_head, thm.B_tail).subs(values))) < 1e-6 * best


def test_every_self_check_of_the_lemma_passes():
    lemma = thm.lemma()
    assert [(r.name, r.witness) for r in lemma.results if not r.verdict] == []
    assert lemma.step == 4 and len(lemma.results) >= 12


def test_p_to_zero_limit_is_rank_bound_plus_one_rounding_unit():
    # With S = r = 5, N = 7: lim_{p -> 0+} = 3 N (r + 1) Lambda = 126 Lambda.
    values = {S: 5, N: 7, s: 3, eps: sp.Rational(1, 2), C: 2, M: 10}
    lam = float(thm.LOG_FACTOR.subs(values))
    near_zero = float(thm.theorem_4_1().subs(values).subs(p, sp.Rational(1, 10**9)))
    assert abs(near_zero / lam - 126) < 1e-3


def test_p_equals_2_neither_reduces_to_nor_dominates_frobenius_maurey():
    # N = 4, ||W||_F = 0.01 (S = 1e-4), s = 1: balanced = 24 sqrt 3 * 8 * 0.01 / eps, Maurey (k = 0,
    # radius eps/2, d2 <= N) = 144 * 4 * 1e-4 / eps^2: Maurey smaller at eps = 1, larger at eps = 1e-3.
    values = {p: 2, N: 4, S: sp.Rational(1, 10**4), s: 1}
    balanced = thm.balanced_term().subs(values)
    for e, interpolation_smaller in ((1, False), (sp.Rational(1, 1000), True)):
        ours = float(balanced.subs(eps, e))
        maurey = 144 * 4 * 1e-4 / float(e) ** 2
        assert math.isclose(ours, 24 * math.sqrt(3) * 8 * 0.01 / float(e), rel_tol=1e-12)
        assert (ours < maurey) is interpolation_smaller


def test_endpoint_and_p_le_2_checks_are_in_the_lemma():
    results = {r.name: r.verdict for r in thm.lemma().results}
    for name in (
        "p_equals_2_is_not_frobenius_maurey",
        "sharp_tail_needs_p_le_2",
        "sharp_tail_at_2_is_frobenius_maurey",
    ):
        assert results[name] is True, name
    assert "p_equals_2_is_frobenius_maurey" not in results
    assert "Dudley finite" not in (thm.__doc__ or "")


def test_sharp_tail_below_old_tail_for_k_at_most_N():
    # S^{2/p} k^{1 - 2/p} <= N (S/k)^{2/p} iff k <= N (ratio k / N), checked at p = 1, S = 9.
    for k_value, n_value in ((1, 4), (4, 4), (3, 50)):
        sharp = float(thm.tail_radius(sp.Integer(k_value), sharp=True).subs({p: 1, S: 9}) ** 2)
        old = n_value * (9 / k_value) ** 2
        assert sharp <= old * (1 + 1e-12)
        assert math.isclose(sharp / old, k_value / n_value, rel_tol=1e-12)


def test_summand_right_limit_at_zero_is_sqrt_rank_n():
    rank, n_dim, scale = 64, 768, mpmath.mpf(10)
    f = sp.lambdify(SUMMAND.args, SUMMAND.expr, "mpmath")
    assert abs(f(mpmath.mpf("1e-12"), rank, scale, n_dim) - mpmath.sqrt(rank * n_dim)) < 1e-6
