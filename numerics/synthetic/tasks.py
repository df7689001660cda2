"""Synthetic binary classification tasks with a known target, for the synthetic transformers.

A task is a distribution over (X, y) with X in R^{T x N} (rows of norm exactly 1, as the theory
assumes) and y in {-1, +1}. It is an object with ``hidden_size``, ``seq_len``, ``name``,
``bayes_error`` and ``sample(n, seed) -> Sample``; any object with these works with
:func:`numerics.synthetic.train.train` and :mod:`numerics.synthetic.gap`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol

import numpy as np

from theory.errors import InvalidArgument


@dataclass(frozen=True, eq=False)
class Sample:
    """n labelled sequences: ``inputs`` (n, T, N) float64 with unit rows, ``labels`` (n,) in {-1.0, +1.0}.

    ``clean_labels`` are the target's labels before label noise (equal to ``labels`` without noise).
    """

    inputs: np.ndarray
    labels: np.ndarray
    clean_labels: np.ndarray

    def __len__(self) -> int:
        return int(self.labels.shape[0])


class Task(Protocol):
    """What training and gap measurement need from a task."""

    @property
    def hidden_size(self) -> int: ...

    @property
    def seq_len(self) -> int: ...

    @property
    def name(self) -> str: ...

    @property
    def bayes_error(self) -> float: ...

    def sample(self, n: int, seed: int) -> Sample: ...


@dataclass(frozen=True)
class SparseSelectionTask:
    """Sparse token selection: the label is the majority class of the tokens at a few positions.

    Tokens t_1..t_T are uniform over a vocabulary of V symbols; every symbol v has a fixed class
    c(v) in {-1, +1} (half of each, drawn from ``seed``). The target is
    y = sign(sum_{j in relevant} c(t_j)) (an odd number of positions, so no ties), and with
    probability ``noise`` the observed label is flipped, independently per sample: the Bayes error is
    then exactly ``noise`` and a model that fits its training labels must have a real gap.
    Row t of X is e(t_j) + q_j normalised to norm 1, with fixed Gaussian token embeddings e and position
    codes q drawn from ``seed``.

    >>> task = SparseSelectionTask(hidden_size=8, seq_len=6, relevant=(1, 4))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    theory.errors.InvalidArgument: SparseSelectionTask relevant=(1, 4) must be an odd number ... in [0, 6)
    >>> sample = SparseSelectionTask(hidden_size=8, seq_len=6).sample(5, seed=1)
    >>> sample.inputs.shape
    (5, 6, 8)
    >>> set(sample.labels.tolist()) <= {-1.0, 1.0}
    True
    """

    hidden_size: int = 16
    seq_len: int = 8
    vocab_size: int = 8
    relevant: tuple[int, ...] = (1, 2, 3)
    noise: float = 0.0
    seed: int = 0

    def __post_init__(self) -> None:
        for attr, low in (("hidden_size", 2), ("seq_len", 1), ("vocab_size", 2)):
            value = getattr(self, attr)
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise InvalidArgument(f"SparseSelectionTask {attr}={value!r} must be an integer >= {low}")
        positions = tuple(self.relevant)
        if (
            len(positions) % 2 == 0
            or len(set(positions)) != len(positions)
            or not all(isinstance(j, int) and 0 <= j < self.seq_len for j in positions)
        ):
            raise InvalidArgument(
                f"SparseSelectionTask relevant={positions} must be an odd number of distinct positions "
                f"in [0, {self.seq_len})"
            )
        if not 0.0 <= self.noise < 0.5:
            raise InvalidArgument(f"SparseSelectionTask noise={self.noise!r} must be in [0, 0.5)")

    @property
    def name(self) -> str:
        """``sparse-selection`` or ``noisy-sparse-selection(0.2)``."""
        return f"noisy-sparse-selection({self.noise:g})" if self.noise else "sparse-selection"

    @property
    def bayes_error(self) -> float:
        """The smallest achievable 0-1 risk: the label-noise rate (the target is deterministic)."""
        return float(self.noise)

    def with_noise(self, noise: float) -> SparseSelectionTask:
        """The same task with label-noise rate ``noise`` (the noisy-label variant)."""
        return replace(self, noise=noise)

    def _codes(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        rng = np.random.default_rng([self.seed, 0x7A5C])
        scale = 1.0 / np.sqrt(self.hidden_size)
        tokens = rng.standard_normal((self.vocab_size, self.hidden_size)) * scale
        positions = rng.standard_normal((self.seq_len, self.hidden_size)) * scale
        classes = np.where(rng.permutation(self.vocab_size) < self.vocab_size // 2, -1.0, 1.0)
        return tokens, positions, classes

    def sample(self, n: int, seed: int) -> Sample:
        """n i.i.d. labelled sequences; the same (task, n, seed) always gives the same sample."""
        if not isinstance(n, int) or n < 1:
            raise InvalidArgument(f"sample size n={n!r} must be an integer >= 1")
        embeddings, positions, classes = self._codes()
        rng = np.random.default_rng([self.seed, 0x5A3F, seed])
        tokens = rng.integers(0, self.vocab_size, size=(n, self.seq_len))
        rows = embeddings[tokens] + positions[None, :, :]
        inputs = rows / np.linalg.norm(rows, axis=-1, keepdims=True)
        clean = np.sign(classes[tokens[:, list(self.relevant)]].sum(axis=1))
        flips = rng.random(n) < self.noise
        return Sample(inputs, np.where(flips, -clean, clean), clean)
