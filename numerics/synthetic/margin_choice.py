"""The assembled bound at the margin chosen after training (theory.margin_union) on a trained synthetic model.

At each dyadic margin 2^-k (k = 0, ..., ``max_index``): the training ramp risk at 2^-k plus GAP_TERM at
2^-k with PEEL_COST(k) added to P (:func:`numerics.bounds.assembled.assembled_bound` with
``margin_after_training``). The union over dyadic margins makes every k valid at once, so the smallest of
these sums is a bound at confidence 1 - delta on the 0-1 test error; a margin gamma between two dyadic ones
has the GAP of the dyadic 2^-k <= gamma and a ramp risk at gamma at least the one at 2^-k, so the dyadic
margins are the only ones worth trying. The spectra are computed once for every k.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from numerics.bounds.assembled import assembled_bound
from numerics.spectra.model import matrix_spectra
from numerics.synthetic.gap import ramp_loss, training_margins
from numerics.synthetic.model import readout_weight
from numerics.synthetic.train import TrainedModel
from theory.errors import InvalidArgument

MAX_MARGIN_INDEX = 8
"""The smallest margin tried is 2^-8: the trained synthetic models' outputs lie in [-1, 1]."""


@dataclass(frozen=True)
class MarginChoice:
    """The bound at one dyadic margin 2^-k: training ramp risk there plus the union's GAP_TERM."""

    index: int
    margin: float
    train_ramp: float
    gap: float

    @property
    def bound(self) -> float:
        """train_ramp + gap: the bound on the 0-1 test error at this margin."""
        return self.train_ramp + self.gap

    def as_dict(self) -> dict[str, float]:
        """The fields and the bound."""
        return {**asdict(self), "bound": self.bound}


def margin_choices(
    trained: TrainedModel, *, delta: float, max_index: int = MAX_MARGIN_INDEX
) -> tuple[MarginChoice, ...]:
    """The bound at every dyadic margin 2^-k, k = 0, ..., ``max_index`` (module docstring)."""
    if not isinstance(max_index, int) or isinstance(max_index, bool) or max_index < 0:
        raise InvalidArgument(f"max_index={max_index!r} must be a non-negative integer")
    spectra = matrix_spectra(trained.weights)
    margins = training_margins(trained)
    choices = []
    for k in range(max_index + 1):
        bound = assembled_bound(
            spectra,
            n=len(trained.train_sample),
            delta=delta,
            margin=2.0**-k,
            T=trained.task.seq_len,
            readout_weight=readout_weight(trained.model),
            margin_after_training=True,
        )
        ramp = float(np.mean(ramp_loss(margins, 2.0**-k)))
        choices.append(MarginChoice(k, 2.0**-k, ramp, float(bound.gap)))
    return tuple(choices)


def best_margin(choices: tuple[MarginChoice, ...]) -> MarginChoice:
    """The choice of the smallest bound (the largest margin on ties)."""
    return min(choices, key=lambda choice: (choice.bound, choice.index))
