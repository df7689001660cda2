"""The synthetic grid of the scaling study: small BERT-style encoders trained on CPU, and their points."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from numerics.spectra.torch_backend import single_thread
from paper_checks.scaling.points import Origin, ScalingPoint, point
from theory.errors import InvalidArgument

if TYPE_CHECKING:
    from numerics.synthetic import TrainedModel

TRAINING = "training the synthetic models"
"""What torch is needed for here, for the one line a missing torch gives."""


@dataclass(frozen=True)
class SyntheticGrid:
    """The depth x width grid of small BERT-style encoders trained on CPU for the study.

    Head dimension ``head_dim`` throughout (heads = N / head_dim, as the BERT miniatures keep 64), FFN 4N,
    trained on the sparse-selection task of :mod:`numerics.synthetic` (a synthetic objective) with
    label-noise rate ``noise``.
    """

    depths: tuple[int, ...]
    widths: tuple[int, ...]
    head_dim: int = 8
    n_train: int = 64
    epochs: int = 100
    learning_rate: float = 0.005
    noise: float = 0.1
    seed: int = 0


QUICK_GRID = SyntheticGrid(depths=(1, 2, 3), widths=(8, 16, 32))
"""The small grid ``specbound check`` trains (9 models, about 12 s on one core; every model fits its
training sample, train error <= 0.03: at lr 0.01 or depth 4 some did not, and an unfitted model's
proxies say nothing about scaling)."""

FULL_GRID = SyntheticGrid(
    depths=(1, 2, 3, 4), widths=(8, 16, 32, 64), n_train=128, epochs=150, learning_rate=0.003
)
"""The larger grid behind ``specbound scaling``."""


def train_grid_models(grid: SyntheticGrid) -> tuple[TrainedModel, ...]:
    """Train every (L, N) of ``grid`` on CPU (numerics.synthetic), heads N / head_dim, label noise
    ``grid.noise`` (so the models have a real generalization gap for claim 12)."""
    from numerics.progress import progress
    from numerics.synthetic import SparseSelectionTask, SyntheticConfig, TrainingConfig, train_synthetic

    sizes = [(depth, width) for depth in grid.depths for width in grid.widths]
    bad = [w for w in grid.widths if w % grid.head_dim]
    if bad:
        raise InvalidArgument(f"grid widths {bad} are not multiples of head_dim={grid.head_dim}")
    models = []
    with single_thread(TRAINING):
        for depth, width in progress(sizes, len(sizes), "synthetic grid", unit="model"):
            config = SyntheticConfig(
                num_layers=depth, hidden_size=width, num_heads=width // grid.head_dim, seed=grid.seed
            )
            task = SparseSelectionTask(hidden_size=width, noise=grid.noise, seed=grid.seed)
            training = TrainingConfig(
                n_train=grid.n_train, epochs=grid.epochs, learning_rate=grid.learning_rate, seed=grid.seed
            )
            models.append(train_synthetic(config, task, training))
    return tuple(models)


def synthetic_points(models: Sequence[TrainedModel]) -> list[ScalingPoint]:
    """The proxies of trained synthetic models (origin ``synthetic``)."""
    from numerics.bounds.proxies import proxies

    points = []
    for trained in models:
        label = f"synthetic {trained.config.label}"
        points.append(
            point(label, Origin.SYNTHETIC, "synthetic grid", proxies(trained.weights, source=label))
        )
    return points
