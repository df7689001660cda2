"""The spectra's linear-algebra backend: the two float64 LAPACK operations a spectrum needs, as a record.

:class:`Linalg` is the protocol :mod:`numerics.spectra.spectrum` computes every spectrum through;
:data:`NUMPY_LINALG` is numpy's LAPACK and :mod:`numerics.spectra.torch_backend` builds torch's. Both are
backward stable, so a singular value computed by either differs from the exact one by O(max(rows, cols)
u sigma_1) (standard: Weyl's inequality; u = 2^-53).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from theory.records import record


@record
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


TWO_STAGE_MIN_ORDER = 2048
"""From this order on (both sides at least this) numpy's backend takes a matrix's singular values by the
two-stage bidiagonalisation of :mod:`numerics.spectra.two_stage` instead of dgesdd (measured 2.8x less
CPU at n = 2048 and 3.3x at 4096, 1.2x at 1024, where the matrix fits the cache; docs: benchmarks, wave 7
LLaMA layer), and its R factor by that module's wider-block QR; smaller matrices (all of MiniLM's and
BERT's) keep dgesdd, dgeqrf and their digits: below 2048 the gain is not worth new last digits."""


def _numpy_singular_values(matrix: np.ndarray) -> np.ndarray:
    """np.linalg.svd's values, or from :data:`TWO_STAGE_MIN_ORDER` on the two-stage values of the matrix
    itself (square) or of its R factor (sigma(A) = sigma(R) for A = Q R, in the orientation with more
    rows); dgesdd when numpy's LAPACK lacks the two-stage routines."""
    if matrix.ndim == 2 and min(matrix.shape) >= TWO_STAGE_MIN_ORDER:
        from numerics.spectra.two_stage import two_stage_singular_values  # ctypes: not at start-up

        tall = matrix.T if matrix.shape[0] < matrix.shape[1] else matrix
        # the caller's square matrix is copied; a QR's R is new: either may be overwritten
        is_square = tall.shape[0] == tall.shape[1]
        square = np.array(tall, order="K") if is_square else _numpy_triangular_factor(tall)
        values = two_stage_singular_values(square)
        if values is not None:
            return values
    return np.linalg.svd(matrix, compute_uv=False)


def _numpy_triangular_factor(matrix: np.ndarray) -> np.ndarray:
    """np.linalg.qr's R; from :data:`TWO_STAGE_MIN_ORDER` on (both sides at least that) the same
    Householder QR with a wider block (:func:`numerics.spectra.two_stage.triangular_factor`)."""
    if matrix.ndim == 2 and min(matrix.shape) >= TWO_STAGE_MIN_ORDER:
        from numerics.spectra.two_stage import triangular_factor  # ctypes: not at start-up

        factor = triangular_factor(matrix)
        if factor is not None:
            return factor
    return np.asarray(np.linalg.qr(matrix, mode="r"))


NUMPY_LINALG = Linalg(
    f"numpy {np.__version__} (LAPACK), float64", _numpy_singular_values, _numpy_triangular_factor
)
"""The default backend: numpy's LAPACK (single-threaded under
:func:`numerics.spectra.blas.single_threaded_blas`)."""
