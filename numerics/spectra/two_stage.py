"""LAPACK paths for large matrices: singular values by two-stage bidiagonalisation, R factors by QR with a
wide block, and the R factor of two stacked R's.

Why: LAPACK's SVD (dgesdd, what ``np.linalg.svd`` runs) reduces the n x n matrix to bidiagonal form in one
stage (dgebrd), half of whose 8/3 n^3 flops are matrix-vector products that stream the whole trailing
matrix from memory once per column; for n = 4096 (128 MB, far beyond the cache) that stage is bound by
memory bandwidth. Two stages do the same reduction with matrix-matrix products:

1. Dense to upper band of bandwidth b (Grosser & Lang 1999; Ltaief, Luszczek & Dongarra, ACM TOMS 39(3),
   2013): for each panel of b columns, a Householder QR of the panel from the left (LAPACK dgeqrt, its
   compact-WY Q applied to the trailing columns by dgemqrt), then a Householder LQ of the b rows to the
   right of the panel (dgelqt, applied to the trailing rows by dgemlqt). Each step leaves an upper
   triangular block on the diagonal and a lower triangular block beside it, so B = U^T A V is upper banded
   with bandwidth b; the Householder vectors are stored in the annihilated entries, outside the band.
2. Band to bidiagonal by plane rotations (LAPACK dgbbrd, O(n^2 b) flops on a band that fits the cache),
   then the singular values of the bidiagonal (dbdsqr without vectors: the dqds algorithm, high relative
   accuracy for the bidiagonal).

Accuracy (standard): every transformation is orthogonal and applied by Householder reflectors or plane
rotations, each backward stable (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., §19.3),
so the computed values are the exact singular values of A + E with ||E||_2 <= c n u ||A||_2, the same
kind of guarantee as dgesdd's (one-stage Householder bidiagonalisation); by Weyl's inequality each value
is within c n u sigma_1 of the exact one. The two differ in the last digits only.

Stacked factors: for upper triangular R_1, R_2 (n x n), [R_1; R_2] = Q R with R from LAPACK's
triangular-pentagonal QR (here its transpose form, the LQ factorisation dtplqt of [R_1^T, R_2^T], which
works on C-ordered arrays in place); it costs about 2/3 n^3 flops instead of a dense 2n x n QR's
10/3 n^3, and sigma([R_1; R_2]) = sigma(R) (unitary invariance). Backward stable as any Householder QR.

R factor: LAPACK's dgeqrt is the same Householder QR as dgeqrf (what ``np.linalg.qr`` runs), with the
block of reflectors applied to the trailing columns chosen by the caller and the panel factored
recursively (dgeqrt3); with a block of :data:`QR_BLOCK` columns the trailing updates are wider matrix
products than dgeqrf's default 32, which is faster on matrices that do not fit the cache. Backward stable
(the same Householder reflectors; Higham, Thm 19.4), so R differs from dgeqrf's in the last digits.

The routines are those of the OpenBLAS that numpy bundles (:func:`numerics.spectra.blas.lapack_routine`);
without them both functions return None and the caller takes numpy's SVD of the matrix or the stack.
"""

from __future__ import annotations

import ctypes
from typing import Any

import numpy as np

from numerics.spectra.blas import lapack_routine
from theory.errors import InvalidArgument

BAND = 32
"""Bandwidth b of the first stage: measured fastest of 16, 32, 64 at n = 2048 and of 32, 48 at n = 4096 on
the test machine (docs: benchmarks, wave 7 LLaMA layer)."""
QR_BLOCK = 128
"""Reflectors per block of :func:`triangular_factor`: measured fastest of 32, 64, 128 on 11008 x 1024 (1.06 s
CPU against np.linalg.qr's 1.55 s) and of 64, 128 on 11008 x 4096 (12.5 s against 15.7 s and dgeqrf's
21.6 s) on the test machine (docs: benchmarks, wave 7 LLaMA layer)."""
_ROUTINES = ("dgeqrt", "dgemqrt", "dgelqt", "dgemlqt", "dgbbrd", "dbdsqr")


def _integer(value: int) -> Any:
    return ctypes.byref(ctypes.c_int64(value))


def _pointer(array: np.ndarray, offset: int = 0) -> ctypes.c_void_p:
    """The address of ``array``'s element ``offset`` (in elements of 8 bytes from its start)."""
    return ctypes.c_void_p(array.ctypes.data + 8 * offset)


def _routine(name: str) -> Any:
    """The routine ``name``, which :func:`two_stage_singular_values` checked to be present."""
    routine = lapack_routine(name)
    if routine is None:
        raise RuntimeError(f"numpy's LAPACK has no {name}")
    return routine


def _checked(info: ctypes.c_int64, routine: str) -> None:
    if info.value != 0:  # only an illegal argument (a bug here), never a property of the data
        raise RuntimeError(f"LAPACK {routine} refused argument {-info.value}")


def _band_reduce(matrix: np.ndarray, band: int) -> None:
    """Stage 1 in place on the Fortran-ordered square ``matrix`` (module docstring, step 1)."""
    geqrt, gemqrt, gelqt, gemlqt = (_routine(name) for name in _ROUTINES[:4])
    n = matrix.shape[0]
    t = np.empty((band, band), order="F")
    work = np.empty(band * n)
    info = ctypes.c_int64(0)
    side, trans, length = ctypes.c_char_p(b""), ctypes.c_char_p(b"T"), ctypes.c_size_t(1)

    def at(row: int, col: int) -> ctypes.c_void_p:
        return _pointer(matrix, row + col * n)

    for j in range(0, n, band):
        width, rows = min(band, n - j), n - j
        geqrt(_integer(rows), _integer(width), _integer(width), at(j, j), _integer(n), _pointer(t),
              _integer(band), _pointer(work), ctypes.byref(info))  # fmt: skip
        _checked(info, "dgeqrt")
        rest = n - j - width
        if rest == 0:
            return
        side.value = b"L"
        gemqrt(side, trans, _integer(rows), _integer(rest), _integer(width), _integer(width), at(j, j),
               _integer(n), _pointer(t), _integer(band), at(j, j + width), _integer(n), _pointer(work),
               ctypes.byref(info), length, length)  # fmt: skip
        _checked(info, "dgemqrt")
        reflectors = min(width, rest)
        gelqt(_integer(width), _integer(rest), _integer(reflectors), at(j, j + width), _integer(n),
              _pointer(t), _integer(band), _pointer(work), ctypes.byref(info))  # fmt: skip
        _checked(info, "dgelqt")
        side.value = b"R"
        gemlqt(side, trans, _integer(rest), _integer(rest), _integer(reflectors), _integer(reflectors),
               at(j, j + width), _integer(n), _pointer(t), _integer(band), at(j + width, j + width),
               _integer(n), _pointer(work), ctypes.byref(info), length, length)  # fmt: skip
        _checked(info, "dgemlqt")


def _band_values(matrix: np.ndarray, band: int) -> np.ndarray:
    """Stage 2: the singular values of the upper band of bandwidth ``band`` of ``matrix``, descending."""
    gbbrd, bdsqr = _routine("dgbbrd"), _routine("dbdsqr")
    n = matrix.shape[0]
    upper = min(band, n - 1)
    storage = np.zeros((upper + 1, n), order="F")  # LAPACK band storage: row upper - d holds diagonal d
    for d in range(upper + 1):
        storage[upper - d, d:] = np.diagonal(matrix, d)
    diagonal, off = np.empty(n), np.zeros(max(n - 1, 1))
    unused, work, info = np.zeros(1), np.empty(4 * n), ctypes.c_int64(0)
    one, none = _integer(1), _integer(0)
    gbbrd(ctypes.c_char_p(b"N"), _integer(n), _integer(n), none, none, _integer(upper), _pointer(storage),
          _integer(upper + 1), _pointer(diagonal), _pointer(off), _pointer(unused), one, _pointer(unused),
          one, _pointer(unused), one, _pointer(work), ctypes.byref(info), ctypes.c_size_t(1))  # fmt: skip
    _checked(info, "dgbbrd")
    bdsqr(ctypes.c_char_p(b"U"), _integer(n), none, none, none, _pointer(diagonal), _pointer(off),
          _pointer(unused), one, _pointer(unused), one, _pointer(unused), one, _pointer(work),
          ctypes.byref(info), ctypes.c_size_t(1))  # fmt: skip
    if info.value > 0:  # dqds did not converge (LAPACK: practically never); the caller takes dgesdd
        raise np.linalg.LinAlgError("dbdsqr did not converge")
    _checked(info, "dbdsqr")
    return diagonal


def two_stage_singular_values(square: np.ndarray, band: int = BAND) -> np.ndarray | None:
    """sigma(square), descending, by two-stage bidiagonalisation (module docstring), overwriting ``square``
    (a float64 n x n array, C- or Fortran-ordered: a C-ordered one is reduced as its transpose, which has
    the same singular values); None when numpy's LAPACK lacks the routines."""
    if any(lapack_routine(name) is None for name in _ROUTINES):
        return None
    if square.ndim != 2 or square.shape[0] != square.shape[1] or square.dtype != np.float64:
        raise InvalidArgument(f"two_stage_singular_values needs a square float64 matrix, not {square.shape}")
    fortran = square if square.flags.f_contiguous else square.T
    if not fortran.flags.f_contiguous:
        raise InvalidArgument("two_stage_singular_values needs a contiguous matrix")
    _band_reduce(fortran, band)
    return _band_values(fortran, band)


def stacked_triangular_factor(top: np.ndarray, bottom: np.ndarray) -> np.ndarray | None:
    """An upper triangular R with sigma(R) = sigma([top; bottom]) for upper triangular n x n C-ordered
    float64 ``top`` and ``bottom`` (module docstring: dtplqt), in place: R is returned in ``top``'s buffer
    and ``bottom`` is overwritten. None when numpy's LAPACK lacks the routine."""
    tplqt = lapack_routine("dtplqt")
    if tplqt is None:
        return None
    n = top.shape[0]
    for array in (top, bottom):
        if array.shape != (n, n) or array.dtype != np.float64 or not array.flags.c_contiguous:
            raise InvalidArgument("stacked_triangular_factor needs two C-ordered float64 n x n factors")
    block = min(BAND, n)
    t, work, info = np.empty((n, block)), np.empty(block * n), ctypes.c_int64(0)
    # column-major, top's buffer is L_1 = top^T (lower triangular) and bottom's L_2 = bottom^T: the LQ
    # [L_1, L_2] = L Q leaves L in top's buffer, which read C-ordered is L^T, upper triangular
    tplqt(_integer(n), _integer(n), _integer(n), _integer(block), _pointer(top), _integer(n),
          _pointer(bottom), _integer(n), _pointer(t), _integer(block), _pointer(work),
          ctypes.byref(info))  # fmt: skip
    _checked(info, "dtplqt")
    return top


def triangular_factor(matrix: np.ndarray) -> np.ndarray | None:
    """R of the thin QR of ``matrix`` (m x n float64, any order; min(m, n) x n, upper triangular or
    trapezoidal) by LAPACK's dgeqrt with :data:`QR_BLOCK` reflectors per block (module docstring), on a
    Fortran-ordered copy; None when numpy's LAPACK lacks dgeqrt."""
    geqrt = lapack_routine("dgeqrt")
    if geqrt is None:
        return None
    rows, cols = matrix.shape
    block = min(QR_BLOCK, rows, cols)
    work = np.array(matrix, dtype=np.float64, order="F")
    t, scratch = np.empty((block, min(rows, cols)), order="F"), np.empty(block * cols)
    info = ctypes.c_int64(0)
    geqrt(_integer(rows), _integer(cols), _integer(block), _pointer(work), _integer(rows), _pointer(t),
          _integer(block), _pointer(scratch), ctypes.byref(info))  # fmt: skip
    _checked(info, "dgeqrt")
    return np.triu(work[: min(rows, cols)])
