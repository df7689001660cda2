"""The public strategies draw what they promise: prescribed spectra, valid weights and configurations."""

from __future__ import annotations

import numpy as np
from hypothesis import find, given
from hypothesis import strategies as st

from numerics.spectra.matrices import extract_matrices
from numerics.spectra.spectrum import spectrum
from numerics.strategies import (
    haar_orthogonal,
    matrices_with_spectrum,
    schatten_indices,
    sparse_selection_tasks,
    spectra,
    synthetic_configs,
    training_configs,
    transformer_weights,
)


@given(matrices_with_spectrum())
def test_matrix_has_the_prescribed_singular_values(drawn):
    computed = np.linalg.svd(drawn.matrix, compute_uv=False)
    top = float(drawn.singular_values[0])
    np.testing.assert_allclose(computed, drawn.singular_values, rtol=0, atol=1e-12 * max(top, 1.0) * 10)


@given(matrices_with_spectrum(kinds=("low_rank",)))
def test_low_rank_matrices_are_exactly_low_rank(drawn):
    assert spectrum(drawn.matrix).rank == drawn.rank


@given(spectra(size=st.integers(2, 10)))
def test_spectra_are_descending_and_nonnegative(sigma):
    assert np.all(sigma >= 0) and np.all(np.diff(sigma) <= 0) and sigma[0] > 0


@given(spectra(size=6, kinds=("power_law",)))
def test_power_law_spectra_follow_c_i_to_the_minus_beta(sigma):
    # log sigma_i is affine in log i, with a nonpositive slope (-beta)
    slopes = np.diff(np.log(sigma)) / np.diff(np.log(np.arange(1, 7)))
    assert np.allclose(slopes, slopes[0], atol=1e-9) and slopes[0] <= 1e-12


@given(spectra(size=5, kinds=("flat",)))
def test_flat_spectra_are_flat(sigma):
    assert np.all(sigma == sigma[0])


@given(st.integers(1, 9), st.integers(0, 2**32 - 1))
def test_haar_factors_are_orthogonal(n, seed):
    q = haar_orthogonal(n, np.random.default_rng(seed))
    np.testing.assert_allclose(q.T @ q, np.eye(n), atol=1e-12)


@given(schatten_indices())
def test_schatten_indices_lie_in_zero_two(p):
    assert 0.0 <= p <= 2.0


def test_schatten_indices_reach_both_endpoints():
    assert find(schatten_indices(), lambda p: p == 0.0) == 0.0
    assert find(schatten_indices(), lambda p: p == 2.0) == 2.0
    assert 0 < find(schatten_indices(), lambda p: 0 < p < 2 and p != 1.0) < 2


@given(transformer_weights(num_layers=2, hidden_size=8, num_heads=2))
def test_transformer_weights_have_the_requested_shape(weights):
    assert (weights.num_layers, weights.hidden_size, weights.num_heads) == (2, 8, 2)
    assert len(extract_matrices(weights)) == 2 * (2 * 2 + 2)


@given(transformer_weights())
def test_drawn_transformer_weights_are_valid_and_full_rank(weights):
    assert weights.hidden_size % weights.num_heads == 0
    for matrix in extract_matrices(weights):
        expected = weights.head_dim if matrix.is_product else min(matrix.shape)
        assert spectrum(matrix).rank == expected


@given(synthetic_configs(), training_configs())
def test_configurations_are_consistent(config, training):
    assert config.hidden_size % config.num_heads == 0 and config.ffn == 4 * config.hidden_size
    assert training.n_train in (64, 128, 256) and 20 <= training.epochs <= 300


@given(sparse_selection_tasks(hidden_size=8), st.integers(0, 100))
def test_drawn_tasks_sample_unit_rows_and_signs(task, seed):
    sample = task.sample(16, seed)
    assert sample.inputs.shape == (16, task.seq_len, 8)
    assert np.allclose(np.linalg.norm(sample.inputs, axis=-1), 1.0)
    assert set(np.unique(sample.labels)) <= {-1.0, 1.0}
