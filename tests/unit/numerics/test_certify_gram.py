"""The Gram certificate of a dense matrix (certify_gram_fast) and the AUTO path's choice of certificate.

References, independent of the certificate: planted matrices Q1 diag(s) Q2^T with exactly orthogonal
dyadic factors (their singular values are exactly s, checked with Fractions in the helpers imported
from tests.helpers.planted_matrices), and mpmath's SVD at 60 digits of a random float32-valued matrix.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from flint import arb
from hypothesis import given, settings
from hypothesis import strategies as st

from numerics.certify.certified import (
    APRIORI_PATH,
    ARB_PATH,
    FLOAT_PATH,
    GRAM_PATH,
    TAKEN_PATHS,
    certify_matrix,
)
from numerics.certify.fast import GRAM_CONDITION_LIMIT, certify_gram_fast
from numerics.certify.float_bounds import FastPathUnavailable
from numerics.certify.rank import certified_numerical_rank
from numerics.spectra.matrices import NamedMatrix
from tests.helpers.planted_matrices import VALUES_16, assert_contains, planted
from theory.errors import CertificationFailed
from theory.proxy import MatrixKind


def test_planted_square_spectrum_is_enclosed_and_its_condition_is_called_loose():
    w = planted(16, 16, VALUES_16)
    certificate = certify_gram_fast(w)
    assert_contains(certificate.enclosure.balls, VALUES_16)
    assert VALUES_16[0] / VALUES_16[-1] > GRAM_CONDITION_LIMIT and certificate.loose


def test_planted_rectangular_spectrum_both_orientations_with_exact_zeros():
    values = VALUES_16[:12]
    w = planted(16, 64, values, seed=1)
    for matrix in (w, w.T):
        enclosure = certify_gram_fast(matrix).enclosure
        assert (enclosure.rows, enclosure.cols) == matrix.shape
        assert_contains(enclosure.balls, values + [0.0] * 4)
        assert all(b > 0 for b in enclosure.balls[:12])
        assert all(b.contains(0) for b in enclosure.balls[12:])


@settings(max_examples=40, deadline=None)
@given(
    numerators=st.lists(st.integers(min_value=1, max_value=2**20), min_size=16, max_size=16),
    shift=st.integers(min_value=-300, max_value=300),
    seed=st.integers(min_value=0, max_value=2**31 - 1),
)
def test_every_planted_dyadic_spectrum_is_enclosed_within_the_gram_width(numerators, shift, seed):
    values = [math.ldexp(k, shift - 10) for k in numerators]
    w = planted(16, 16, values, seed=seed)
    certificate = certify_gram_fast(w)
    assert_contains(certificate.enclosure.balls, values)
    top = max(values)
    for ball, value in zip(certificate.enclosure.balls, sorted(values, reverse=True), strict=True):
        # a residual ~ u sigma_1^2 on sigma_i^2 moves sigma_i by ~ u sigma_1^2 / sigma_i
        assert float(ball.rad()) <= 1e-12 * top * max(top / value, 1.0)
    assert certificate.loose == (top / min(values) > GRAM_CONDITION_LIMIT)


@pytest.mark.parametrize("shape", [(24, 40), (40, 24)])
def test_random_float32_matrix_contains_mpmath_singular_values_at_60_digits(shape):
    w = np.random.default_rng(7).standard_normal(shape).astype(np.float32).astype(np.float64)
    certificate = certify_gram_fast(w)
    with mpmath.workdps(60):
        truth = sorted(mpmath.svd_r(mpmath.matrix(w.tolist()), compute_uv=False), reverse=True)
        for ball, value in zip(certificate.enclosure.balls, truth, strict=True):
            assert ball.contains(arb(mpmath.nstr(value, 50))), (ball.str(20), mpmath.nstr(value, 25))
    assert not certificate.loose
    assert certificate.enclosure.max_relative_width() < 1e-12


def test_a_wrong_eigendecomposition_widens_the_enclosure_and_still_contains_the_truth():
    values = [8.0, 6.0, 5.0, 4.0]
    w = planted(4, 16, values, seed=3)
    eigenvalues, q = np.linalg.eigh(w @ w.T)
    wrong = eigenvalues.copy()
    wrong[1] += 0.5  # a residual of 0.5 on sigma^2: every sigma moves by up to ~0.5 / (2 sigma)
    corrupted = certify_gram_fast(w, (wrong, q)).enclosure
    assert_contains(corrupted.balls, values)
    assert all(float(b.rad()) > 0.01 for b in corrupted.balls)
    noisy = q + 1e-6 * np.random.default_rng(0).standard_normal(q.shape)
    assert_contains(certify_gram_fast(w, (eigenvalues, noisy)).enclosure.balls, values)
    with pytest.raises(CertificationFailed, match="orthogonality defect"):
        certify_gram_fast(w, (eigenvalues, 2 * q))
    with pytest.raises(CertificationFailed, match="shapes"):
        certify_gram_fast(w, (eigenvalues, q[:, :3]))


def test_huge_and_tiny_scalings_are_enclosed_or_refused():
    values = [12.0, 8.0, 3.0, 1.0]
    w = planted(4, 16, values, seed=4)
    for scale in (-1000, 1000):
        enclosure = certify_gram_fast(np.ldexp(w, scale)).enclosure
        for ball, value in zip(enclosure.balls, values, strict=True):
            assert ball.contains(arb(value) * arb(2) ** scale)
    with pytest.raises(FastPathUnavailable):
        certify_gram_fast(np.diag([2.0**900, 1.0, 2.0**-900]))
    with pytest.raises(CertificationFailed, match="NaN"):
        certify_gram_fast(np.full((2, 3), np.nan))


def named(matrix: np.ndarray) -> NamedMatrix:
    return NamedMatrix(0, -1, MatrixKind.M_IN, matrix)


def test_auto_takes_the_gram_certificate_when_it_is_tight_and_the_svd_one_otherwise(monkeypatch):
    import numerics.certify.certified as certified
    import numerics.certify.fast as fast

    conditioned = planted(16, 64, [4.0, 3.0, 2.0, 1.5] * 4, seed=5)
    cheapest = certify_matrix(named(conditioned))
    assert cheapest.path == APRIORI_PATH and cheapest.rank.decided and cheapest.rank.lo == 16
    assert_contains(cheapest.enclosure.balls, sorted([4.0, 3.0, 2.0, 1.5] * 4, reverse=True))
    monkeypatch.setattr(fast, "APRIORI_WIDTH_LIMIT", 0.0)  # every a priori certificate called loose
    first = certify_matrix(named(conditioned))
    assert first.path == GRAM_PATH and first.rank.decided and first.rank.lo == 16
    assert certify_matrix(named(conditioned), path=FLOAT_PATH).path == FLOAT_PATH
    spread = planted(16, 16, VALUES_16, seed=6)  # sigma_1 / sigma_16 = 13.5 * 2^10 > GRAM_CONDITION_LIMIT
    second = certify_matrix(named(spread))
    assert second.path == FLOAT_PATH
    assert_contains(second.enclosure.balls, VALUES_16)

    def unavailable(*args, **kwargs):
        raise FastPathUnavailable("test")

    monkeypatch.setattr(certified, "certify_gram_fast", unavailable)
    assert certify_matrix(named(conditioned)).path == FLOAT_PATH
    monkeypatch.setattr(certified, "certify_dense_fast", unavailable)
    assert certify_matrix(named(conditioned)).path == ARB_PATH
    assert TAKEN_PATHS == (APRIORI_PATH, GRAM_PATH, FLOAT_PATH, ARB_PATH)


def test_a_gram_certificate_leaving_the_rank_undecided_is_not_taken():
    values = [1.0, 2.0**-30, 0.5]  # 2^-30 is near the numerical-rank tolerance 1e-10 * 16 * 1
    w = planted(16, 16, values, seed=8)
    gram = certify_gram_fast(w)
    assert not certified_numerical_rank(gram.enclosure).decided  # sqrt of a u-sized residual: ~1e-8
    assert certify_matrix(named(w)).path != GRAM_PATH
