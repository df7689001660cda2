"""Exact spectra: singular values and the norms the bounds use, from one float64 LAPACK SVD per matrix.

Precision (DESIGN.md, precision habits): the stored weights are upcast to float64 exactly and the
singular values come from LAPACK's SVD of that upcast, never from eigenvalues of the Gram matrix
(which lose the small singular values that S_p depends on for p < 1).

A per-head product M = A B^T (rank <= d_h, SPEC.md section 2) never becomes an N x N SVD: with thin
QR factorisations A = Q_A R_A and B = Q_B R_B, M = Q_A (R_A R_B^T) Q_B^T and Q_A, Q_B have orthonormal
columns, so the nonzero singular values of M are those of the d_h x d_h core R_A R_B^T (standard:
unitary invariance of singular values). The remaining min(rows, cols) - d_h singular values are exact
zeros and are not stored (a dense SVD would return rounding noise there instead).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from numerics.blas import single_threaded_blas
from numerics.gram import gram_values
from numerics.matrices import NamedMatrix
from theory.errors import InvalidArgument

RANK_TOLERANCE = 1e-10
"""Relative tolerance of the numerical rank, as in the authors' ``norms.py`` (exact, SPEC.md section 1)."""


def numerical_rank(singular_values: np.ndarray, count: int) -> int:
    """#{sigma_i > 1e-10 max(count, 1) max(sigma_1, 1)}, ``count`` the number of singular values.

    Provenance: exact (authors' ``norms.py``; SPEC.md section 1). For a product kept as thin factors
    ``count`` is min(rows, cols) of the product, not the number of stored (nonzero) values.

    >>> numerical_rank(np.array([3.0, 1.0, 1e-12]), 3)
    2
    """
    if singular_values.size == 0:
        return 0
    tolerance = RANK_TOLERANCE * max(count, 1) * max(float(singular_values[0]), 1.0)
    return int(np.count_nonzero(singular_values > tolerance))


@dataclass(frozen=True, eq=False)
class Spectrum:
    """The singular values of one matrix and the norms derived from them.

    ``singular_values``: float64, descending; for a product of thin factors only the (at most d_h)
    values of the core are stored, the others being exact zeros. ``shape`` is that of the matrix.
    Norms (row-vector orientation, SPEC.md section 1): spectral sigma_1, Frobenius (sum sigma_i^2)^{1/2},
    nuclear sum sigma_i, (2,1) the sum of column 2-norms, (1,1) the sum of |entries|; stable rank
    ||W||_F^2 / ||W||_2^2.
    """

    singular_values: np.ndarray
    shape: tuple[int, int]
    rank: int
    spectral_norm: float
    frobenius_norm: float
    nuclear_norm: float
    norm_21: float
    stable_rank: float
    entrywise_sum: Callable[[], float] = field(repr=False)
    """Computes the (1,1) norm; deferred because for a product it needs the N x N entries."""
    svd_path: str = "svd"
    """How the singular values were computed: "svd" (LAPACK SVD, of the matrix or of a product's core) or
    "gram" (eigenvalues of the Gram matrix, with every S_p and the rank decided: :mod:`numerics.gram`)."""

    @functools.cached_property
    def norm_11(self) -> float:
        """||W||_{1,1} = sum_ij |W_ij| (computed on first use)."""
        return self.entrywise_sum()

    @property
    def count(self) -> int:
        """min(rows, cols): how many singular values the matrix has, zeros included."""
        return min(self.shape)


def _finite_float64(array: np.ndarray, what: str) -> np.ndarray:
    """The exact float64 upcast of a 2-D array, or InvalidArgument naming what is wrong."""
    matrix = np.asarray(array, dtype=np.float64)
    if matrix.ndim != 2 or 0 in matrix.shape:
        raise InvalidArgument(f"{what} has shape {matrix.shape}; a spectrum needs a non-empty 2-D matrix")
    if not np.isfinite(matrix).all():
        bad = int(matrix.size - np.count_nonzero(np.isfinite(matrix)))
        raise InvalidArgument(
            f"{what} has {bad} NaN or infinite entries; singular values need a finite matrix"
        )
    return matrix


def _ranked(values: np.ndarray, shape: tuple[int, int], what: str) -> tuple[np.ndarray, int]:
    """The singular values sorted descending and clipped at 0, and the rank; a rank-0 matrix is refused."""
    values = np.sort(np.clip(values, 0.0, None))[::-1]
    rank = numerical_rank(values, min(shape))
    if rank == 0:
        top = float(values[0]) if values.size else 0.0
        raise InvalidArgument(
            f"{what} is numerically zero (sigma_1={top!r}, rank 0 under the tolerance "
            f"{RANK_TOLERANCE} * max(#sigma, 1) * max(sigma_1, 1)); the bound needs a matrix of rank >= 1"
        )
    return values, rank


def _assemble(
    values: np.ndarray,
    rank: int,
    shape: tuple[int, int],
    norm_21: float,
    entrywise_sum: Callable[[], float],
    svd_path: str = "svd",
) -> Spectrum:
    """The Spectrum from sorted values, rank, the (2,1) norm and the deferred (1,1) norm."""
    top = float(values[0])
    with np.errstate(under="ignore"):  # squares of tiny singular values may underflow to 0, harmlessly
        relative_squares = float(np.sum((values / top) ** 2))
    return Spectrum(
        singular_values=values,
        shape=shape,
        rank=rank,
        spectral_norm=top,
        frobenius_norm=top * float(np.sqrt(relative_squares)),
        nuclear_norm=float(np.sum(values)),
        norm_21=norm_21,
        stable_rank=relative_squares,
        entrywise_sum=entrywise_sum,
        svd_path=svd_path,
    )


def _binary_scale(array: np.ndarray) -> float:
    """A power of two near max |entry|: dividing by it is exact and keeps squares of entries in range."""
    return float(np.ldexp(1.0, int(np.frexp(np.max(np.abs(array)))[1])))


def _column_norm_sum(matrix: np.ndarray) -> float:
    """sum_j ||W[:, j]||_2; rescaled by an exact power of two only if a square overflows.

    Squares that underflow are dropped: they are below 1e-300 while sigma_1 > 1e-10 (rank >= 1).
    """
    with np.errstate(over="ignore", under="ignore"):
        squares = np.einsum("ij,ij->j", matrix, matrix)
    if not np.isfinite(squares).all():
        unit = _binary_scale(matrix)
        scaled = matrix / unit
        with np.errstate(under="ignore"):
            squares = np.einsum("ij,ij->j", scaled, scaled)
        return unit * float(np.sum(np.sqrt(squares)))
    return float(np.sum(np.sqrt(squares)))


def _product_entrywise_sum(left: np.ndarray, right: np.ndarray) -> float:
    """sum_ij |(left right^T)_ij| from the product of the factors scaled by exact powers of two."""
    scale_left, scale_right = _binary_scale(left), _binary_scale(right)
    with np.errstate(under="ignore"), single_threaded_blas():
        return scale_left * scale_right * float(np.sum(np.abs((left / scale_left) @ (right / scale_right).T)))


def core_singular_values(left: np.ndarray, right: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The nonzero singular values of left @ right.T from the small core R_left R_right^T, and R_left.

    Thin QR of both factors, then one SVD of a (d_h x d_h) core (exact in exact arithmetic: unitary
    invariance). R_left is returned because column norms of the product are column norms of
    R_left @ right.T.
    """
    r_left = np.asarray(np.linalg.qr(left, mode="r"))
    r_right = np.asarray(np.linalg.qr(right, mode="r"))
    return np.linalg.svd(r_left @ r_right.T, compute_uv=False), r_left


def spectrum(matrix: NamedMatrix | np.ndarray, *, fast_svd: bool = False) -> Spectrum:
    """The :class:`Spectrum` of a matrix, a per-head product being handled through its thin factors.

    For M = A B^T: singular values from :func:`core_singular_values`; column j of M has norm
    ||A b_j|| = ||R_A b_j||, so ||M||_{2,1} is the sum of column norms of R_A B^T (d_h x cols); the
    (1,1) norm needs the entries: it is computed from the product (rows x d_h x cols) on first use.
    A zero, empty or non-finite matrix raises :class:`InvalidArgument`. With ``fast_svd`` a dense matrix's
    singular values come from its Gram matrix where :func:`numerics.gram.gram_values` decides every S_p
    and the rank (``svd_path`` "gram"), from the SVD otherwise.

    >>> s = spectrum(np.diag([3.0, 4.0]))
    >>> s.singular_values.tolist(), s.rank, s.frobenius_norm, s.norm_21, s.norm_11
    ([4.0, 3.0], 2, 5.0, 7.0, 7.0)
    """
    if isinstance(matrix, NamedMatrix):
        what = f"matrix {matrix.label}"
        if matrix.right is not None:
            left = _finite_float64(matrix.left, f"{what} (left factor)")
            right = _finite_float64(matrix.right, f"{what} (right factor)")
            core_values, r_left = core_singular_values(left, right)
            values, rank = _ranked(core_values, matrix.shape, what)
            norm_21 = _column_norm_sum(r_left @ right.T)
            return _assemble(
                values, rank, matrix.shape, norm_21, functools.partial(_product_entrywise_sum, left, right)
            )
        dense = _finite_float64(matrix.left, what)
    else:
        what = "matrix"
        dense = _finite_float64(matrix, what)
    shape = (int(dense.shape[0]), int(dense.shape[1]))
    gram = gram_values(dense, RANK_TOLERANCE, min(shape)) if fast_svd else None
    raw = gram.singular_values if gram is not None else np.linalg.svd(dense, compute_uv=False)
    values, rank = _ranked(raw, shape, what)
    return _assemble(
        values,
        rank,
        shape,
        _column_norm_sum(dense),
        lambda: float(np.sum(np.abs(dense))),
        "svd" if gram is None else "gram",
    )
