"""Spectra: singular values, rank tolerance and norms, dense and through thin factors; bad input."""

from __future__ import annotations

import numpy as np
import pytest

from numerics.spectra.matrices import NamedMatrix
from numerics.spectra.spectrum import numerical_rank, spectrum
from theory.errors import InvalidArgument
from theory.proxy import MatrixKind


def test_diagonal_matrix_norms_by_hand():
    s = spectrum(np.array([[3.0, 0.0, 0.0], [0.0, -4.0, 0.0]]))
    assert s.singular_values.tolist() == [4.0, 3.0]
    assert s.shape == (2, 3)
    assert s.rank == 2
    assert s.spectral_norm == 4.0
    assert s.frobenius_norm == pytest.approx(5.0, rel=1e-15)
    assert s.nuclear_norm == 7.0
    assert s.norm_21 == 7.0  # column norms 3, 4, 0
    assert s.norm_11 == 7.0
    assert s.stable_rank == pytest.approx(25 / 16, rel=1e-15)


def test_norm_21_sums_columns_in_row_vector_orientation():
    w = np.array([[3.0, 1.0], [4.0, 0.0]])
    assert spectrum(w).norm_21 == pytest.approx(5.0 + 1.0, rel=1e-15)
    assert spectrum(w.T).norm_21 == pytest.approx(np.hypot(3, 1) + 4.0, rel=1e-15)


def test_rank_tolerance_is_the_authors_one():
    # tolerance 1e-10 * max(count, 1) * max(sigma_1, 1)
    assert numerical_rank(np.array([1.0, 5e-10]), 2) == 2  # 5e-10 > 2e-10
    assert numerical_rank(np.array([1.0, 5e-10]), 10) == 1  # 5e-10 < 1e-9
    assert numerical_rank(np.array([0.5, 1.5e-10]), 2) == 1  # sigma_1 < 1 counts as 1
    assert numerical_rank(np.array([100.0, 1.5e-8]), 2) == 1
    assert numerical_rank(np.array([100.0, 2.5e-8]), 2) == 2


def test_thin_product_matches_dense_svd():
    rng = np.random.default_rng(1)
    left, right = rng.standard_normal((40, 5)), rng.standard_normal((30, 5))
    product = NamedMatrix(0, 0, MatrixKind.QK, left, right)
    s = spectrum(product)
    dense = left @ right.T
    expected = np.linalg.svd(dense, compute_uv=False)
    assert s.shape == (40, 30)
    assert s.singular_values.shape == (5,)
    np.testing.assert_allclose(s.singular_values, expected[:5], rtol=1e-12)
    assert s.rank == 5
    assert s.norm_21 == pytest.approx(np.linalg.norm(dense, axis=0).sum(), rel=1e-12)
    assert s.norm_11 == pytest.approx(np.abs(dense).sum(), rel=1e-12)
    assert s.frobenius_norm == pytest.approx(np.linalg.norm(dense), rel=1e-12)
    assert s.nuclear_norm == pytest.approx(expected[:5].sum(), rel=1e-12)


def test_rank_of_a_product_uses_the_product_size_in_the_tolerance():
    # core singular values 1 and 5e-10: with count = min(shape) = 10 the tolerance is 1e-9, so rank 1
    left = np.zeros((10, 2))
    left[0, 0], left[1, 1] = 1.0, 5e-10
    right = np.zeros((10, 2))
    right[0, 0], right[1, 1] = 1.0, 1.0
    assert spectrum(NamedMatrix(0, 0, MatrixKind.VT, left, right)).rank == 1
    assert spectrum(np.diag([1.0, 5e-10])).rank == 2


def test_small_singular_values_keep_float64_accuracy():
    # the Gram-matrix eigenvalue route loses about 1e-3 relative on sigma_min = 1e-7
    rng = np.random.default_rng(2)
    q1, _ = np.linalg.qr(rng.standard_normal((60, 60)))
    q2, _ = np.linalg.qr(rng.standard_normal((60, 60)))
    sigma = np.logspace(0, -7, 60)
    s = spectrum((q1 * sigma) @ q2.T)
    np.testing.assert_allclose(s.singular_values, sigma, rtol=1e-7)


def test_float32_input_is_upcast_exactly():
    w32 = np.random.default_rng(3).standard_normal((6, 4)).astype(np.float32)
    assert np.array_equal(spectrum(w32).singular_values, spectrum(w32.astype(np.float64)).singular_values)


@pytest.mark.parametrize(
    ("matrix", "message"),
    [
        (np.array([[1.0, np.nan]]), "NaN or infinite"),
        (np.array([[np.inf, 1.0]]), "NaN or infinite"),
        (np.ones(3), "2-D"),
        (np.ones((0, 3)), "2-D"),
    ],
)
def test_bad_matrices_raise_invalid_argument(matrix, message):
    with pytest.raises(InvalidArgument, match=message):
        spectrum(matrix)


@pytest.mark.parametrize(
    ("matrix", "rank", "nuclear"),
    [
        (np.zeros((8, 8)), 0, 0.0),  # a pruned head
        (np.diag([1e-300] + [0.0] * 7), 1, 1e-300),  # below the absolute floor: the exact rank
        (np.diag([5e-10] * 8), 8, 4e-9),
        (np.full((2, 2), 1e-300), 1, 2e-300),  # rank one: [[1, 1], [1, 1]] times 1e-300
    ],
)
def test_zero_and_tiny_matrices_have_their_exact_rank(matrix, rank, nuclear):
    """Hand values: a diagonal matrix's singular values are its |diagonal|; the zero matrix has no
    nonzero one, so rank 0 and every norm 0 (a pruned head, C_p = 0)."""
    s = spectrum(matrix)
    assert s.rank == rank and s.nuclear_norm == pytest.approx(nuclear, rel=1e-12, abs=0.0)
    assert s.frobenius_norm <= s.nuclear_norm and np.isfinite(s.stable_rank)


def test_a_pruned_head_product_has_rank_0_and_contribution_0():
    """QK_h = Wq_h^T Wk_h with a zero query block is the zero matrix: rank 0 and C_p = 0 at every p."""
    from numerics.bounds.posthoc import choose_p

    zero = NamedMatrix(3, 1, MatrixKind.QK, np.zeros((4, 2)), np.ones((4, 2)))
    s = spectrum(zero)
    assert s.rank == 0 and s.spectral_norm == 0.0 and s.norm_21 == 0.0 and s.norm_11 == 0.0
    assert float(choose_p(s, 10.0, 4, m=4).value_grid) == 0.0


def test_errors_name_the_matrix():
    bad = NamedMatrix(0, -1, MatrixKind.M_IN, np.array([[1.0, np.nan]]))
    with pytest.raises(InvalidArgument, match=r"L0\.M_in"):
        spectrum(bad)


def test_norms_of_huge_entries_stay_finite():
    s = spectrum(np.array([[1e200, 0.0], [1e200, 3.0]]))
    assert s.norm_21 == pytest.approx(np.sqrt(2) * 1e200 + 3.0, rel=1e-15)
    assert s.norm_11 == pytest.approx(2e200 + 3.0, rel=1e-15)
    product = spectrum(
        NamedMatrix(0, 0, MatrixKind.QK, np.array([[1e160], [1e160]]), np.array([[1e140], [0.0]]))
    )
    assert product.norm_11 == pytest.approx(2e300, rel=1e-15)
    assert product.norm_21 == pytest.approx(np.sqrt(2) * 1e300, rel=1e-15)


def test_single_threaded_blas_restores_the_thread_count_and_respects_the_user(monkeypatch):
    from numerics.spectra.blas import _openblas, single_threaded_blas

    functions = _openblas()
    if functions is None:
        pytest.skip("numpy is not linked to OpenBLAS here")
    getter, setter = functions
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    suite_count = getter()  # one thread (tests/conftest.py): every later test's BLAS runs with it
    setter(2)
    try:
        with single_threaded_blas():
            assert getter() == 1
        assert getter() == 2
        monkeypatch.setenv("OPENBLAS_NUM_THREADS", "2")
        with single_threaded_blas():
            assert getter() == 2
    finally:
        setter(suite_count)


def test_a_wide_matrix_takes_the_tall_orientation_and_keeps_its_singular_values():
    rng = np.random.default_rng(5)
    wide = rng.standard_normal((6, 40))
    expected = np.linalg.svd(wide, compute_uv=False)
    seen = []

    def recording(matrix):
        seen.append(matrix.shape)
        return np.linalg.svd(matrix, compute_uv=False)

    from numerics.spectra.backend import NUMPY_LINALG, Linalg

    linalg = Linalg("recording", recording, NUMPY_LINALG.triangular_factor)
    values = spectrum(wide, linalg=linalg).singular_values
    assert seen == [(40, 6)]  # LAPACK saw the tall transpose
    np.testing.assert_allclose(values, expected, rtol=1e-13)  # last digits may differ, nothing more


def test_part_norms_are_the_spectral_norms_of_the_factors_and_the_blocks():
    rng = np.random.default_rng(6)
    left, right = rng.standard_normal((20, 4)), rng.standard_normal((20, 4)) * 3
    product = spectrum(NamedMatrix(0, 0, MatrixKind.QK, left, right), part_norms=True)
    expected = [np.linalg.norm(left, 2), np.linalg.norm(right, 2)]
    np.testing.assert_allclose(product.part_norms, expected, rtol=1e-13)
    gate, up = rng.standard_normal((8, 30)), rng.standard_normal((8, 30)) / 7
    blocks = spectrum(NamedMatrix(0, -1, MatrixKind.M_IN, gate, second_block=up), part_norms=True)
    np.testing.assert_allclose(
        blocks.part_norms, [np.linalg.norm(gate, 2), np.linalg.norm(up, 2)], rtol=1e-13
    )
    assert spectrum(NamedMatrix(0, 0, MatrixKind.QK, left, right)).part_norms == ()  # only when asked
