"""The softmax l_inf -> l_1 constant is 1 (derived, sharp) and the assembled bound uses it while the exact
proxy keeps the authors' 2 (issue 10, finding 7)."""

from __future__ import annotations

import numpy as np
import sympy as sp

from numerics.bounds.assembled import assembled_bound
from tests.helpers.diagonal_models import diagonal_model
from theory import assembled as theorem
from theory import lipschitz
from theory.proxy import C_QK, C_V, HEAD_LIPSCHITZ


def test_softmax_lemma_states_constant_one():
    statement = lipschitz.softmax_lemma().statement[0]
    assert sp.simplify(statement.rhs - sp.Symbol("||u - v||_inf")) == 0
    assert lipschitz.softmax_lemma().tag.provenance.value == "derived"
    assert all(r.verdict for r in lipschitz.softmax_lemma().results)


def test_softmax_jacobian_norm_is_at_most_one_and_attained():
    # ||(diag(a) - a a^T) h||_1 = sum_i a_i |h_i - a.h| over random a in the simplex and h in the cube.
    rng = np.random.default_rng(0)
    a = rng.dirichlet(np.ones(5), size=20000)
    h = rng.uniform(-1, 1, size=(20000, 5))
    h[:10000] = np.sign(h[:10000])  # vertices, where the maximum is
    values = (a * np.abs(h - (a * h).sum(axis=1, keepdims=True))).sum(axis=1)
    assert values.max() <= 1 + 1e-12
    half = np.array([0.5, 0.5])
    assert (half * np.abs(np.array([1.0, -1.0]) - 0.0)).sum() == 1.0  # a = (1/2, 1/2), h = (1, -1)


def test_assembled_head_factor_is_the_sharp_one_and_the_proxy_keeps_the_authors():
    assert sp.simplify(theorem.HEAD_LIPSCHITZ.expr - C_V * (1 + 2 * C_QK)) == 0
    assert sp.simplify(HEAD_LIPSCHITZ.expr - C_V * (1 + 4 * C_QK)) == 0


def test_assembled_depth_factor_and_gamma_use_the_sharp_constant():
    # Two layers, H = 2, every norm 1 (a shell, so rounding changes nothing): alpha_0 = L_phi * 1 * 1 *
    # sum over 2 heads of 1 * (1 + 2 * 1) = 1.13 * 6 (the authors' constant would give 1.13 * 10);
    # gamma(QK) = kappa C_V L_phi C_in C_out = 1.13 (the authors' 2 would give 2.26).
    result = assembled_bound(diagonal_model(2, *(1.0,) * 6), n=500, delta=0.05, margin=0.5, T=4)
    first = result.matrices[0]
    assert first.matrix.kind.value == "QK" and first.matrix.layer == 0
    assert abs(float(first.alpha) - 1.13 * 6) < 1e-12
    assert abs(float(first.gamma) - 1.13) < 1e-12
