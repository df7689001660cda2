"""The generalization gap of a trained synthetic transformer, measured on a large held-out sample.

For a margin gamma in (0, 1] the ramp loss ramp_gamma(u) (1 for u <= 0, 1 - u/gamma on (0, gamma), 0
beyond; ``theory.assembled.RAMP_LOSS``) of the margin u = y f(X) dominates the 0-1 loss 1[u <= 0].
A margin bound states  R_01(f) <= Rhat_ramp(f) + B  and  R_ramp(f) <= Rhat_ramp(f) + B, so the
quantities a bound B must dominate are

- ``margin_gap`` = R_01 - Rhat_ramp  (the 0-1 statement), and
- ``ramp_gap``   = R_ramp - Rhat_ramp (the ramp statement);

``gap_01`` = R_01 - Rhat_01 is reported for reference (it is what a reader calls "the gap").
The risks R are estimated on m fresh samples; by Hoeffding's inequality and a union bound over the two
estimates, with probability >= 1 - delta_test both are within

    h = sqrt( ln(4 / delta_test) / (2 m) )

of their means (standard: Hoeffding 1963, Thm 1), so ``*_upper`` = estimate + h is an upper confidence
limit of each gap at level 1 - delta_test. With m = 20000 and delta_test = 0.05, h = 0.0105.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from math import log, sqrt

import numpy as np

from numerics.evaluate import compiled
from numerics.synthetic_train import TrainedModel
from theory.assembled import RAMP_LOSS
from theory.errors import InvalidArgument

HELD_OUT_SEED = 1_000_003
"""Seed of the held-out sample (training uses ``TrainingConfig.seed``, a small integer)."""


def ramp_loss(margins: np.ndarray, margin: float) -> np.ndarray:
    """``theory.assembled.RAMP_LOSS`` at every margin u (1 for u <= 0, 0 for u >= gamma), lambdified.

    >>> ramp_loss(np.array([-1.0, 0.0, 0.05, 0.1, 0.5]), 0.1).tolist()
    [1.0, 1.0, 0.5, 0.0, 0.0]
    >>> ramp_loss(np.array([0.25]), 0.5).tolist()
    [0.5]
    """
    return np.asarray(
        compiled(RAMP_LOSS, "numpy")(np.asarray(margins, dtype=np.float64), margin), dtype=np.float64
    )


def hoeffding_half_width(m: int, delta: float, estimates: int = 2) -> float:
    """sqrt(ln(2 * estimates / delta) / (2 m)): two-sided Hoeffding for ``estimates`` [0,1]-means at once.

    >>> round(hoeffding_half_width(20000, 0.05), 4)
    0.0105
    """
    return sqrt(log(2 * estimates / delta) / (2 * m))


@dataclass(frozen=True)
class GapMeasurement:
    """Training and held-out 0-1 and ramp risks of one model at one margin, with the test half-width."""

    n_train: int
    n_test: int
    margin: float
    delta_test: float
    train_error: float
    test_error: float
    train_ramp: float
    test_ramp: float
    half_width: float

    @property
    def gap_01(self) -> float:
        """Rhat_01(test) - Rhat_01(train)."""
        return self.test_error - self.train_error

    @property
    def margin_gap(self) -> float:
        """Rhat_01(test) - Rhat_ramp(train): what the 0-1 statement of a margin bound controls."""
        return self.test_error - self.train_ramp

    @property
    def ramp_gap(self) -> float:
        """Rhat_ramp(test) - Rhat_ramp(train): what the ramp statement controls."""
        return self.test_ramp - self.train_ramp

    @property
    def margin_gap_upper(self) -> float:
        """Upper confidence limit of the 0-1 margin gap (level 1 - delta_test)."""
        return self.margin_gap + self.half_width

    @property
    def ramp_gap_upper(self) -> float:
        """Upper confidence limit of the ramp gap (level 1 - delta_test)."""
        return self.ramp_gap + self.half_width

    def as_dict(self) -> dict[str, float]:
        """All fields and the derived gaps, for JSON."""
        out: dict[str, float] = dict(asdict(self))
        for name in ("gap_01", "margin_gap", "ramp_gap", "margin_gap_upper", "ramp_gap_upper"):
            out[name] = getattr(self, name)
        return out


def measure_gap(
    trained: TrainedModel, margin: float = 0.1, n_test: int = 20000, delta_test: float = 0.05
) -> GapMeasurement:
    """Measure the risks of ``trained`` on its training sample and on ``n_test`` fresh samples of its task."""
    if not 0 < margin <= 1:
        raise InvalidArgument(f"margin={margin!r} must be in (0, 1]: the model's outputs lie in [-1, 1]")
    if not isinstance(n_test, int) or n_test < 1:
        raise InvalidArgument(f"n_test={n_test!r} must be an integer >= 1")
    if not 0 < delta_test < 1:
        raise InvalidArgument(f"delta_test={delta_test!r} must be in (0, 1)")
    train = trained.train_sample
    test = trained.task.sample(n_test, seed=HELD_OUT_SEED)
    train_margins = train.labels * trained.outputs(train.inputs)
    test_margins = test.labels * trained.outputs(test.inputs)
    return GapMeasurement(
        n_train=len(train),
        n_test=n_test,
        margin=margin,
        delta_test=delta_test,
        train_error=float(np.mean(train_margins <= 0)),
        test_error=float(np.mean(test_margins <= 0)),
        train_ramp=float(np.mean(ramp_loss(train_margins, margin))),
        test_ramp=float(np.mean(ramp_loss(test_margins, margin))),
        half_width=hoeffding_half_width(n_test, delta_test),
    )
