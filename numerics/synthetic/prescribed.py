"""Matrices with a prescribed spectrum, U diag(sigma) V^T with Haar U and V (numpy only): the designed
weights of :mod:`numerics.synthetic.designed` and the property strategies of :mod:`numerics.strategies`."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def haar_orthogonal(n: int, rng: np.random.Generator) -> np.ndarray:
    """A Haar-distributed n x n orthogonal matrix: Q of a Gaussian QR, columns signed by diag(R)."""
    q, r = np.linalg.qr(rng.standard_normal((n, n)))
    return q * np.where(np.diag(r) < 0, -1.0, 1.0)


@dataclass(frozen=True, eq=False)
class PrescribedMatrix:
    """A matrix built as U diag(sigma) V^T and its prescribed singular values (min(rows, cols) of them)."""

    matrix: np.ndarray
    singular_values: np.ndarray

    @property
    def rank(self) -> int:
        """The number of nonzero prescribed singular values (exact by construction)."""
        return int(np.count_nonzero(self.singular_values))


def with_spectrum(singular_values: np.ndarray, rows: int, cols: int, seed: int) -> PrescribedMatrix:
    """U[:, :k] diag(sigma) V[:, :k]^T (k = len(sigma) <= min(rows, cols)) with Haar U, V from ``seed``."""
    rng = np.random.default_rng(seed)
    k = len(singular_values)
    u = haar_orthogonal(rows, rng)[:, :k]
    v = haar_orthogonal(cols, rng)[:, :k]
    padded = np.zeros(min(rows, cols))
    padded[:k] = singular_values
    return PrescribedMatrix((u * singular_values) @ v.T, padded)
