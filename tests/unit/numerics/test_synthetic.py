"""The synthetic transformer is the theory's network class, and its weights are the bound's matrices."""

from __future__ import annotations

import numpy as np
import pytest

from numerics.spectra.matrices import extract_matrices
from numerics.synthetic.gap import hoeffding_half_width, measure_gap, ramp_loss
from numerics.synthetic.model import SyntheticConfig
from numerics.synthetic.tasks import SparseSelectionTask
from numerics.synthetic.train import TrainingConfig
from theory.errors import InvalidArgument
from theory.proxy import MatrixKind

torch = pytest.importorskip("torch", reason="the synthetic transformers need torch (specbound[models])")
from numerics.synthetic.model import build_model, to_weights  # noqa: E402
from numerics.synthetic.train import predict, train, train_synthetic  # noqa: E402

pytestmark = pytest.mark.torch


def _unit_rows(x: np.ndarray) -> np.ndarray:
    return x / np.maximum(1.0, np.linalg.norm(x, axis=-1, keepdims=True))


def _gelu(x: np.ndarray) -> np.ndarray:
    from math import erf, sqrt

    return x * 0.5 * (1.0 + np.vectorize(erf)(x / sqrt(2.0)))


def _reference_forward(weights, readout: np.ndarray, inputs: np.ndarray) -> np.ndarray:
    """The theory's network written with the extracted matrices: sum_h softmax(X QK_h X^T) X Vt_h, etc."""
    by_layer: dict[int, list] = {}
    for matrix in extract_matrices(weights):
        by_layer.setdefault(matrix.layer, []).append(matrix)
    out = []
    for x in inputs:
        x = _unit_rows(x)
        for layer in range(weights.num_layers):
            mats = by_layer[layer]
            qk = [m.dense() for m in mats if m.kind is MatrixKind.QK]
            vt = [m.dense() for m in mats if m.kind is MatrixKind.VT]
            (m_in,) = [m.dense() for m in mats if m.kind is MatrixKind.M_IN]
            (m_out,) = [m.dense() for m in mats if m.kind is MatrixKind.M_OUT]
            attended = np.zeros_like(x)
            for a, v in zip(qk, vt, strict=True):
                scores = x @ a @ x.T
                probs = np.exp(scores - scores.max(axis=1, keepdims=True))
                attended += (probs / probs.sum(axis=1, keepdims=True)) @ x @ v
            x = _unit_rows(attended)
            x = _unit_rows(_gelu(x @ m_in) @ m_out)
        out.append(x[0] @ readout / max(1.0, float(np.linalg.norm(readout))))
    return np.array(out)


@pytest.mark.parametrize("layers,hidden,heads", [(1, 8, 1), (2, 8, 2), (3, 12, 3)])
def test_forward_pass_is_the_theory_network_on_the_extracted_matrices(layers, hidden, heads):
    config = SyntheticConfig(num_layers=layers, hidden_size=hidden, num_heads=heads, init_scale=3.0)
    model = build_model(config)
    inputs = SparseSelectionTask(hidden_size=hidden, seq_len=5, relevant=(2,)).sample(7, seed=3).inputs
    weights = to_weights(model)
    readout = model.readout.weight.detach().numpy()[0]
    expected = _reference_forward(weights, readout, inputs)
    np.testing.assert_allclose(predict(model, inputs), expected, rtol=1e-10, atol=1e-12)
    assert (weights.num_layers, weights.hidden_size, weights.num_heads, weights.ffn_size) == (
        layers,
        hidden,
        heads,
        4 * hidden,
    )


def test_weights_are_exact_float64_copies_in_linear_layout():
    model = build_model(SyntheticConfig(num_layers=2, hidden_size=8, ffn_size=24))
    weights = to_weights(model)
    assert weights.layers[1].w_in.shape == (24, 8) and weights.layers[1].w_out.shape == (8, 24)
    assert np.array_equal(weights.layers[1].w_out, model.layers[1].w_out.weight.detach().numpy())
    weights.layers[0].wq[0, 0] += 1.0  # a copy: editing it leaves the model alone
    assert weights.layers[0].wq[0, 0] != model.layers[0].wq.weight[0, 0].item()


def test_outputs_are_bounded_by_one_even_with_huge_weights():
    model = build_model(SyntheticConfig(num_layers=2, hidden_size=8, init_scale=50.0))
    inputs = SparseSelectionTask(hidden_size=8).sample(200, seed=0).inputs
    outputs = predict(model, inputs)
    assert np.all(np.abs(outputs) <= 1.0 + 1e-12)
    assert np.max(np.abs(outputs)) > 0.5  # the projection is active, not the weights small


def test_same_seed_same_model_and_training_is_deterministic():
    config = SyntheticConfig(num_layers=1, hidden_size=8, seed=5)
    task = SparseSelectionTask(hidden_size=8, seq_len=4, relevant=(1,))
    training = TrainingConfig(n_train=32, epochs=20)
    first = train_synthetic(config, task, training).weights
    second = train(build_model(config), task, training).weights
    other = train_synthetic(SyntheticConfig(num_layers=1, hidden_size=8, seed=6), task, training).weights
    assert np.array_equal(first.layers[0].w_in, second.layers[0].w_in)
    assert not np.array_equal(first.layers[0].w_in, other.layers[0].w_in)


def test_training_fits_the_clean_sparse_selection_task():
    task = SparseSelectionTask(hidden_size=16, seq_len=6, relevant=(1,))
    config = SyntheticConfig(num_layers=1, hidden_size=16)
    trained = train_synthetic(config, task, TrainingConfig(n_train=128, epochs=200))
    gap = measure_gap(trained, margin=0.1, n_test=4000)
    assert gap.train_error == 0.0
    assert gap.test_error < 0.25  # learned, not memorised: chance is 0.5


def test_task_labels_are_the_majority_of_the_relevant_token_classes():
    task = SparseSelectionTask(hidden_size=8, seq_len=7, vocab_size=6, relevant=(0, 3, 6))
    sample = task.sample(500, seed=11)
    assert np.allclose(np.linalg.norm(sample.inputs, axis=-1), 1.0)
    assert np.array_equal(sample.labels, sample.clean_labels)
    # the label is a function of the rows at the relevant positions only: equal rows there, equal labels
    keys = [tuple(np.round(sample.inputs[i, [0, 3, 6]], 9).ravel()) for i in range(len(sample))]
    seen: dict[tuple, float] = {}
    for key, label in zip(keys, sample.labels, strict=True):
        assert seen.setdefault(key, label) == label
    assert 0.3 < np.mean(sample.labels > 0) < 0.7
    assert np.array_equal(task.sample(500, seed=11).inputs, sample.inputs)


def test_noisy_variant_flips_labels_at_the_stated_rate():
    task = SparseSelectionTask(hidden_size=8).with_noise(0.2)
    sample = task.sample(20000, seed=1)
    rate = float(np.mean(sample.labels != sample.clean_labels))
    assert abs(rate - 0.2) < 4 * np.sqrt(0.2 * 0.8 / 20000)
    assert task.bayes_error == 0.2 and task.name == "noisy-sparse-selection(0.2)"


@pytest.mark.parametrize(
    "make",
    [
        lambda: SyntheticConfig(hidden_size=10, num_heads=3),
        lambda: SyntheticConfig(num_layers=0),
        lambda: SyntheticConfig(init_scale=float("nan")),
        lambda: SparseSelectionTask(noise=0.5),
        lambda: SparseSelectionTask(seq_len=3, relevant=(1, 2, 3)),
        lambda: TrainingConfig(learning_rate=0.0),
    ],
)
def test_bad_configuration_is_a_clear_error(make):
    with pytest.raises(InvalidArgument):
        make()


def test_task_and_model_width_must_agree():
    with pytest.raises(InvalidArgument, match="hidden_size=8"):
        train(build_model(SyntheticConfig(hidden_size=16)), SparseSelectionTask(hidden_size=8))


def test_gap_measurement_is_consistent_and_its_interval_is_small():
    task = SparseSelectionTask(hidden_size=8, seq_len=5, relevant=(1, 2, 3), noise=0.25)
    trained = train_synthetic(
        SyntheticConfig(num_layers=1, hidden_size=8), task, TrainingConfig(n_train=64, epochs=200)
    )
    gap = measure_gap(trained, margin=0.2, n_test=20000)
    assert gap.half_width < 0.011
    assert gap.train_ramp >= gap.train_error and gap.test_ramp >= gap.test_error
    assert gap.margin_gap <= gap.gap_01
    assert gap.test_error > 0.2  # label noise puts the held-out error near or above the Bayes error 0.25
    assert gap.gap_01 > 0.1  # the noisy variant forces a real gap


def test_ramp_dominates_zero_one_and_hoeffding_shrinks():
    u = np.linspace(-1, 1, 101)
    assert np.all(ramp_loss(u, 0.3) >= (u <= 0))
    assert hoeffding_half_width(40000, 0.05) == pytest.approx(hoeffding_half_width(10000, 0.05) / 2)


def _tiny_noisy_model():
    task = SparseSelectionTask(hidden_size=8, seq_len=5, relevant=(1, 2, 3), noise=0.3)
    return train_synthetic(
        SyntheticConfig(num_layers=1, hidden_size=8), task, TrainingConfig(n_train=64, epochs=100)
    )


def test_ratio_table_is_finite_json_and_readable_markdown():
    import json

    from numerics.synthetic.gap import ratio_table

    trained = _tiny_noisy_model()
    table = ratio_table([trained], margin=0.25, delta=0.05, n_test=2000)
    (row,) = table.rows
    assert row.dominates and table.all_dominate
    assert row.ours > row.gap.ramp_gap_upper > 0
    data = json.loads(json.dumps(table.to_json(), allow_nan=False))
    assert data["models"][0]["label"] == "L1-N8-H1 noisy-sparse-selection(0.3) seed 0"
    assert data["per_size"][0]["models"] == 1 and data["all_dominate"] is True
    markdown = table.to_markdown()
    assert "| L1-N8-H1 noisy-sparse-selection(0.3) seed 0 | 64 |" in markdown and "NO" not in markdown


def test_gap_term_at_reproduces_the_assembled_bound_and_falls_with_delta_rising():
    from numerics.synthetic.gap import gap_term_at, trained_bound

    bound = trained_bound(_tiny_noisy_model(), margin=0.25, delta=0.05)
    assert gap_term_at(bound, 0.05) == pytest.approx(float(bound.gap), rel=1e-12)
    assert gap_term_at(bound, 0.5) < gap_term_at(bound, 0.05) < gap_term_at(bound, 0.001)
    with pytest.raises(InvalidArgument, match=r"delta=1\.0"):
        gap_term_at(bound, 1.0)


def test_edelman_type_value_is_the_edelman_shape_times_the_proxy():
    from math import log, sqrt

    from numerics.synthetic.gap import edelman_type_gap

    # B_Edelman / margin sqrt(ln(nT)/n) ln(n) + sqrt(ln(1/delta)/n): Edelman's gap, constants 1
    expected = 8.0 / 0.25 * sqrt(log(600) / 100) * log(100) + sqrt(log(1 / 0.05) / 100)
    assert edelman_type_gap(8.0, 100, 6, margin=0.25, delta=0.05) == pytest.approx(expected, rel=1e-12)


def test_gap_command_rejects_bad_arguments(capsys):
    from paper_checks.cli import main

    assert main(["gap", "--margin", "1.5"]) == 2
    assert main(["gap", "--delta", "0"]) == 2
    assert "--delta=0.0 must be in (0, 1)" in capsys.readouterr().err
