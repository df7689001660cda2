"""Certified singular-value enclosures of dense matrices: planted exact spectra and corrupted certificates.

Planted matrices W = Q1 diag(s) Q2^T use exactly orthogonal factors with dyadic entries (signed,
permuted Sylvester-Hadamard matrices H_n / sqrt(n), n = 4^k), so W is exactly representable in float64
(checked with Fractions) and its singular values are exactly the dyadic s: containment is decided
exactly by arb comparisons, not up to a tolerance.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from flint import arb
from hypothesis import given
from hypothesis import strategies as st

from numerics.certify.enclosure import certify_dense
from numerics.certify.fast import certify_dense_fast
from tests.helpers.planted_matrices import VALUES_16, assert_contains, planted
from theory.errors import CertificationFailed


def fast_dense(matrix, decomposition=None):
    """The float-bounds certificate's enclosure (same contract as certify_dense)."""
    return certify_dense_fast(matrix, decomposition).enclosure


DENSE_PATHS = [pytest.param(certify_dense, id="arb"), pytest.param(fast_dense, id="float-bounds")]
"""Both certificate paths: every planted and corrupted-input test runs on each."""


@pytest.mark.parametrize("dense", DENSE_PATHS)
def test_planted_square_matrix_every_enclosure_contains_the_exact_singular_value(dense):
    w = planted(16, 16, VALUES_16)
    enclosure = dense(w)
    assert_contains(enclosure.balls, VALUES_16)
    assert enclosure.structural_zeros == 0
    assert enclosure.max_relative_width() < 1e-9  # Weyl's bound is absolute: ~1e-14 on sigma = 2^-10


@pytest.mark.parametrize("dense", DENSE_PATHS)
def test_planted_rectangular_matrix_both_orientations(dense):
    values = VALUES_16[:12]
    w = planted(16, 64, values, seed=1)
    for matrix in (w, w.T):
        enclosure = dense(matrix)
        assert_contains(enclosure.balls, values + [0.0] * 4)
        assert all(b.contains(0) for b in enclosure.balls[12:])
        assert all(b > 0 for b in enclosure.balls[:12])


@pytest.mark.parametrize("dense", DENSE_PATHS)
def test_spectral_norm_is_the_first_enclosure(dense):
    w = planted(16, 16, VALUES_16, seed=2)
    assert dense(w).spectral_norm.contains(arb(13.5))


@pytest.mark.parametrize("dense", DENSE_PATHS)
def test_wrong_singular_value_widens_the_enclosure_and_still_contains_the_truth(dense):
    w = planted(16, 16, VALUES_16, seed=3)
    u, s, vt = np.linalg.svd(w)
    clean = dense(w, (u, s, vt))
    wrong = s.copy()
    wrong[3] += 0.1
    corrupted = dense(w, (u, wrong, vt))
    assert_contains(corrupted.balls, VALUES_16)
    # the residual ||W - U S' V^T|| = 0.1 now widens every enclosure to radius >= ~0.1
    assert all(float(b.rad()) >= 0.09 for b in corrupted.balls[:8])
    assert clean.max_relative_width() < 1e-9 < 1e-3 < corrupted.max_relative_width()


@pytest.mark.parametrize("dense", DENSE_PATHS)
def test_perturbed_singular_vectors_widen_the_enclosure_and_still_contain_the_truth(dense):
    w = planted(16, 16, VALUES_16, seed=4)
    u, s, vt = np.linalg.svd(w)
    noisy_u = u + 1e-6 * np.random.default_rng(0).standard_normal(u.shape)
    corrupted = dense(w, (noisy_u, s, vt))
    assert_contains(corrupted.balls, VALUES_16)
    assert float(corrupted.balls[0].rad()) > 1e-7


@pytest.mark.parametrize("dense", DENSE_PATHS)
def test_non_orthonormal_factor_fails_loudly(dense):
    w = planted(16, 16, VALUES_16, seed=5)
    u, s, vt = np.linalg.svd(w)
    with pytest.raises(CertificationFailed, match="orthogonality defect"):
        dense(w, (2 * u, s, vt))


@pytest.mark.parametrize("dense", DENSE_PATHS)
def test_non_finite_inputs_and_bad_shapes_fail_loudly(dense):
    w = planted(16, 16, VALUES_16, seed=6)
    u, s, vt = np.linalg.svd(w)
    bad = u.copy()
    bad[0, 0] = np.nan
    with pytest.raises(CertificationFailed, match="NaN"):
        dense(w, (bad, s, vt))
    with pytest.raises(CertificationFailed, match="shapes"):
        dense(w, (u[:, :3], s, vt))
    with pytest.raises(CertificationFailed, match=r"non-finite|NaN"):
        dense(np.full((2, 2), np.inf))


@pytest.mark.parametrize("dense", DENSE_PATHS)
def test_unsorted_and_negative_singular_values_are_handled_exactly(dense):
    w = planted(4, 4, [3.0, 2.0, 1.0, 0.5], seed=7)
    u, s, vt = np.linalg.svd(w)
    order = [2, 0, 3, 1]
    u2, s2 = u[:, order].copy(), s[order].copy()
    u2[:, 1] *= -1
    s2[1] *= -1  # U diag(s) V^T unchanged
    assert_contains(dense(w, (u2, s2, vt[order])).balls, [3.0, 2.0, 1.0, 0.5])


@given(
    numerators=st.lists(st.integers(min_value=0, max_value=2**20), min_size=16, max_size=16),
    shift=st.integers(min_value=-30, max_value=10),
    seed=st.integers(min_value=0, max_value=2**31 - 1),
)
@pytest.mark.parametrize("dense", DENSE_PATHS)
def test_every_planted_dyadic_spectrum_is_enclosed(dense, numerators, shift, seed):
    values = [math.ldexp(k, shift - 10) for k in numerators]
    w = planted(16, 16, values, seed=seed)
    enclosure = dense(w)
    assert_contains(enclosure.balls, values)
    for ball, value in zip(enclosure.balls, sorted(values, reverse=True), strict=True):
        if value > 0 and ball > 0:
            assert float(ball.rad()) <= 1e-12 * max(values)  # absolute width ~ eps * ||W||
