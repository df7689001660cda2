"""Deterministic training of a synthetic transformer on a synthetic task (CPU, seconds per model).

Full-batch Adam on the logistic loss of the scaled margin, mean_i log(1 + exp(-y_i f(X_i) / tau)):
no mini-batch sampling and no dropout, so the same (config, task, training) always gives the same
weights. Nothing here is part of the bound: training only produces the function whose generalization
gap :mod:`numerics.synthetic.gap` measures.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from numerics.loading.weights import TransformerWeights
from numerics.synthetic.model import SyntheticConfig, build_model, to_weights
from numerics.synthetic.tasks import Sample, Task
from theory.errors import InvalidArgument, require

if TYPE_CHECKING:  # pragma: no cover
    import torch


@dataclass(frozen=True)
class TrainingConfig:
    """How to train: sample size n, full-batch Adam steps, learning rate, loss temperature tau, data seed,
    and decoupled weight decay (AdamW-style, Loshchilov & Hutter 2019; 0 is plain Adam).

    >>> TrainingConfig(n_train=0)
    Traceback (most recent call last):
    ...
    theory.errors.InvalidArgument: TrainingConfig n_train=0 must be an integer >= 1
    """

    n_train: int = 256
    epochs: int = 300
    learning_rate: float = 0.01
    temperature: float = 0.05
    seed: int = 0
    weight_decay: float = 0.0

    def __post_init__(self) -> None:
        for attr in ("n_train", "epochs"):
            value = getattr(self, attr)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise InvalidArgument(f"TrainingConfig {attr}={value!r} must be an integer >= 1")
        for attr in ("learning_rate", "temperature"):
            value = getattr(self, attr)
            if not (np.isfinite(value) and value > 0):
                raise InvalidArgument(f"TrainingConfig {attr}={value!r} must be a finite number > 0")
        if not (np.isfinite(self.weight_decay) and self.weight_decay >= 0):
            raise InvalidArgument(
                f"TrainingConfig weight_decay={self.weight_decay!r} must be a finite number >= 0"
            )


@dataclass(frozen=True, eq=False)
class TrainedModel:
    """A trained synthetic transformer with everything needed to measure its gap and bound."""

    config: SyntheticConfig
    task: Task
    training: TrainingConfig
    model: Any = field(repr=False)
    train_sample: Sample = field(repr=False)
    final_loss: float
    seconds: float

    @cached_property
    def weights(self) -> TransformerWeights:
        """The trained projections as :class:`TransformerWeights` (computed once)."""
        return to_weights(self.model, f"synthetic {self.config.label} on {self.task.name}")

    def outputs(self, inputs: np.ndarray, batch: int = 4096) -> np.ndarray:
        """f(X) for every X in ``inputs`` (n, T, N), in float64, by batches, without gradients."""
        return predict(self.model, inputs, batch)


def _tensor(array: np.ndarray) -> torch.Tensor:
    return require("torch", purpose="training a synthetic transformer").from_numpy(
        np.ascontiguousarray(array, dtype=np.float64)
    )


def predict(model: torch.nn.Module, inputs: np.ndarray, batch: int = 4096) -> np.ndarray:
    """The model's outputs f(X) on ``inputs`` (n, T, N) as a float64 array of shape (n,)."""
    with require("torch", purpose="training a synthetic transformer").no_grad():
        parts = [model(_tensor(inputs[i : i + batch])).numpy() for i in range(0, len(inputs), batch)]
    return np.concatenate(parts).astype(np.float64)


def train(model: torch.nn.Module, task: Task, training: TrainingConfig | None = None) -> TrainedModel:
    """Train ``model`` (from :func:`build_model`) on ``training.n_train`` samples of ``task``.

    The training sample is ``task.sample(n_train, seed=training.seed)``; held-out samples for the gap
    must use other seeds (:mod:`numerics.synthetic.gap` does).
    """
    torch = require("torch", purpose="training a synthetic transformer")

    training = training or TrainingConfig()
    config: SyntheticConfig = model.config  # type: ignore[assignment]
    if task.hidden_size != config.hidden_size:
        raise InvalidArgument(
            f"task {task.name} has hidden_size={task.hidden_size} but the model has N={config.hidden_size}; "
            "build the task with the model's hidden size"
        )
    start = time.perf_counter()
    sample = task.sample(training.n_train, seed=training.seed)
    inputs, labels = _tensor(sample.inputs), _tensor(sample.labels)
    optimiser = torch.optim.Adam(
        model.parameters(),
        lr=training.learning_rate,
        weight_decay=training.weight_decay,
        decoupled_weight_decay=True,
    )
    loss = torch.zeros(())
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny matrices: one thread is faster than two contending ones
    try:
        model.train()
        for _ in range(training.epochs):
            optimiser.zero_grad()
            loss = torch.nn.functional.softplus(-labels * model(inputs) / training.temperature).mean()
            loss.backward()
            optimiser.step()
    finally:
        torch.set_num_threads(threads)
        model.eval()
    final = float(loss.detach())
    if not np.isfinite(final):
        raise InvalidArgument(
            f"training {config.label} on {task.name} diverged (loss {final}); lower learning_rate="
            f"{training.learning_rate}"
        )
    return TrainedModel(config, task, training, model, sample, final, time.perf_counter() - start)


def train_synthetic(
    config: SyntheticConfig, task: Task, training: TrainingConfig | None = None
) -> TrainedModel:
    """``train(build_model(config), task, training)``: a fresh model trained from ``config.seed``."""
    return train(build_model(config), task, training)
