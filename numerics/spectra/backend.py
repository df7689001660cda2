"""The spectra's linear-algebra backend: the two float64 LAPACK operations a spectrum needs, as a record.

:class:`Linalg` is the protocol :mod:`numerics.spectra.spectrum` computes every spectrum through;
:data:`NUMPY_LINALG` is numpy's LAPACK and :mod:`numerics.spectra.torch_backend` builds torch's. Both are
backward stable, so a singular value computed by either differs from the exact one by O(max(rows, cols)
u sigma_1) (standard: Weyl's inequality; u = 2^-53).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Linalg:
    """The two LAPACK operations every spectrum is computed with, float64: singular values only (no U, V)
    and the triangular factor R of a thin QR. ``name`` says which library ran them (in the output)."""

    name: str
    singular_values: Callable[[np.ndarray], np.ndarray]
    triangular_factor: Callable[[np.ndarray], np.ndarray]
    batches: bool = False
    """Whether :func:`numerics.spectra.spectrum.layer_spectra` stacks a layer's small problems into batched
    calls (both functions then also take a stack of matrices, the first axis the batch): worth it where
    each call has a fixed cost (a GPU kernel launch); numpy's LAPACK keeps one call per matrix (its digits
    stay those of the per-matrix calls)."""


def _numpy_singular_values(matrix: np.ndarray) -> np.ndarray:
    return np.linalg.svd(matrix, compute_uv=False)


def _numpy_triangular_factor(matrix: np.ndarray) -> np.ndarray:
    return np.asarray(np.linalg.qr(matrix, mode="r"))


NUMPY_LINALG = Linalg(
    f"numpy {np.__version__} (LAPACK), float64", _numpy_singular_values, _numpy_triangular_factor
)
"""The default backend: numpy's LAPACK (single-threaded under
:func:`numerics.spectra.blas.single_threaded_blas`)."""
