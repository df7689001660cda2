"""The assembled bound against the measured generalization gap of trained synthetic transformers.

A few models are trained once per session (training is the expensive part): different seeds, sizes, heads
and tasks (clean and noisy labels), more of them under the thorough profile. :func:`check_dominates` takes
the formula, so tests/property/test_bound_dominates_gap.py runs it on theory.assembled's GAP_TERM and
tests/property/test_mutants.py on a broken bound, which must fail it."""

from __future__ import annotations

import functools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from numerics.bounds.assembled import AssembledBound
from numerics.synthetic.gap import GapMeasurement, gap_term_at, measure_gap, trained_bound
from numerics.synthetic.model import SyntheticConfig
from numerics.synthetic.tasks import SparseSelectionTask
from numerics.synthetic.train import TrainedModel, TrainingConfig
from tests.helpers.formula_properties import property_settings
from theory.formula import Formula

MARGINS = (0.1, 0.25, 0.5)
"""The margins gamma at which the gap is measured and bounded."""


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
def measured(index: int, margin: float) -> tuple[GapMeasurement, AssembledBound]:
    """The index-th session model's gap at the margin (20000 held-out samples) and its assembled bound."""
    trained = trained_models()[index]
    return measure_gap(trained, margin=margin, n_test=20000), trained_bound(trained, margin=margin)


def check_dominates(formula: Formula, fail_fast: bool = False) -> None:
    """bound(delta) >= upper confidence limit of the 0-1 margin gap and of the ramp gap, on every draw."""
    count = len(trained_models())

    @property_settings(fail_fast)
    @given(st.integers(0, count - 1), st.sampled_from(MARGINS), st.floats(1e-4, 0.5))
    def run(index, margin, delta):
        gap, assembled_bound = measured(index, margin)
        bound = gap_term_at(assembled_bound, delta, formula=formula)
        assert bound >= gap.margin_gap_upper, (trained_models()[index].config.label, bound, gap)
        assert bound >= gap.ramp_gap_upper, (trained_models()[index].config.label, bound, gap)

    run()
