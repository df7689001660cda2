"""Two-stage singular values and the stacked triangular factor (numerics.spectra.two_stage).

References: planted spectra whose singular values are known exactly (a diagonal between signed
permutations), and numpy's SVD (dgesdd) of the same matrix or of the stack. Tolerance: both are backward
stable, each value within c n u sigma_1 of the exact one (module docstring; Weyl's inequality), so they
differ by at most twice that; c = 4 leaves room for the constant, and a mistake in a transformation or in
the band gives differences of the order of sigma_1 (the planted-mistake test below).
"""

from __future__ import annotations

import numpy as np
import pytest

from numerics.spectra import backend, two_stage
from numerics.spectra.blas import lapack_routine
from numerics.spectra.top_singular import UNIT_ROUNDOFF
from numerics.spectra.two_stage import stacked_triangular_factor, two_stage_singular_values

pytestmark = pytest.mark.skipif(lapack_routine("dgbbrd") is None, reason="numpy's LAPACK lacks dgbbrd")


def tolerance(n: int, top: float) -> float:
    return 2 * 4 * n * UNIT_ROUNDOFF * top


def planted(values: np.ndarray, seed: int) -> np.ndarray:
    """diag(values) between signed permutations: exactly those singular values."""
    rng = np.random.default_rng(seed)
    n = values.size
    signed = np.diag(values) * rng.choice([-1.0, 1.0], n)
    return np.ascontiguousarray(signed[rng.permutation(n)][:, rng.permutation(n)])


@pytest.mark.parametrize(("n", "band"), [(1, 32), (2, 32), (31, 32), (32, 32), (33, 32), (97, 32), (300, 7)])
def test_values_equal_numpys_svd_within_the_backward_error(n, band):
    matrix = np.random.default_rng(n).standard_normal((n, n))
    reference = np.linalg.svd(matrix, compute_uv=False)
    values = two_stage_singular_values(matrix.copy(), band)
    assert values is not None and values.shape == (n,)
    assert np.all(np.diff(values) <= 0) and values[-1] >= 0
    assert np.max(np.abs(values - reference)) <= tolerance(n, reference[0])


def test_a_planted_spectrum_is_recovered_with_its_small_values():
    exact = np.sort(np.concatenate([[5.0, 5.0], np.geomspace(2.0, 1e-9, 198)]))[::-1]
    values = two_stage_singular_values(planted(exact, 0))
    assert values is not None
    assert np.max(np.abs(values - exact)) <= tolerance(exact.size, 5.0)


def test_c_and_fortran_order_give_the_values_of_the_matrix_and_its_transpose():
    matrix = np.random.default_rng(5).standard_normal((150, 150))
    from_c = two_stage_singular_values(matrix.copy())
    from_fortran = two_stage_singular_values(np.asfortranarray(matrix))
    assert from_c is not None and from_fortran is not None
    assert np.max(np.abs(from_c - from_fortran)) <= tolerance(150, from_c[0])


def test_a_band_read_one_diagonal_short_is_caught():
    # the planted mistake: stage 2 given bandwidth b - 1 drops the outermost diagonal of the band
    matrix = np.random.default_rng(6).standard_normal((120, 120))
    reference = np.linalg.svd(matrix, compute_uv=False)
    reduced = np.asfortranarray(matrix)
    two_stage._band_reduce(reduced, 16)
    right = two_stage._band_values(reduced, 16)
    wrong = two_stage._band_values(reduced, 15)
    assert np.max(np.abs(right - reference)) <= tolerance(120, reference[0])
    assert np.max(np.abs(wrong - reference)) > 1e-3 * reference[0]


def test_non_square_input_is_refused():
    with pytest.raises(ValueError, match="square float64"):
        two_stage_singular_values(np.ones((3, 4)))


@pytest.mark.parametrize("n", [1, 40, 129])
def test_stacked_factor_has_the_singular_values_of_the_stack(n):
    rng = np.random.default_rng(n)
    top, bottom = (np.linalg.qr(rng.standard_normal((2 * n + 3, n)), mode="r") for _ in range(2))
    reference = np.linalg.svd(np.vstack([top, bottom]), compute_uv=False)
    combined = stacked_triangular_factor(top.copy(), bottom.copy())
    assert combined is not None and combined.shape == (n, n)
    assert np.array_equal(combined, np.triu(combined))
    values = np.linalg.svd(combined, compute_uv=False)
    assert np.max(np.abs(values - reference)) <= tolerance(2 * n, reference[0])


def test_stacked_factor_refuses_a_fortran_ordered_factor():
    top = np.linalg.qr(np.random.default_rng(0).standard_normal((9, 4)), mode="r")
    with pytest.raises(ValueError, match="C-ordered"):
        stacked_triangular_factor(top.copy(), np.asfortranarray(top))


@pytest.mark.parametrize("shape", [(130, 130), (400, 130), (130, 400)])
def test_the_backend_takes_the_two_stage_values_from_its_order_and_keeps_the_input(monkeypatch, shape):
    monkeypatch.setattr(backend, "TWO_STAGE_MIN_ORDER", 128)
    calls = []
    original = two_stage.two_stage_singular_values
    monkeypatch.setattr(
        two_stage, "two_stage_singular_values", lambda m: calls.append(m.shape) or original(m)
    )
    matrix = np.random.default_rng(7).standard_normal(shape)
    kept = matrix.copy()
    values = backend.NUMPY_LINALG.singular_values(matrix)
    reference = np.linalg.svd(kept, compute_uv=False)
    assert calls == [(130, 130)]
    assert np.array_equal(matrix, kept)
    assert np.max(np.abs(values - reference)) <= tolerance(max(shape), reference[0])


def test_without_the_routines_the_backend_takes_numpys_svd(monkeypatch):
    monkeypatch.setattr(backend, "TWO_STAGE_MIN_ORDER", 64)
    monkeypatch.setattr(two_stage, "lapack_routine", lambda name: None)
    matrix = np.random.default_rng(8).standard_normal((70, 70))
    assert two_stage.two_stage_singular_values(matrix.copy()) is None
    assert two_stage.stacked_triangular_factor(np.triu(matrix), np.triu(matrix)) is None
    assert np.array_equal(
        backend.NUMPY_LINALG.singular_values(matrix), np.linalg.svd(matrix, compute_uv=False)
    )


@pytest.mark.slow
def test_at_the_threshold_order_the_values_equal_dgesdds():
    n = backend.TWO_STAGE_MIN_ORDER
    matrix = np.random.default_rng(9).standard_normal((n + 300, n)) / np.sqrt(n)
    values = backend.NUMPY_LINALG.singular_values(matrix)
    reference = np.linalg.svd(matrix, compute_uv=False)
    assert np.max(np.abs(values - reference)) <= tolerance(n + 300, reference[0])


def test_a_gated_m_in_has_the_same_spectrum_through_the_stacked_factor_and_the_stack(monkeypatch):
    from numerics.spectra.matrices import NamedMatrix
    from numerics.spectra.spectrum import spectrum
    from theory.kinds import MatrixKind

    rng = np.random.default_rng(10)
    gate_t, up_t = (rng.standard_normal((60, 150)) for _ in range(2))
    matrix = NamedMatrix(0, -1, MatrixKind.M_IN, gate_t, second_block=up_t)
    combined = spectrum(matrix, part_norms=True)
    monkeypatch.setattr(two_stage, "lapack_routine", lambda name: None)
    stacked = spectrum(matrix, part_norms=True)
    difference = np.max(np.abs(combined.singular_values - stacked.singular_values))
    assert difference <= tolerance(300, stacked.spectral_norm)
    assert combined.part_norms == stacked.part_norms and combined.rank == stacked.rank == 60


@pytest.mark.parametrize("shape", [(500, 200), (200, 200), (130, 300), (300, 1)])
def test_the_wide_block_qr_has_numpys_r_up_to_row_signs(shape):
    matrix = np.random.default_rng(shape[0]).standard_normal(shape)
    reference = np.linalg.qr(matrix, mode="r")
    factor = two_stage.triangular_factor(matrix)
    assert factor is not None and factor.shape == reference.shape
    assert np.array_equal(factor, np.triu(factor))
    # both are Householder QRs, R unique up to the signs of its rows; each backward stable
    signs = np.sign(np.diag(factor)) * np.sign(np.diag(reference))
    difference = np.max(np.abs(signs[:, None] * factor - reference))
    assert difference <= tolerance(max(shape), np.linalg.norm(matrix, 2))


def test_the_backend_takes_the_wide_block_qr_from_its_order(monkeypatch):
    monkeypatch.setattr(backend, "TWO_STAGE_MIN_ORDER", 100)
    monkeypatch.setattr(two_stage, "QR_BLOCK", 16)
    matrix = np.random.default_rng(11).standard_normal((300, 120))
    factor = backend.NUMPY_LINALG.triangular_factor(matrix)
    small = backend.NUMPY_LINALG.triangular_factor(matrix[:, :99])  # below the order: numpy's own
    assert np.array_equal(small, np.linalg.qr(matrix[:, :99], mode="r"))
    gram_difference = np.max(np.abs(factor.T @ factor - matrix.T @ matrix))
    assert gram_difference <= tolerance(300, np.linalg.norm(matrix, 2) ** 2)
