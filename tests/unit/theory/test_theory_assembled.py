"""The assembled bound's interface: formulas numerics lambdifies, their values and documentation."""

from __future__ import annotations

import math

import mpmath
import sympy as sp

from theory import assembled
from theory.assembled import GAP_TERM, MATRIX_TERM
from theory.proxy import MatrixKind


def _matrix_term(p, big_s, scale, n_dim):
    return sp.lambdify(MATRIX_TERM.args, MATRIX_TERM.expr, "mpmath")(p, big_s, scale, n_dim)


def _gap(**kw):
    names = [str(a) for a in GAP_TERM.args]
    return sp.lambdify(GAP_TERM.args, GAP_TERM.expr, "mpmath")(*(kw[name] for name in names))


BASE = dict(Sigma=1.0e4, n=10_000, delta=0.05, gamma_m=0.5, m=7, K=16, T=32, N_max=256, Q=40.0, P=30.0)


def test_matrix_term_args_and_rank_case():
    assert [str(a) for a in MATRIX_TERM.args] == ["p", "S", "s", "N"]
    assert _matrix_term(0, 64, 1.0e6, 768) == 3 * 768 * 64


def test_matrix_term_at_frobenius_end():
    big_s, scale, n_dim = 50.0, 7.0, 512
    expected = 24 * math.sqrt(3) * n_dim**1.5 * math.sqrt(big_s) * scale + 3 * n_dim
    assert abs(float(_matrix_term(2, big_s, scale, n_dim)) - expected) < 1e-9 * expected


def test_matrix_constant_limits():
    k_p = assembled.matrix_constant()
    assert sp.limit(k_p, assembled.p, 0, "+") == 3
    assert sp.simplify(k_p.subs(assembled.p, 2) - 24 * sp.sqrt(3)) == 0


def test_gap_term_decreases_with_n_and_increases_with_sigma():
    assert _gap(**{**BASE, "n": 10**6}) < _gap(**BASE) < _gap(**{**BASE, "n": 10**3})
    assert _gap(**BASE) < _gap(**{**BASE, "Sigma": 2.0e4})


def test_gap_term_is_logarithmic_in_tokens():
    small, large = _gap(**BASE), _gap(**{**BASE, "T": 32 * 10**6})
    assert 1 < large / small < 1.6


def test_gap_term_value_by_hand():
    lam = math.log(2 * 10_000 * 32 * 256 * (16 * 100 * 16 * 256 * 40 / 0.5 + 3) + 1)
    by_hand = (8 + 24 * math.sqrt(math.log(2)) + 48 * math.sqrt(lam * 1.0e4)) / 100 + 3 * math.sqrt(
        (math.log(2 / 0.05) + 16 * math.log(15) + 30) / 20_000
    )
    assert abs(float(_gap(**BASE)) - by_hand) < 1e-9 * by_hand


def test_every_argument_is_documented():
    documented = {row["argument"] for row in assembled.assembled_inputs_doc()}
    assert {str(a) for a in (*MATRIX_TERM.args, *GAP_TERM.args)} <= documented


def test_synthetic_sensitivities_include_the_activation_constant():
    lphi = sp.Symbol("L_phi", positive=True)
    for kind in (MatrixKind.QK, MatrixKind.VT, MatrixKind.M_IN):
        assert lphi in assembled.GAMMA_SYNTHETIC[kind].expr.free_symbols
    assert assembled.GAMMA_SYNTHETIC[MatrixKind.M_OUT].expr == 1


def test_peel_weights_sum_to_one():
    cost = sp.lambdify(assembled.PEEL_COST.args, assembled.PEEL_COST.expr, "mpmath")
    total = mpmath.nsum(lambda j: mpmath.exp(-cost(int(j))), [-mpmath.inf, mpmath.inf])
    assert abs(total - 1) < 1e-12


def test_shells_round_up():
    index = sp.lambdify(assembled.SPECTRAL_SHELL_INDEX.args, assembled.SPECTRAL_SHELL_INDEX.expr, "mpmath")
    shell = sp.lambdify(assembled.SPECTRAL_SHELL.args, assembled.SPECTRAL_SHELL.expr, "mpmath")
    for value in (0.3, 1.0, 1.7, 12.5):
        j = int(index(value, 3))
        assert value <= shell(j, 3) <= value * 2 ** (1 / 12) * (1 + 1e-12)
