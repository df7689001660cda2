"""Exact spectra: singular values and the norms the bounds use, from one float64 LAPACK SVD per matrix.

Precision (docs/architecture.md): the stored weights are upcast to float64 exactly and the
singular values come from LAPACK's SVD of that upcast, never from eigenvalues of the Gram matrix
(which lose the small singular values that S_p depends on for p < 1).

Orientation: sigma(W) = sigma(W^T) (exact: W^T = V S U^T), so a wide dense matrix (rows < cols, the
feed-forward M_in = W_in^T, N x 4N) is handed to LAPACK as its tall transpose (4N x N, the array as
stored), whose QR-first path costs about 1.35x less than the LQ-first path of the wide orientation
(:func:`tall_singular_values`). Both are backward stable, so the values agree to O(max(rows, cols) u
sigma_1) and differ in the last digits only; nothing may pin those digits.

A per-head product M = A B^T (rank <= d_h, docs: matrices) never becomes an N x N SVD: with thin
QR factorisations A = Q_A R_A and B = Q_B R_B, M = Q_A (R_A R_B^T) Q_B^T and Q_A, Q_B have orthonormal
columns, so the nonzero singular values of M are those of the d_h x d_h core R_A R_B^T (standard:
unitary invariance of singular values). The remaining min(rows, cols) - d_h singular values are exact
zeros and are not stored (a dense SVD would return rounding noise there instead).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import field

import numpy as np

from numerics.spectra.backend import NUMPY_LINALG, Linalg
from numerics.spectra.blas import single_threaded_blas
from numerics.spectra.matrices import NamedMatrix
from theory.errors import InvalidArgument
from theory.records import record

RANK_TOLERANCE = 1e-10
"""Relative tolerance of the numerical rank, as in the authors' ``norms.py`` (exact, docs: notation)."""


def numerical_rank(singular_values: np.ndarray, count: int) -> int:
    """#{sigma_i > 1e-10 max(count, 1) max(sigma_1, 1)}, ``count`` the number of singular values; when
    that is 0 and sigma_1 > 0 (a matrix whose every value is below the absolute floor 1e-10 max(count, 1)),
    the scale-invariant #{sigma_i > 1e-10 max(count, 1) sigma_1} instead; 0 for the zero matrix.

    Provenance: exact (authors' ``norms.py``; docs: notation) for every matrix with a value above the
    floor; below it the same relative tolerance without the floor at 1 (singular values are homogeneous,
    sigma(cW) = |c| sigma(W), so the rank of a tiny matrix is that of its rescaling to sigma_1 = 1). For a
    product kept as thin factors ``count`` is min(rows, cols) of the product, not the number of stored
    (nonzero) values.

    >>> numerical_rank(np.array([3.0, 1.0, 1e-12]), 3)
    2
    >>> numerical_rank(np.array([5e-10, 5e-10]), 2), numerical_rank(np.array([0.0, 0.0]), 2)
    (2, 0)
    """
    if singular_values.size == 0:
        return 0
    top = float(singular_values[0])
    tolerance = RANK_TOLERANCE * max(count, 1) * max(top, 1.0)
    rank = int(np.count_nonzero(singular_values > tolerance))
    if rank == 0 and top > 0:
        return int(np.count_nonzero(singular_values > RANK_TOLERANCE * max(count, 1) * top))
    return rank


@record(eq=False)
class Spectrum:
    """The singular values of one matrix and the norms derived from them.

    ``singular_values``: float64, descending; for a product of thin factors only the (at most d_h)
    values of the core are stored, the others being exact zeros. ``shape`` is that of the matrix.
    Norms (row-vector orientation, docs: notation): spectral sigma_1, Frobenius (sum sigma_i^2)^{1/2},
    nuclear sum sigma_i, (2,1) the sum of column 2-norms, (1,1) the sum of |entries|; stable rank
    ||W||_F^2 / ||W||_2^2.
    """

    singular_values: np.ndarray = field(repr=False)  # the repr stays one line; the values are here
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
    """How the singular values were computed: "svd" (LAPACK SVD, of the matrix or of a product's core),
    "gram" (eigenvalues of the Gram matrix, with every S_p and the rank decided:
    :mod:`numerics.spectra.gram`) or "certificate" (points of certified enclosures that decide every S_p
    and the rank, given by the caller: :data:`GivenValues`)."""
    part_norms: tuple[float, ...] = ()
    """With ``spectrum(..., part_norms=True)``: the spectral norms of the matrix's parts, the two thin
    factors of a product (sigma_1(A), sigma_1(B) for M = A B^T) or the two column blocks of a gated M_in,
    from the SVDs of their triangular factors R (sigma(X) = sigma(R) for X^T = Q R or X = Q R, Q with
    orthonormal columns); empty otherwise. The coverage's SwiGLU and rotary figures read them."""

    @functools.cached_property
    def norm_11(self) -> float:
        """||W||_{1,1} = sum_ij |W_ij| (computed on first use)."""
        return self.entrywise_sum()

    @property
    def count(self) -> int:
        """min(rows, cols): how many singular values the matrix has, zeros included."""
        return min(self.shape)


GivenValues = Callable[[NamedMatrix], "np.ndarray | None"]
"""A dense matrix (its ``left`` at its stored width, checked finite, unscaled, before the float64 upcast the
SVD would take) -> its singular values, descending, from
work the caller does on it anyway (``bound --certify``'s certificate), or None: take the SVD. The caller
answers only with values that decide every S_p (p in (0, 2]) to relative
:data:`numerics.spectra.gram.GRAM_RTOL` and the numerical rank, as the Gram path does."""


def linalg_for(device: str | None) -> Linalg:
    """numpy's LAPACK for ``device`` None; torch's on ``device`` "cpu" or "cuda"
    (:mod:`numerics.spectra.torch_backend`, imported only then)."""
    if device is None:
        return NUMPY_LINALG
    from numerics.spectra.torch_backend import torch_linalg

    return torch_linalg(device)


def _float64(array: np.ndarray, what: str) -> tuple[np.ndarray, bool]:
    """The exact float64 upcast of a 2-D array, or InvalidArgument naming what is wrong; and whether the
    upcast is a new array (a narrower input: then the caller may overwrite it, e.g. scale it in place)."""
    matrix = np.asarray(array, dtype=np.float64)
    if matrix.ndim != 2 or 0 in matrix.shape:
        raise InvalidArgument(f"{what} has shape {matrix.shape}; a spectrum needs a non-empty 2-D matrix")
    return matrix, isinstance(array, np.ndarray) and array.dtype != np.float64


def _finite_largest(array: np.ndarray, what: str) -> float:
    """max |entry| (:func:`_largest_magnitude`) of a non-empty 2-D matrix whose entries are all finite,
    read at the array's own width (no copy); else InvalidArgument naming the shape or counting the NaN and
    infinite entries.

    The entries are all finite exactly when that largest magnitude is (max and min propagate a NaN, and an
    infinite entry is the max or the min), so the scale of :func:`_scaled` doubles as the check."""
    matrix = np.asarray(array)
    if matrix.ndim != 2 or 0 in matrix.shape:
        raise InvalidArgument(f"{what} has shape {matrix.shape}; a spectrum needs a non-empty 2-D matrix")
    largest = _largest_magnitude(matrix)
    if not np.isfinite(largest):
        bad = int(matrix.size - np.count_nonzero(np.isfinite(matrix)))
        raise InvalidArgument(
            f"{what} has {bad} NaN or infinite entries; singular values need a finite matrix"
        )
    return largest


def _finite_float64(array: np.ndarray, what: str) -> tuple[np.ndarray, bool, float]:
    """:func:`_float64` of a matrix whose entries are all finite, and its largest magnitude
    (:func:`_finite_largest`)."""
    largest = _finite_largest(array, what)
    matrix, owned = _float64(array, what)
    return matrix, owned, largest


def _ranked(values: np.ndarray, shape: tuple[int, int], what: str) -> tuple[np.ndarray, int]:
    """The singular values sorted descending and clipped at 0, and the rank (0 only for the zero matrix: a
    pruned head, whose every norm and proxy is 0)."""
    values = np.sort(np.clip(values, 0.0, None))[::-1]
    if values.size == 0:
        values = np.zeros(1)
    return values, numerical_rank(values, min(shape))


def _in_range(value: float, what: str, quantity: str) -> float:
    """``value`` if finite; else InvalidArgument: the quantity exceeds float64's range (about 1.8e308)."""
    if not np.isfinite(value):
        raise InvalidArgument(
            f"{what}: its {quantity} exceeds float64's range (about 1.8e308); the weights are too large "
            "to be a trained model's (rescale them)"
        )
    return float(value)


def _assemble(
    values: np.ndarray,
    rank: int,
    shape: tuple[int, int],
    norm_21: float,
    entrywise_sum: Callable[[], float],
    what: str,
    svd_path: str = "svd",
) -> Spectrum:
    """The Spectrum from sorted values, rank, the (2,1) norm and the deferred (1,1) norm.

    Sums are taken relative to sigma_1 (so they overflow only when the norm itself does); a norm beyond
    float64's range is refused by name rather than stored as inf. The zero matrix has every norm 0 and
    stable rank 0 (the convention 0/0 = 0: no direction carries energy).
    """
    top = float(values[0])
    relative_squares = frobenius = nuclear = 0.0
    if top > 0:
        with np.errstate(under="ignore", over="ignore"):  # tiny relative values underflow to 0, harmlessly
            relative_squares = float(np.sum((values / top) ** 2))
            frobenius = top * float(np.sqrt(relative_squares))
            nuclear = top * float(np.sum(values / top))

    def checked_entrywise_sum() -> float:
        return _in_range(entrywise_sum(), what, "(1,1) norm")

    return Spectrum(
        singular_values=values,
        shape=shape,
        rank=rank,
        spectral_norm=top,
        frobenius_norm=_in_range(frobenius, what, "Frobenius norm"),
        nuclear_norm=_in_range(nuclear, what, "nuclear norm"),
        norm_21=_in_range(norm_21, what, "(2,1) norm"),
        stable_rank=relative_squares,
        entrywise_sum=checked_entrywise_sum,
        svd_path=svd_path,
    )


def _binary_scale(array: np.ndarray) -> float:
    """The power of two 2^e <= max |entry| < 2^(e+1) (1 for a zero array): dividing by it is exact up to
    underflow of entries below 2^-1022 times it, far below the rank tolerance relative to the largest."""
    return _power_of_two_below(_largest_magnitude(array))


def _largest_magnitude(array: np.ndarray) -> float:
    """max |entry| as max(max entry, -min entry): exact, and no |array| temporary of the matrix's size."""
    return float(max(np.max(array), -np.min(array)))


def _power_of_two_below(top: float) -> float:
    """2^e <= top < 2^(e+1) for top > 0; 1 for top = 0."""
    return float(np.ldexp(1.0, int(np.frexp(top)[1]) - 1)) if top > 0 else 1.0


def _gram_safe(array: np.ndarray) -> bool:
    """Whether the Gram matrix of ``array`` stays inside float64's normal range (entries between 1e-100
    and 1e100 in magnitude, so products and sums of squares neither overflow nor go subnormal)."""
    largest = _largest_magnitude(array)
    return 1e-100 < largest < 1e100


def _scaled(
    array: np.ndarray, *, in_place: bool = False, largest: float | None = None
) -> tuple[np.ndarray, float]:
    """(array / unit, unit) with ``unit`` from :func:`_binary_scale`: entries of the result lie in (-2, 2).

    ``in_place`` divides ``array`` itself (a float64 copy the caller owns: no second copy is made);
    ``largest``, max |entry| when the caller has it (:func:`_finite_float64`), is not measured again.
    """
    unit = _binary_scale(array) if largest is None else _power_of_two_below(largest)
    with np.errstate(under="ignore"):
        return np.divide(array, unit, out=array if in_place else None), unit


def _unscaled(values: np.ndarray, unit: float, what: str) -> np.ndarray:
    """``values * unit`` (exact: a power of two), refused by name if a singular value leaves float64."""
    with np.errstate(under="ignore", over="ignore"):
        out = values * unit
    _in_range(float(np.max(out, initial=0.0)), what, "largest singular value")
    return out


def _column_squares(scaled: np.ndarray) -> np.ndarray:
    """||W[:, j]||_2^2 for every column j of a matrix scaled by :func:`_scaled` (no square overflows)."""
    with np.errstate(under="ignore", over="ignore"):
        return np.einsum("ij,ij->j", scaled, scaled)


def _column_norm_total(squares: np.ndarray, unit: float, what: str) -> float:
    """unit * sum_j sqrt(squares_j): the (2,1) norm from the column squares of the scaled matrix."""
    with np.errstate(under="ignore", over="ignore"):
        return _in_range(unit * float(np.sum(np.sqrt(squares))), what, "(2,1) norm")


def _column_norm_sum(matrix: np.ndarray, what: str) -> float:
    """sum_j ||W[:, j]||_2, computed on W scaled by an exact power of two so no square overflows.

    Squares that underflow are dropped: they are below 2^-1022 relative to the largest entry.
    """
    scaled, unit = _scaled(matrix)
    return _column_norm_total(_column_squares(scaled), unit, what)


def _abs_sum(scaled: np.ndarray, unit: float) -> float:
    """unit * sum_ij |scaled_ij| (inf only when the sum itself exceeds float64)."""
    with np.errstate(over="ignore"):
        return unit * float(np.sum(np.abs(scaled)))


def _entrywise_sum(matrix: np.ndarray) -> float:
    """sum_ij |W_ij| relative to a power of two (inf only when the sum itself exceeds float64)."""
    return _abs_sum(*_scaled(matrix))


def _product_entrywise_sum(left: np.ndarray, right: np.ndarray) -> float:
    """sum_ij |(left right^T)_ij| from the product of the factors scaled by exact powers of two."""
    (scaled_left, scale_left), (scaled_right, scale_right) = _scaled(left), _scaled(right)
    with np.errstate(under="ignore", over="ignore"), single_threaded_blas():
        return scale_left * scale_right * float(np.sum(np.abs(scaled_left @ scaled_right.T)))


def tall_singular_values(matrix: np.ndarray, linalg: Linalg = NUMPY_LINALG) -> np.ndarray:
    """sigma(matrix), descending, computed on the tall orientation: ``matrix.T`` when it has fewer rows than
    columns (sigma(W) = sigma(W^T); module docstring), ``matrix`` itself otherwise.

    >>> tall_singular_values(np.array([[3.0, 0.0, 0.0], [0.0, 4.0, 0.0]])).tolist()
    [4.0, 3.0]
    """
    return linalg.singular_values(matrix.T if matrix.shape[0] < matrix.shape[1] else matrix)


def core_singular_values(
    left: np.ndarray, right: np.ndarray, linalg: Linalg = NUMPY_LINALG
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The nonzero singular values of left @ right.T from the small core R_left R_right^T, R_left and R_right.

    Thin QR of both factors, then one SVD of a (d_h x d_h) core (exact in exact arithmetic: unitary
    invariance). R_left is returned because column norms of the product are column norms of
    R_left @ right.T; both because sigma(left) = sigma(R_left), sigma(right) = sigma(R_right). Callers
    pass factors scaled to entries in (-2, 2) (see :func:`spectrum`), so nothing here overflows (a LAPACK
    routine fed an inf prints a DLASCL complaint on stdout).
    """
    r_left = linalg.triangular_factor(left)
    r_right = linalg.triangular_factor(right)
    with np.errstate(under="ignore"):
        core = r_left @ r_right.T
    return linalg.singular_values(core), r_left, r_right


def _spectral_norm_of_factor(factor: np.ndarray, unit: float, linalg: Linalg, what: str) -> float:
    """sigma_1 of a triangular factor R of the matrix divided by ``unit`` (a power of two), times ``unit``:
    the spectral norm of that matrix (sigma(X) = sigma(R) for X = Q R, Q with orthonormal columns).

    With numpy and both sides of R at least :data:`~numerics.spectra.top_singular.MIN_SIZE`: the certified
    upper bound of :func:`numerics.spectra.top_singular.top_singular_upper` (no SVD; within about 2^-25
    relative of sigma_1), else (or when its certificate fails) the largest singular value of R's SVD."""
    from numerics.spectra.top_singular import MIN_SIZE, top_singular_upper  # only the coverage measures

    if linalg is NUMPY_LINALG and min(factor.shape) >= MIN_SIZE:
        upper = top_singular_upper(factor)
        if upper is not None:
            return float(_unscaled(np.array([upper]), unit, what)[0])
    return float(_unscaled(linalg.singular_values(factor)[:1], unit, what)[0])


def _blocks_spectrum(matrix: NamedMatrix, what: str, linalg: Linalg, part_norms: bool = False) -> Spectrum:
    """The :class:`Spectrum` of a matrix kept as column blocks M = [B_1, B_2] (a gated M_in), never
    concatenated: each block is upcast, scaled, reduced to its triangular factor and released in turn.

    Singular values: thin QR B_i^T = Q_i R_i gives M^T = diag(Q_1, Q_2) [R_1; R_2], and diag(Q_1, Q_2) has
    orthonormal columns, so sigma(M) = sigma([R_1; R_2]) (standard: unitary invariance of singular values;
    Golub & Van Loan, Matrix Computations, 4th ed., Thm 2.4.8 with Q^T Q = I). Householder QR is backward
    stable (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., Thm 19.4), as is the SVD of
    the stacked factors, so the computed values are exact for M + E with ||E||_2 = O(u) ||M||_2, the same
    guarantee as one SVD of M (LAPACK's own SVD of a tall matrix starts with the same QR); the last digits
    differ from that SVD's. Two square factors are first reduced to the R of [R_1; R_2]
    (:func:`_stacked_factors`), also a backward stable Householder QR. (2,1) norm: the columns of M are
    those of the blocks; (1,1) norm: the sum of the blocks' (computed now: the blocks are gone afterwards).
    Every block is divided by the same power of two, so the stacked factors are the scaled M's. Memory: the
    stored blocks, one float64 block, its factor (min(rows_i, N) x N) and LAPACK's working copy, never the
    N x (c_1 + c_2) concatenation.
    """
    blocks = matrix.column_blocks
    tops = [_largest_magnitude(block) for block in blocks]  # exact at the stored width
    if not all(np.isfinite(tops)):
        for block in blocks:
            _finite_largest(block, what)  # raises, naming the non-finite entries
    unit = _power_of_two_below(max(tops))
    factors, squares, magnitudes = [], [], 0.0
    for block in blocks:
        dense, owned = _float64(block, what)
        with np.errstate(under="ignore"):
            scaled = np.divide(dense, unit, out=dense if owned else None)
        del dense
        squares.append(_column_squares(scaled))
        factors.append(linalg.triangular_factor(scaled.T))
        magnitudes += _abs_sum(np.abs(scaled, out=scaled), 1.0)  # scaled is this function's own copy
        del scaled
    parts = tuple(_spectral_norm_of_factor(r, unit, linalg, what) for r in factors) if part_norms else ()
    stacked = _stacked_factors(factors, linalg)
    del factors
    raw = _unscaled(linalg.singular_values(stacked), unit, what)
    values, rank = _ranked(raw, matrix.shape, what)
    norm_21 = _column_norm_total(np.concatenate(squares), unit, what)
    with np.errstate(over="ignore"):
        entrywise = unit * magnitudes
    spec = _assemble(values, rank, matrix.shape, norm_21, functools.partial(float, entrywise), what)
    return dataclasses.replace(spec, part_norms=parts)


def _stacked_factors(factors: list[np.ndarray], linalg: Linalg) -> np.ndarray:
    """A matrix with the singular values of the stacked blocks' factors [R_1; R_2; ...]: with numpy's LAPACK
    and two square n x n factors, the R factor of [R_1; R_2] from
    :func:`numerics.spectra.two_stage.stacked_triangular_factor` (n x n, in place of the factors: a
    triangular-pentagonal QR, 2/3 n^3 flops, instead of the SVD's dense QR of the 2n x n stack, 10/3 n^3),
    else the stack itself. The list's arrays may be overwritten."""
    shapes = {r.shape for r in factors}
    if linalg is NUMPY_LINALG and len(factors) == 2 and len(shapes) == 1:
        rows, cols = shapes.pop()
        if rows == cols and all(r.flags.c_contiguous for r in factors):
            from numerics.spectra.two_stage import stacked_triangular_factor  # ctypes: not at start-up

            combined = stacked_triangular_factor(*factors)
            if combined is not None:
                return combined
    return np.vstack(factors)


@record(eq=False)
class _ScaledFactors:
    """A product's float64 factors and their copies divided by powers of two (:func:`_scaled`)."""

    left: np.ndarray
    right: np.ndarray
    scaled_left: np.ndarray
    scale_left: float
    scaled_right: np.ndarray
    scale_right: float


def _scaled_factors(matrix: NamedMatrix, what: str) -> _ScaledFactors:
    assert matrix.right is not None
    left, _, left_top = _finite_float64(matrix.left, f"{what} (left factor)")
    right, _, right_top = _finite_float64(matrix.right, f"{what} (right factor)")
    return _ScaledFactors(left, right, *_scaled(left, largest=left_top), *_scaled(right, largest=right_top))


def _product_spectrum(
    matrix: NamedMatrix,
    what: str,
    factors: _ScaledFactors,
    core: tuple[np.ndarray, np.ndarray, np.ndarray],
    linalg: Linalg,
    part_norms: bool,
) -> Spectrum:
    """The :class:`Spectrum` of a product from its scaled factors and their core (values, R_left, R_right:
    :func:`core_singular_values`)."""
    core_values, r_left, r_right = core
    scale = factors.scale_left * factors.scale_right
    values, rank = _ranked(_unscaled(core_values, scale, what), matrix.shape, what)
    with np.errstate(under="ignore"):
        columns = r_left @ factors.scaled_right.T
    norm_21 = factors.scale_left * _column_norm_sum(columns, what) * factors.scale_right
    entrywise = functools.partial(_product_entrywise_sum, factors.left, factors.right)
    spec = _assemble(values, rank, matrix.shape, norm_21, entrywise, what)
    if not part_norms:
        return spec
    parts = (
        _spectral_norm_of_factor(r_left, factors.scale_left, linalg, what),
        _spectral_norm_of_factor(r_right, factors.scale_right, linalg, what),
    )
    return dataclasses.replace(spec, part_norms=parts)


def layer_spectra(
    matrices: Sequence[NamedMatrix],
    source: str = "",
    *,
    fast_svd: bool = False,
    linalg: Linalg = NUMPY_LINALG,
    part_norms: bool = False,
    given_values: GivenValues | None = None,
) -> Iterator[Spectrum]:
    """:func:`spectrum` of every matrix of a layer, in order, each computed when the iterator reaches it.

    With a backend that batches (:attr:`Linalg.batches`: torch on CUDA), the per-head products' QR
    factorisations and core SVDs are issued as three stacked calls (every left factor, every right factor,
    every core) instead of three per product: the same operations on the same inputs, so the same numbers
    up to the backend's batched kernels' rounding (the documented torch bound,
    :mod:`numerics.spectra.torch_backend`). ``given_values``: see :func:`spectrum`."""
    products = [m for m in matrices if m.right is not None] if linalg.batches else []
    batched: dict[int, Spectrum] = {}
    if (
        len(products) > 1
        and len({(m.left.shape, m.right.shape) for m in products if m.right is not None}) == 1
    ):
        whats = [f"matrix {m.label}" + (f" of {source}" if source else "") for m in products]
        factors = [_scaled_factors(m, what) for m, what in zip(products, whats, strict=True)]
        r_lefts = linalg.triangular_factor(np.stack([f.scaled_left for f in factors]))
        r_rights = linalg.triangular_factor(np.stack([f.scaled_right for f in factors]))
        with np.errstate(under="ignore"):
            cores = np.matmul(r_lefts, np.swapaxes(r_rights, 1, 2))
        values = linalg.singular_values(cores)
        for i, (m, what, f) in enumerate(zip(products, whats, factors, strict=True)):
            core = (values[i], r_lefts[i], r_rights[i])
            batched[id(m)] = _product_spectrum(m, what, f, core, linalg, part_norms)
    for m in matrices:  # one at a time: a caller that drops each spectrum's values frees them as it goes
        if id(m) in batched:
            yield batched.pop(id(m))
        else:
            yield spectrum(
                m, source, fast_svd=fast_svd, linalg=linalg, part_norms=part_norms, given_values=given_values
            )


def spectrum(
    matrix: NamedMatrix | np.ndarray,
    source: str = "",
    *,
    fast_svd: bool = False,
    linalg: Linalg = NUMPY_LINALG,
    part_norms: bool = False,
    given_values: GivenValues | None = None,
) -> Spectrum:
    """The :class:`Spectrum` of a matrix, a per-head product being handled through its thin factors.

    For M = A B^T: singular values from :func:`core_singular_values`; column j of M has norm
    ||A b_j|| = ||R_A b_j||, so ||M||_{2,1} is the sum of column norms of R_A B^T (d_h x cols); the
    (1,1) norm needs the entries: it is computed from the product (rows x d_h x cols) on first use.
    A matrix kept as column blocks (a gated M_in) goes through :func:`_blocks_spectrum`.
    Every factorisation runs on the matrix (or factors) divided by an exact power of two near its
    largest entry, and the singular values are multiplied back (singular values are homogeneous:
    sigma(cW) = |c| sigma(W), exactly for c a power of two), so finite weights of any magnitude
    neither overflow inside LAPACK nor lose their small values. The zero matrix (a pruned head) has rank 0
    and every norm 0. An empty or non-finite matrix, or one whose norms exceed float64's range, raises
    :class:`InvalidArgument` naming the matrix and
    ``source`` (the checkpoint it comes from).
    Input narrower than float64 (a layer at its stored width) is upcast here, one matrix at a time, and
    that upcast is scaled in place: memory holds one float64 copy of the matrix plus LAPACK's.
    With ``fast_svd`` a dense matrix's singular values come from its Gram matrix where
    :func:`numerics.spectra.gram.gram_values` decides every S_p and the rank (``svd_path`` "gram"; entries
    far from 1 in magnitude, whose squares could leave float64's range, always take the SVD), from the SVD
    otherwise; a matrix kept as column blocks always takes the block QR and SVD.
    ``linalg`` runs the QR and SVD calls (:data:`NUMPY_LINALG`, or torch's: :func:`linalg_for`).
    ``part_norms`` also gives a product's or a gated M_in's :attr:`Spectrum.part_norms` (one more SVD of
    each part's triangular factor, which the singular values needed anyway).
    ``given_values`` (:data:`GivenValues`) is asked first for a dense matrix's values, with the matrix at
    its stored width before the upcast (``svd_path`` "certificate" when it gives them; neither the Gram
    path nor the SVD is then run).

    >>> s = spectrum(np.diag([3.0, 4.0]))
    >>> s.singular_values.tolist(), s.rank, s.frobenius_norm, s.norm_21, s.norm_11
    ([4.0, 3.0], 2, 5.0, 7.0, 7.0)
    """
    if isinstance(matrix, NamedMatrix):
        what = f"matrix {matrix.label}" + (f" of {source}" if source else "")
        if matrix.second_block is not None:
            return _blocks_spectrum(matrix, what, linalg, part_norms)
        if matrix.right is not None:
            factors = _scaled_factors(matrix, what)
            core = core_singular_values(factors.scaled_left, factors.scaled_right, linalg)
            return _product_spectrum(matrix, what, factors, core, linalg, part_norms)
        largest = _finite_largest(matrix.left, what)
        # the caller's work first, on the matrix at its stored width: the float64 upcast below is not
        # yet held beside it (with a Gram certificate that upcast would set the run's peak memory)
        given = None if given_values is None else given_values(matrix)
        dense, owned = _float64(matrix.left, what)
    else:
        what = "matrix" + (f" of {source}" if source else "")
        given = None
        dense, owned, largest = _finite_float64(matrix, what)
    shape = (int(dense.shape[0]), int(dense.shape[1]))
    gram = None
    if given is None and fast_svd and _gram_safe(dense):
        from numerics.spectra.gram import gram_values  # only with fast_svd

        gram = gram_values(dense, RANK_TOLERANCE, min(shape))
    scaled, unit = _scaled(dense, in_place=owned, largest=largest)  # owned: ``dense`` itself is now scaled
    if given is not None:
        raw, path = given, "certificate"
    elif gram is not None:
        raw, path = gram.singular_values, "gram"
    else:
        raw, path = _unscaled(tall_singular_values(scaled, linalg), unit, what), "svd"
    values, rank = _ranked(raw, shape, what)
    norm_21 = _column_norm_total(_column_squares(scaled), unit, what)
    # the deferred (1,1) norm keeps the caller's matrix, or (owned) the scaled copy, never both
    entrywise = (
        functools.partial(_abs_sum, scaled, unit) if owned else functools.partial(_entrywise_sum, dense)
    )
    return _assemble(values, rank, shape, norm_21, entrywise, what, path)
