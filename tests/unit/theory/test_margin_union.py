"""The assembled bound at a margin measured after training (theory.margin_union, issue 46 item 6).

Checked independently of the code under test: the lemma's self-check passes and its planted false
variant (weights 1/(k+1), whose sum diverges) is rejected; the dyadic index k agrees with
ceil(log2(1/gamma)) in 50-digit mpmath, and 2^-k lies in (gamma/2, gamma]; the bound after training equals
the bound with the margin 2^-k fixed in advance except in the confidence term, whose P grows by
ln(3/2 (k+1)(k+2)), recomputed here by hand from the fixed bound's own K, m and P.
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from numerics.bounds.assembled import assembled_bound, dyadic_margin
from numerics.loading.weights import LayerWeights, ModelShape, TransformerWeights
from theory.margin_union import lemma


def test_the_union_lemma_holds_and_its_control_is_rejected():
    (check,) = lemma().checks
    verdict, witness = check.run()
    assert verdict, witness
    assert check.control is not None and check.control()[0] is False


@pytest.mark.parametrize("margin", [1, 0.5, 0.3, 0.25000001, 0.2499999, 1e-3, 2.0**-40])
def test_the_dyadic_margin_is_the_largest_power_of_two_not_above_the_margin(margin):
    k, dyadic = dyadic_margin(margin)
    with mpmath.workdps(50):
        assert k == int(mpmath.ceil(mpmath.log(1 / mpmath.mpf(margin), 2)))
    assert dyadic == 2.0**-k and margin / 2 < dyadic <= margin


def test_the_bound_after_training_pays_only_the_margins_peeling_cost():
    rng = np.random.default_rng(0)
    layer = LayerWeights(*(rng.standard_normal(s) / 4 for s in [(4, 4)] * 4 + [(8, 4), (4, 8)]))
    weights = TransformerWeights((layer,), ModelShape(4, 1, 1, 8), "random")
    footing = {"n": 1000, "delta": 0.1, "T": 8}
    after = assembled_bound(weights, margin=0.3, margin_after_training=True, **footing)
    fixed = assembled_bound(weights, margin=0.25, **footing)
    assert after.margin_index == 2 and float(after.margin) == 0.25 and fixed.margin_index is None
    assert after.sigma == fixed.sigma and after.sensitivity == fixed.sensitivity
    with mpmath.workdps(50):
        before = mpmath.log(2 / mpmath.mpf(0.1)) + fixed.matrix_count * mpmath.log(2 * fixed.m + 1)
        before += fixed.peel_cost
        cost = mpmath.log(mpmath.mpf(3) / 2 * 3 * 4)
        expected = 3 * (mpmath.sqrt((before + cost) / 2000) - mpmath.sqrt(before / 2000))
        assert abs((after.gap - fixed.gap) - expected) < mpmath.mpf(10) ** -30
        assert after.peel_cost - fixed.peel_cost == pytest.approx(float(cost), rel=1e-15)


@pytest.mark.slow
def test_a_trained_model_is_bounded_at_each_dyadic_margin_and_at_the_best():
    """Each margin's row: the training ramp risk recomputed here from the model's outputs, and the GAP of
    the bound with that margin fixed plus the peeling cost ln(3/2 (k+1)(k+2)) (as above); the best row is
    the smallest sum."""
    pytest.importorskip("torch", reason="synthetic models need torch (specbound[models])")
    from numerics.synthetic.gap import trained_bound
    from numerics.synthetic.margin_choice import best_margin, margin_choices
    from numerics.synthetic.model import SyntheticConfig
    from numerics.synthetic.tasks import SparseSelectionTask
    from numerics.synthetic.train import TrainingConfig, train_synthetic

    task = SparseSelectionTask(hidden_size=8, seq_len=5, relevant=(1, 2, 3), noise=0.3)
    trained = train_synthetic(
        SyntheticConfig(num_layers=1, hidden_size=8), task, TrainingConfig(n_train=32, epochs=5)
    )
    choices = margin_choices(trained, delta=0.1, max_index=2)
    train = trained.train_sample
    outputs = train.labels * trained.outputs(train.inputs)
    for choice in choices:
        gamma = 2.0**-choice.index
        ramp = np.mean(np.where(outputs <= 0, 1.0, np.clip(1 - outputs / gamma, 0.0, 1.0)))
        assert choice.margin == gamma and choice.train_ramp == pytest.approx(ramp, abs=1e-15)
        fixed = trained_bound(trained, margin=gamma, delta=0.1)
        with mpmath.workdps(50):
            before = mpmath.log(20) + fixed.matrix_count * mpmath.log(2 * fixed.m + 1) + fixed.peel_cost
            cost = mpmath.log(mpmath.mpf(3) / 2 * (choice.index + 1) * (choice.index + 2))
            extra = 3 * (mpmath.sqrt((before + cost) / 64) - mpmath.sqrt(before / 64))
            assert choice.gap == pytest.approx(float(fixed.gap + extra), rel=1e-12)
    assert best_margin(choices).bound == min(choice.bound for choice in choices)
