"""The assembled bound dominates the measured generalization gap of trained synthetic transformers.

A few models are trained once per session (training is the expensive part): different seeds, sizes,
heads and tasks (clean and noisy labels), more of them under the thorough profile. Hypothesis then draws
a model, a margin and a confidence delta; the bound (theory.assembled GAP_TERM on the model's weights,
numerics.bounds.assembled.assembled_bound) must be at least the upper confidence limit of both the 0-1 margin
gap and the ramp gap measured on 20000 held-out samples. ``check_dominates`` takes the formula, so
``test_mutants.py`` can run the same property on a broken bound and see it fail.
"""

from __future__ import annotations

import functools

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_lemmas_numeric import property_settings

from numerics.bounds.assembled import AssembledBound
from numerics.synthetic.gap import GapMeasurement, gap_term_at, measure_gap, trained_bound
from numerics.synthetic.model import SyntheticConfig
from numerics.synthetic.tasks import SparseSelectionTask
from numerics.synthetic.train import TrainedModel, TrainingConfig
from theory import assembled
from theory.formula import Formula

pytestmark = pytest.mark.torch

MARGINS = (0.1, 0.25, 0.5)

_SETTINGS = (
    # (L, N, heads, noise, seed)
    (1, 8, 1, 0.2, 0),
    (2, 8, 2, 0.3, 1),
    (1, 16, 1, 0.0, 2),
    (2, 16, 1, 0.1, 3),
)
_THOROUGH_SETTINGS = ((3, 8, 1, 0.2, 4), (1, 16, 2, 0.3, 5), (2, 16, 2, 0.0, 6), (1, 32, 1, 0.2, 7))


@functools.cache
def trained_models() -> tuple[TrainedModel, ...]:
    """The session's trained models (4 under the ci profile, 8 under thorough); trained on first use."""
    pytest.importorskip("torch", reason="training the synthetic transformers needs torch (specbound[models])")
    from hypothesis import settings

    from numerics.synthetic.train import train_synthetic

    chosen = _SETTINGS + (_THOROUGH_SETTINGS if settings().max_examples >= 100 else ())
    return tuple(
        train_synthetic(
            SyntheticConfig(num_layers=layers, hidden_size=width, num_heads=heads, seed=seed),
            SparseSelectionTask(hidden_size=width, seq_len=6, relevant=(1, 2, 4), noise=noise, seed=seed),
            TrainingConfig(n_train=128, epochs=150, seed=seed),
        )
        for layers, width, heads, noise, seed in chosen
    )


@functools.cache
def _measured(index: int, margin: float) -> tuple[GapMeasurement, AssembledBound]:
    trained = trained_models()[index]
    return measure_gap(trained, margin=margin, n_test=20000), trained_bound(trained, margin=margin)


def check_dominates(formula: Formula, fail_fast: bool = False) -> None:
    """bound(delta) >= upper confidence limit of the 0-1 margin gap and of the ramp gap, on every draw."""
    count = len(trained_models())

    @property_settings(fail_fast)
    @given(st.integers(0, count - 1), st.sampled_from(MARGINS), st.floats(1e-4, 0.5))
    def run(index, margin, delta):
        gap, assembled_bound = _measured(index, margin)
        bound = gap_term_at(assembled_bound, delta, formula=formula)
        assert bound >= gap.margin_gap_upper, (trained_models()[index].config.label, bound, gap)
        assert bound >= gap.ramp_gap_upper, (trained_models()[index].config.label, bound, gap)

    run()


def test_assembled_bound_dominates_the_measured_gap():
    check_dominates(assembled.GAP_TERM)


def test_the_session_models_have_real_gaps_to_dominate():
    # the domination check is not vacuous: the noisy tasks leave a gap far above the interval half-width
    gaps = [_measured(i, 0.25)[0] for i in range(len(trained_models()))]
    assert max(g.ramp_gap for g in gaps) > 0.1
    assert all(g.half_width < 0.011 for g in gaps)
