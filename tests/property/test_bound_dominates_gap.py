"""The assembled bound dominates the measured generalization gap of trained synthetic transformers.

A few models are trained once per session (training is the expensive part): different seeds, sizes,
heads and tasks (clean and noisy labels), more of them under the thorough profile. Hypothesis then draws
a model, a margin and a confidence delta; the bound (theory.assembled GAP_TERM on the model's weights,
numerics.bounds.assembled.assembled_bound) must be at least the upper confidence limit of both the 0-1 margin
gap and the ramp gap measured on 20000 held-out samples. ``check_dominates`` (tests.helpers.trained_gaps)
takes the formula, so ``test_mutants.py`` can run the same property on a broken bound and see it fail.

Slow tier (training and measuring the four models costs about 9 CPU s): the fast tier's test of the kind
is tests/unit/numerics/test_synthetic.py's ratio table, one trained noisy model whose bound dominates both
upper confidence limits of its gap at one margin.
"""

from __future__ import annotations

import pytest

from tests.helpers.trained_gaps import check_dominates, measured, trained_models
from theory import assembled

pytestmark = [pytest.mark.torch, pytest.mark.slow]


def test_assembled_bound_dominates_the_measured_gap():
    check_dominates(assembled.GAP_TERM)


def test_the_session_models_have_real_gaps_to_dominate():
    # the domination check is not vacuous: the noisy tasks leave a gap far above the interval half-width
    gaps = [measured(i, 0.25)[0] for i in range(len(trained_models()))]
    assert max(g.ramp_gap for g in gaps) > 0.1
    assert all(g.half_width < 0.011 for g in gaps)
