"""A dense matrix certified at its stored width (float16/float32): no whole float64 copy, the same sound
enclosures.

References, independent of the certificates: mpmath's SVD and square roots at 60 digits, exact Fraction
sums of squares, and the float64 upcast's own certificate (the same exact matrix).
"""

from __future__ import annotations

import tracemalloc
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from numerics.certify.fast import APRIORI_BOUNDS, SPLIT_BOUNDS, certify_gram_fast, norm_21_dense_fast
from numerics.certify.float_bounds import at_exact_width, square_sum


def _mpmath_singular_values(w: np.ndarray) -> list[mpmath.mpf]:
    with mpmath.workdps(60):
        return sorted(
            mpmath.svd_r(mpmath.matrix(w.astype(np.float64).tolist()), compute_uv=False), reverse=True
        )


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
@pytest.mark.parametrize("bounds", [APRIORI_BOUNDS, SPLIT_BOUNDS], ids=["apriori", "split"])
def test_a_narrow_matrix_is_enclosed_as_its_float64_upcast(dtype, bounds):
    w = (np.random.default_rng(5).standard_normal((9, 20)) * 0.3).astype(dtype)
    narrow = certify_gram_fast(w, bounds=bounds).enclosure
    wide = certify_gram_fast(w.astype(np.float64), bounds=bounds).enclosure
    truth = _mpmath_singular_values(w)
    for low, high, value in zip(narrow.lower.tolist(), narrow.upper.tolist(), truth, strict=True):
        assert mpmath.mpf(low) <= value <= mpmath.mpf(high)
    # the same exact matrix and the same float64 products: the same enclosures, not merely sound ones
    np.testing.assert_array_equal(narrow.lower, wide.lower)
    np.testing.assert_array_equal(narrow.upper, wide.upper)


def test_square_sum_of_a_float32_array_contains_the_exact_sum():
    x = (np.random.default_rng(2).standard_normal((33, 7)) * 1e-3).astype(np.float32)
    exact = sum(Fraction(float(v)) ** 2 for v in x.ravel())
    low, high = square_sum(x)
    assert Fraction(low) <= exact <= Fraction(high)
    assert square_sum(np.asfortranarray(x)) == (low, high)  # a Fortran-ordered view, same sum


def test_norm_21_of_a_float32_matrix_contains_the_exact_norm():
    w = (np.random.default_rng(3).standard_normal((12, 40)) * 4).astype(np.float32)
    with mpmath.workdps(60):
        truth = mpmath.fsum(
            mpmath.sqrt(mpmath.fsum(mpmath.mpf(float(v)) ** 2 for v in w[:, j])) for j in range(w.shape[1])
        )
        low, high = norm_21_dense_fast(w)
        assert mpmath.mpf(low) <= truth <= mpmath.mpf(high)
    assert (low, high) == norm_21_dense_fast(w.astype(np.float64))


def test_exact_widths_stay_and_others_are_upcast():
    for dtype in (np.float16, np.float32, np.float64):
        x = np.ones((2, 2), dtype=dtype)
        assert at_exact_width(x) is x
    assert at_exact_width(np.ones((2, 2), dtype=np.int64)).dtype == np.float64


def _traced_peak(work) -> int:
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_the_certificate_of_a_float32_matrix_makes_no_float64_copy_of_it():
    w = np.random.default_rng(7).standard_normal((64, 8192)).astype(np.float32)
    copy_bytes = w.size * 8  # 4 MiB; the Gram certificate's own arrays are 64 x 64, the norm's blocks 2^15
    for work in (lambda: certify_gram_fast(w, bounds=APRIORI_BOUNDS), lambda: norm_21_dense_fast(w)):
        work()  # first-call allocations
        assert _traced_peak(work) < copy_bytes / 4
    # the measure can fail: the float64 upcast counts
    assert _traced_peak(lambda: certify_gram_fast(w.astype(np.float64), bounds=APRIORI_BOUNDS)) >= copy_bytes
