"""The a priori (gamma_k) certificates against independent references: exact rational products (Fractions),
planted matrices with exactly known singular values, and mpmath at 50 digits; planted errors (a perturbed
eigenvalue, tampered eigenvectors, a tampered bound) must never give a ball that misses the exact value."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from flint import arb

from numerics.certify.apriori import column_norm_sum, rounded_gram, rounded_product
from numerics.certify.certified import APRIORI_PATH, certify_matrix
from numerics.certify.fast import (
    APRIORI_BOUNDS,
    certify_gram_fast,
    certify_product_fast,
    norm_21_product_apriori,
)
from numerics.spectra.matrices import NamedMatrix
from tests.helpers.float_intervals import encloses, relative_width
from tests.helpers.planted_matrices import assert_contains, planted
from theory.proxy import MatrixKind


def exact_product(left: np.ndarray, right: np.ndarray) -> list[list[Fraction]]:
    return [
        [
            sum((Fraction(left[i, t]) * Fraction(right[t, j]) for t in range(left.shape[1])), Fraction(0))
            for j in range(right.shape[1])
        ]
        for i in range(left.shape[0])
    ]


def frobenius_distance(computed: np.ndarray, exact: list[list[Fraction]]) -> Fraction:
    """||computed - exact||_F^2 (exact rational)."""
    return sum(
        (Fraction(computed[i, j]) - exact[i][j]) ** 2 for i in range(len(exact)) for j in range(len(exact[0]))
    )


@pytest.mark.parametrize("seed", range(2))
def test_rounded_products_are_within_their_bounds_exactly(seed):
    rng = np.random.default_rng(seed)
    left, right = rng.standard_normal((7, 40)) * 10.0 ** rng.uniform(-3, 3), rng.standard_normal((40, 5))
    product, bound = rounded_product(left, right)
    squared = frobenius_distance(product, exact_product(left, right))
    assert 0 < squared <= Fraction(bound) ** 2
    gram, gram_bound = rounded_gram(right.T)
    squared = frobenius_distance(gram, exact_product(right, right.T))
    assert squared <= Fraction(gram_bound) ** 2


def test_column_norm_sum_contains_the_mpmath_value_and_is_tight():
    rng = np.random.default_rng(3)
    matrix = rng.standard_normal((60, 9)) * np.array([10.0 ** (k - 4) for k in range(9)])
    with mpmath.workdps(50):
        reference = sum(
            mpmath.sqrt(sum(mpmath.mpf(float(x)) ** 2 for x in matrix[:, j])) for j in range(matrix.shape[1])
        )
        bounds = column_norm_sum(matrix)
        assert encloses(bounds, arb(mpmath.nstr(reference, 45)))
    assert relative_width(bounds) < 2e-13
    assert encloses(column_norm_sum(np.zeros((3, 2))), 0)


def test_product_norm_contains_the_mpmath_value():
    rng = np.random.default_rng(4)
    a, b = rng.standard_normal((30, 4)), rng.standard_normal((20, 4))
    with mpmath.workdps(50):
        m = mpmath.matrix(a.tolist()) * mpmath.matrix(b.tolist()).T
        reference = sum(mpmath.norm(m[:, j], 2) for j in range(m.cols))
        assert encloses(norm_21_product_apriori(a, b), arb(mpmath.nstr(reference, 45)))


def singular_values_mpmath(matrix: np.ndarray) -> list[str]:
    with mpmath.workdps(50):
        values = mpmath.svd_r(mpmath.matrix(matrix.tolist()), compute_uv=False)
        return [mpmath.nstr(v, 45) for v in sorted(values, reverse=True)]


@pytest.mark.parametrize("shape", [(12, 30), (30, 12), (16, 16)])
def test_apriori_gram_certificate_contains_mpmath_singular_values(shape):
    matrix = np.random.default_rng(sum(shape)).standard_normal(shape) * 1e-3
    certificate = certify_gram_fast(matrix, bounds=APRIORI_BOUNDS)
    for ball, value in zip(certificate.enclosure.balls, singular_values_mpmath(matrix), strict=True):
        assert ball.contains(arb(value))
    assert not certificate.loose and certificate.enclosure.max_relative_width() < 1e-10


def test_apriori_product_certificate_contains_planted_and_mpmath_values():
    rng = np.random.default_rng(9)
    a, b = rng.standard_normal((24, 4)), rng.standard_normal((18, 4))
    certificate = certify_product_fast(a, b, bounds=APRIORI_BOUNDS)
    for ball, value in zip(certificate.enclosure.balls, singular_values_mpmath(a @ b.T)[:4], strict=True):
        assert ball.contains(arb(value))  # a @ b.T's float rounding is far below the 45 digits compared
    assert certificate.enclosure.structural_zeros == 14 and not certificate.loose
    values = [4.0, 2.0, 1.0, 0.5]
    w = planted(16, 16, values, seed=2)
    assert_contains(
        certify_matrix(NamedMatrix(0, -1, MatrixKind.M_IN, w)).enclosure.balls, values + [0.0] * 12
    )


def test_auto_path_takes_the_apriori_certificate_on_a_planted_matrix():
    values = [3.0, 2.5, 2.0, 1.5]
    certified = certify_matrix(NamedMatrix(0, -1, MatrixKind.M_IN, planted(4, 64, values, seed=1)))
    assert certified.path == APRIORI_PATH
    assert_contains(certified.enclosure.balls, values)


def test_a_perturbed_eigenvalue_is_not_accepted():
    values = [4.0, 3.0, 2.0, 1.5]
    w = planted(4, 16, values, seed=7)
    gram = w @ w.T
    eigenvalues, q = np.linalg.eigh(gram)
    for relative in (1e-12, 1e-6, 1e-2):
        planted_l = eigenvalues.copy()
        planted_l[-1] *= 1 + relative  # the largest: sigma_1^2 = 16 is claimed as 16 (1 + relative)
        certificate = certify_gram_fast(w, (planted_l, q), bounds=APRIORI_BOUNDS)
        assert_contains(certificate.enclosure.balls, values)  # the exact values stay inside
        top = certificate.enclosure.balls[0]
        assert top.rad() >= (np.sqrt(1 + relative) - 1) * 4 * 0.99  # the planted shift is in the radius
    assert certificate.loose  # 1e-2 relative: far too wide to be taken by the auto path
    tampered = q.copy()
    tampered[:, 0] *= 1 + 1e-4  # eigenvectors no longer orthonormal: the defect widens every ball
    certificate = certify_gram_fast(w, (eigenvalues, tampered), bounds=APRIORI_BOUNDS)
    assert_contains(certificate.enclosure.balls, values)


def test_a_tampered_gram_bound_lets_the_enclosure_miss():
    """The bound of (A1) carries the certificate: zeroing it (a planted error in the bound) gives balls that
    miss a planted singular value, which the true bound never does (checked above)."""
    w = planted(16, 64, [4.0, 3.0, 2.0, 1.5] * 4, seed=5) * (1 + 2.0**-30)
    honest = certify_gram_fast(w, bounds=APRIORI_BOUNDS).enclosure.balls
    original = rounded_gram

    def unbounded(tall):
        gram, _ = original(tall)
        return gram + 1e-9 * np.eye(gram.shape[0]), arb(0)  # an error of 1e-9 claimed as none

    tampered = certify_gram_fast(w, bounds=replace(APRIORI_BOUNDS, gram=unbounded)).enclosure.balls
    truth = sorted([4.0, 3.0, 2.0, 1.5] * 4, reverse=True)
    scale = arb(1) + arb(2) ** -30
    assert all(b.contains(scale * v) for b, v in zip(honest, truth, strict=True))
    assert not all(b.contains(scale * v) for b, v in zip(tampered, truth, strict=True))
