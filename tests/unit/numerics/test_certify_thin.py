"""Certified singular values of thin products A B^T through certified QR factors and the small core."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from flint import arb

from numerics.certify.fast import certify_product_fast
from numerics.certify.thin import batched_qr, certify_product
from tests.helpers.planted_matrices import assert_contains, hadamard_orthogonal
from theory.errors import CertificationFailed


def planted_factors(n: int, values: list[float], seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A = Q1[:, :d] diag(values) T and B = Q2[:, :d] T^{-T} with T integer unit upper triangular, so that
    A B^T = Q1[:, :d] diag(values) Q2[:, :d]^T exactly (checked with Fractions) while A and B are not
    orthogonal-looking: the QR step has real work to do."""
    rng = np.random.default_rng(seed)
    d = len(values)
    q1, q2 = hadamard_orthogonal(n, rng)[:, :d], hadamard_orthogonal(n, rng)[:, :d]
    t = np.eye(d) + np.triu(rng.integers(-2, 3, size=(d, d)), 1)
    t_inv = np.array(sp.Matrix(t.astype(int)).inv(), dtype=np.float64)
    a = (q1 * np.array(values)) @ t
    b = q2 @ t_inv.T
    product = [
        [sum(Fraction(a[i, k]) * Fraction(b[j, k]) for k in range(d)) for j in range(n)] for i in range(n)
    ]
    planted_m = [
        [
            sum(Fraction(q1[i, k]) * Fraction(values[k]) * Fraction(q2[j, k]) for k in range(d))
            for j in range(n)
        ]
        for i in range(n)
    ]
    assert product == planted_m, "the planted factors are not exact in float64"
    return a, b


VALUES = [6.5, 3.25, 1.0, 0.125]


def fast_product(left, right, factorizations=None):
    """The float-bounds certificate's enclosure (same contract as certify_product)."""
    return certify_product_fast(left, right, factorizations).enclosure


PRODUCT_PATHS = [pytest.param(certify_product, id="arb"), pytest.param(fast_product, id="float-bounds")]
"""Both certificate paths: every planted and corrupted-input test runs on each."""


@pytest.mark.parametrize("product", PRODUCT_PATHS)
def test_planted_product_enclosures_contain_the_exact_values_and_the_rest_are_structural_zeros(product):
    a, b = planted_factors(16, VALUES, seed=0)
    enclosure = product(a, b)
    assert_contains(enclosure.balls, VALUES)
    assert enclosure.structural_zeros == 16 - 4
    assert (enclosure.rows, enclosure.cols) == (16, 16)
    assert enclosure.max_relative_width() < 1e-10


@pytest.mark.parametrize("product", PRODUCT_PATHS)
def test_rank_deficient_core_is_enclosed_around_zero(product):
    a, b = planted_factors(16, [2.0, 1.0, 0.0, 0.0], seed=1)
    enclosure = product(a, b)
    assert_contains(enclosure.balls, [2.0, 1.0, 0.0, 0.0])
    assert enclosure.balls[0] > 0 and enclosure.balls[1] > 0
    assert float(enclosure.balls[3].upper().mid()) < 1e-12


@pytest.mark.parametrize("product", PRODUCT_PATHS)
def test_batched_qr_gives_the_same_certified_values(product):
    pairs = [planted_factors(16, VALUES, seed=s) for s in (2, 3)]
    qrs = batched_qr([a for a, _ in pairs] + [b for _, b in pairs])
    for i, (a, b) in enumerate(pairs):
        assert_contains(product(a, b, (qrs[i], qrs[2 + i])).balls, VALUES)


@pytest.mark.parametrize("product", PRODUCT_PATHS)
def test_corrupted_qr_factor_widens_but_stays_correct(product):
    a, b = planted_factors(16, VALUES, seed=4)
    (qa, ra), qr_b = np.linalg.qr(a), np.linalg.qr(b)
    noisy = qa + 1e-5 * np.random.default_rng(0).standard_normal(qa.shape)
    enclosure = product(a, b, ((noisy, ra), qr_b))
    assert_contains(enclosure.balls, VALUES)
    assert float(enclosure.balls[0].rad()) > 1e-6


@pytest.mark.parametrize("product", PRODUCT_PATHS)
def test_wrong_r_factor_widens_but_stays_correct(product):
    a, b = planted_factors(16, VALUES, seed=5)
    (qa, ra), qr_b = np.linalg.qr(a), np.linalg.qr(b)
    enclosure = product(a, b, ((qa, ra * 1.01), qr_b))
    assert_contains(enclosure.balls, VALUES)
    assert float(enclosure.balls[0].rad()) > 0.01


@pytest.mark.parametrize("product", PRODUCT_PATHS)
def test_non_orthonormal_q_fails_loudly(product):
    a, b = planted_factors(16, VALUES, seed=6)
    (qa, ra), qr_b = np.linalg.qr(a), np.linalg.qr(b)
    with pytest.raises(CertificationFailed, match="orthogonality defect"):
        product(a, b, ((3 * qa, ra / 3), qr_b))


@pytest.mark.parametrize("product", PRODUCT_PATHS)
def test_bad_factors_fail_loudly(product):
    a, b = planted_factors(16, VALUES, seed=7)
    with pytest.raises(CertificationFailed, match="thin factors"):
        product(a, b[:, :3])
    with pytest.raises(CertificationFailed, match="not thin"):
        product(a[:3], b[:3])
    bad = a.copy()
    bad[1, 1] = np.inf
    with pytest.raises(CertificationFailed, match="NaN or infinite"):
        product(bad, b)
    with pytest.raises(CertificationFailed, match="do not fit"):
        product(a, b, (np.linalg.qr(a[:, :3]), np.linalg.qr(b)))


@pytest.mark.parametrize("product", PRODUCT_PATHS)
def test_agrees_with_the_dense_certificate_on_a_random_product(product):
    from numerics.certify.enclosure import certify_dense

    rng = np.random.default_rng(8)
    a, b = rng.standard_normal((24, 4)), rng.standard_normal((24, 4))
    thin, dense = product(a, b), certify_dense(a @ b.T)
    # the float product a @ b.T is not exactly A B^T, so compare up to its rounding (~1e-14)
    for x, y in zip(thin.balls, dense.balls[:4], strict=True):
        assert abs(float(x.mid()) - float(y.mid())) < 1e-12 * float(thin.balls[0].mid())
    assert all(y.upper() < arb(1e-12) for y in dense.balls[4:])
