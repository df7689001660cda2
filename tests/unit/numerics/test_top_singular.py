"""sigma_1 without an SVD (numerics.spectra.top_singular): an upper bound, within 2^-24 of the SVD's value.

References: numpy's SVD of the same matrix (backward stable: its sigma_1 is within a few units of
roundoff of the exact one), and planted spectra whose sigma_1 is known exactly.
"""

from __future__ import annotations

import numpy as np
import pytest

from numerics.spectra import top_singular
from numerics.spectra.matrices import NamedMatrix
from numerics.spectra.spectrum import spectrum
from numerics.spectra.top_singular import UNIT_ROUNDOFF, top_singular_upper
from theory.kinds import MatrixKind

SLACK = 2.0**-24
"""The certificate's relative shift on sigma_1^2 (top_singular.SHIFT), so at most that on sigma_1."""
SVD_ERROR = 64 * UNIT_ROUNDOFF
"""What numpy's sigma_1 may be off by, relative, at these sizes (reference's own error)."""


def _factor(rows: int, cols: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.linalg.qr(rng.standard_normal((rows, cols)) / np.sqrt(cols), mode="r")


@pytest.mark.parametrize(
    ("rows", "cols", "seed"),
    # 1500 x 600: 13 s wall at load 10
    [pytest.param(1500, 600, 0, marks=pytest.mark.slow), (700, 520, 1), (600, 600, 2)],
)
def test_the_bound_is_above_the_svds_sigma_1_and_within_the_shift(rows, cols, seed):
    factor = _factor(rows, cols, seed)
    exact = np.linalg.svd(factor, compute_uv=False)[0]
    upper = top_singular_upper(factor)
    assert upper is not None
    assert exact * (1 - SVD_ERROR) <= upper <= exact * (1 + SLACK)


def test_a_planted_spectrum_with_a_double_top_value_is_bounded_tightly():
    # diag(s) between exact orthogonal factors (permutations and signs): sigma_1 = 3 exactly, twice
    rng = np.random.default_rng(3)
    values = np.concatenate([[3.0, 3.0], rng.uniform(0.0, 2.9, 598)])
    planted = (np.diag(values) * rng.choice([-1.0, 1.0], 600))[rng.permutation(600)][:, rng.permutation(600)]
    upper = top_singular_upper(planted)
    assert upper is not None and 3.0 <= upper <= 3.0 * (1 + SLACK)
    assert top_singular_upper(planted.T) == pytest.approx(upper, rel=SLACK)


def test_the_zero_matrix_has_sigma_1_zero():
    assert top_singular_upper(np.zeros((600, 600))) == 0.0


@pytest.mark.slow  # about 10 CPU s
def test_an_unconverged_estimate_fails_the_certificate_instead_of_giving_a_low_value(monkeypatch):
    factor = _factor(900, 600, 4)
    exact = np.linalg.svd(factor, compute_uv=False)[0]
    monkeypatch.setattr(top_singular, "lanczos_top_eigenvalue", lambda a, steps=0: 0.98 * exact**2)
    assert top_singular_upper(factor) is None
    # the spectra then take the SVD's value: a gated M_in's part norms, blocks of 600 columns
    blocks = [np.ascontiguousarray(_factor(900, 600, seed).T) for seed in (5, 6)]
    matrix = NamedMatrix(0, -1, MatrixKind.M_IN, blocks[0], second_block=blocks[1])
    parts = spectrum(matrix, part_norms=True).part_norms
    svd = [np.linalg.svd(block, compute_uv=False)[0] for block in blocks]
    assert parts == pytest.approx(svd, rel=SVD_ERROR)


@pytest.mark.slow  # about 11 CPU s
def test_a_gated_m_ins_part_norms_are_upper_bounds_of_each_blocks_sigma_1():
    rng = np.random.default_rng(7)
    blocks = [rng.standard_normal((600, 1400)) / 40.0 for _ in range(2)]  # M_in = [W_gate^T, W_up^T]
    matrix = NamedMatrix(0, -1, MatrixKind.M_IN, blocks[0], second_block=blocks[1])
    parts = spectrum(matrix, part_norms=True).part_norms
    for part, block in zip(parts, blocks, strict=True):
        exact = np.linalg.svd(block, compute_uv=False)[0]
        assert exact * (1 - SVD_ERROR) <= part <= exact * (1 + SLACK)


@pytest.mark.parametrize("in_place", [True, False], ids=["dpotrf", "numpy"])
def test_the_cholesky_test_agrees_with_the_eigenvalues(monkeypatch, in_place):
    if not in_place:
        monkeypatch.setattr(top_singular, "_potrf", lambda: None)
    elif top_singular._potrf() is None:
        pytest.skip("numpy's OpenBLAS exports no dpotrf here")
    rng = np.random.default_rng(8)
    for shift in (-0.5, 0.5, 3.0):
        x = rng.standard_normal((40, 40))
        matrix = x @ x.T / 40 - (1.0 - shift) * np.eye(40)
        smallest = np.linalg.eigvalsh(matrix)[0]
        if abs(smallest) > 1e-6:
            assert top_singular.cholesky_succeeds(matrix.copy()) == (smallest > 0)


def test_the_triangular_gram_equals_the_product_within_its_rounding_bound():
    factor = _factor(800, 600, 7)
    gram = top_singular._gram(factor)
    exact_order = factor @ factor.T  # another summation order of the same products
    absolute = np.abs(factor) @ np.abs(factor).T
    bound = 2 * top_singular._gamma(600) * absolute  # each within gamma_n |R||R|^T of the exact product
    assert np.array_equal(gram, gram.T)
    assert np.all(np.abs(gram - exact_order) <= bound)


def test_a_factor_with_one_entry_below_the_diagonal_is_not_taken_as_triangular():
    # the planted mistake: the triangular product would ignore that entry
    factor = _factor(800, 600, 8)
    factor[400, 3] = 1.0
    assert np.allclose(top_singular._gram(factor), factor @ factor.T, rtol=0, atol=1e-12)
