"""The assembled bound covers the trained read-out w (issue 10, finding 1): K = L (2H + 2) + 1, the read-out
is the K-th matrix in Sigma, the union bound and the peeling, with its own spectrum."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from numerics.bounds import assembled as numeric
from numerics.bounds.assembled import assembled_bound
from tests.helpers.diagonal_models import diagonal_model
from theory import assembled as theorem
from theory.errors import InvalidArgument
from theory.proxy import L

SETTING = {"n": 500, "delta": 0.05, "margin": 0.5, "T": 4}


@pytest.fixture(scope="module")
def diagonal():
    """One layer, N = 4, H = 2, every norm 1 (the hand-computed model of test_proxies)."""
    return diagonal_model(1, *(1.0,) * 6)


def test_matrix_count_includes_the_read_out():
    H = sp.Symbol("H", positive=True, integer=True)
    assert sp.simplify(theorem.MATRIX_COUNT.expr - (L * (2 * H + 2) + 1)) == 0


def test_read_out_is_the_last_matrix_with_its_own_spectrum(diagonal):
    w = np.array([0.0, 3.0, 0.0, 4.0])  # ||w|| = 5: the forward pass uses w / 5, norm 1
    result = assembled_bound(diagonal, **SETTING, readout_weight=w)
    last = result.matrices[-1]
    assert isinstance(last.matrix, numeric.ReadOut)
    assert np.allclose(last.matrix.vector, w / 5)
    assert result.matrix_count == 7 and len(result.matrices) == 7
    # rank 1: p = 0 costs 3 N * 1 = 12 (every p > 0 adds its balanced term to 3N), gamma = b = alpha = 1
    assert (last.p, last.term, last.gamma, last.input_bound, last.alpha) == (0, 12, 1, 1, 1)
    assert last.dimension == 4 and last.schatten_shell == 0
    assert result.sigma == sum(row.term for row in result.matrices)


def test_read_out_norm_enters_its_spectral_shell(diagonal):
    small = assembled_bound(diagonal, **SETTING, readout_weight=np.array([0.01, 0, 0, 0]))
    unit = assembled_bound(diagonal, **SETTING, readout_weight=np.array([1.0, 0, 0, 0]))
    # shells 2^{j/4} (L = 1): ceil(4 log2 0.01) = -26 for the small read-out, 0 for the unit one
    assert (small.matrices[-1].spectral_shell, unit.matrices[-1].spectral_shell) == (-26, 0)
    assert small.peel_cost > unit.peel_cost  # the peeling pays for the index |j| = 26


def test_without_a_trained_read_out_the_class_worst_case_is_covered(diagonal):
    assert np.array_equal(numeric.readout(None, 4).vector, [1.0, 0.0, 0.0, 0.0])
    default = assembled_bound(diagonal, **SETTING)
    explicit = assembled_bound(diagonal, **SETTING, readout_weight=np.array([1.0, 0, 0, 0]))
    assert default.gap == explicit.gap


def test_bad_read_out_is_a_clear_error(diagonal):
    with pytest.raises(InvalidArgument, match="hidden size 4"):
        assembled_bound(diagonal, **SETTING, readout_weight=np.ones(3))
    with pytest.raises(InvalidArgument, match="NaN"):
        assembled_bound(diagonal, **SETTING, readout_weight=np.array([np.nan, 0, 0, 0]))


def test_synthetic_models_feed_their_trained_read_out():
    pytest.importorskip("torch", reason="synthetic models need torch (specbound[models])")
    from numerics.synthetic import model as synthetic_model
    from numerics.synthetic.gap import trained_bound
    from numerics.synthetic.model import SyntheticConfig
    from numerics.synthetic.tasks import SparseSelectionTask
    from numerics.synthetic.train import TrainingConfig, train_synthetic

    task = SparseSelectionTask(hidden_size=8, seq_len=5, relevant=(1, 2, 3), noise=0.3)
    trained = train_synthetic(
        SyntheticConfig(num_layers=1, hidden_size=8), task, TrainingConfig(n_train=32, epochs=5)
    )
    w = trained.model.readout.weight.detach().numpy()[0]
    assert np.array_equal(synthetic_model.readout_weight(trained.model), w)
    bound = trained_bound(trained, margin=0.25)
    last = bound.matrices[-1]
    assert isinstance(last.matrix, numeric.ReadOut)
    assert np.allclose(last.matrix.vector, w / max(1.0, float(np.linalg.norm(w))))
