"""The interpolation covering bound (Theorem 4.1, reconstructed) as derived by sympy."""

from __future__ import annotations

import mpmath
import sympy as sp

from theory import interpolation
from theory.proxy import SUMMAND


def test_derived_exponents_are_the_papers():
    exponents = interpolation.theorem_exponents()
    p = interpolation.p
    assert sp.simplify(exponents[interpolation.N] - 2 * (p + 1) / (p + 2)) == 0
    assert sp.simplify(exponents[interpolation.S] - 2 / (p + 2)) == 0
    assert sp.simplify(exponents[interpolation.s] - 2 * p / (p + 2)) == 0
    assert sp.simplify(exponents[interpolation.eps] + 2 * p / (p + 2)) == 0


def test_derived_bound_at_eps_one_is_c_p_times_summand_squared():
    derived = interpolation.theorem_4_1().subs(interpolation.eps, 1)
    c_p = interpolation.derive_balance().c_p
    summand = SUMMAND.expr.subs(SUMMAND.args[0], interpolation.p)
    values = {
        interpolation.p: sp.Rational(3, 7),
        interpolation.N: 768,
        interpolation.S: sp.Rational(411, 10),
        interpolation.s: sp.Rational(93, 4),
    }
    ratio = (derived / (c_p * summand**2)).subs(values)
    assert abs(sp.N(ratio, 30) - 1) < sp.Float("1e-25")


def test_c_p_known_values():
    c_p = interpolation.derive_balance().c_p
    p = interpolation.p
    assert abs(float(c_p.subs(p, sp.Rational(1, 2))) - 1.6494) < 1e-3
    assert abs(float(c_p.subs(p, 1)) - 1.8899) < 1e-3
    assert c_p.subs(p, 2) == 2


def test_k_star_minimises_the_objective_numerically():
    d = interpolation.derive_balance()
    values = {interpolation.A_head: 300, interpolation.B_tail: 7.0e5, interpolation.p: 0.8}
    f = sp.lambdify(interpolation.k, d.objective.subs(values), "mpmath")
    k_star = float(d.k_star.subs(values))
    best = f(k_star)
    assert all(f(k_star * factor) >= best for factor in (0.5, 0.9, 0.99, 1.01, 1.1, 2.0))
    assert (
        abs(best - float(d.closed_form(interpolation.A_head, interpolation.B_tail).subs(values)))
        < 1e-6 * best
    )


def test_every_self_check_of_the_lemma_passes():
    lemma = interpolation.lemma()
    failing = [(r.name, r.witness) for r in lemma.results if not r.verdict]
    assert failing == []
    assert lemma.step == 4 and len(lemma.results) >= 6


def test_summand_right_limit_at_zero_is_sqrt_rank_n():
    rank, n_dim, scale = 64, 768, mpmath.mpf(10)
    f = sp.lambdify(SUMMAND.args, SUMMAND.expr, "mpmath")
    assert abs(f(mpmath.mpf("1e-12"), rank, scale, n_dim) - mpmath.sqrt(rank * n_dim)) < 1e-6
