"""Run numpy's OpenBLAS single-threaded for the many small LAPACK problems of a bound.

Why: the matrices of a BERT-size bound are small (N x d_h factors, N x 4N feed-forward matrices). On a
machine whose cores are busy, OpenBLAS's worker threads spin-wait and the same SVDs took 30-80x longer
with 2 threads than with 1 (measured on minilm-l6 with load average 7 on 2 cores: feed-forward SVDs
35 s vs 0.45 s); on an idle machine one thread is about as fast for these sizes.

Like threadpoolctl (not a dependency), this calls OpenBLAS's own ``*_set_num_threads`` through ctypes
on the library numpy loaded. A user who set ``OPENBLAS_NUM_THREADS`` (or ``OMP_NUM_THREADS``) keeps
their setting; with another BLAS, or when the symbols are absent, nothing changes. Entered before numpy is
imported (a command such as ``prove`` that may never need it), the block sets ``OPENBLAS_NUM_THREADS=1``
instead, which OpenBLAS reads when numpy loads it inside the block (importing numpy only to set a count would
cost ~0.1-0.2 s of start-up). The same library's
LAPACK routines are reached by name with :func:`lapack_routine` (the spectra's in-place Cholesky, two-stage
SVD and stacked QR), its CBLAS ones with :func:`cblas_routine` (:func:`upper_gram`, the certificates'
Gram blocks).
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

_SYMBOLS = (
    ("scipy_openblas_get_num_threads64_", "scipy_openblas_set_num_threads64_"),
    ("scipy_openblas_get_num_threads", "scipy_openblas_set_num_threads"),
    ("openblas_get_num_threads64_", "openblas_set_num_threads64_"),
    ("openblas_get_num_threads", "openblas_set_num_threads"),
)


@functools.cache
def openblas_libraries() -> tuple[Any, ...]:
    """The OpenBLAS shared libraries bundled with numpy, loaded through ctypes (empty when there is none)."""
    import ctypes  # only when a caller needs the library (3 ms of start-up otherwise)

    import numpy as np

    root = Path(np.__file__).resolve().parent
    libraries = []
    for path in [*root.parent.glob("numpy.libs/*openblas*"), *root.glob(".libs/*openblas*")]:
        try:
            libraries.append(ctypes.CDLL(str(path)))
        except OSError:
            continue
    return tuple(libraries)


@functools.cache
def lapack_routine(name: str) -> Any | None:
    """LAPACK routine ``name`` (e.g. "dpotrf") of the OpenBLAS numpy bundles, through ctypes, with 64-bit
    integer arguments and no return value; None when that library or the routine is absent."""
    for library in openblas_libraries():
        function = getattr(library, f"scipy_{name}_64_", None)
        if function is not None:
            function.restype = None
            return function
    return None


@functools.cache
def cblas_routine(name: str) -> Any | None:
    """CBLAS routine ``name`` (e.g. "dsyrk") of the OpenBLAS numpy bundles, through ctypes (64-bit integer
    arguments, C ``int`` enums, no return value); None when that library or the routine is absent."""
    for library in openblas_libraries():
        function = getattr(library, f"scipy_cblas_{name}64_", None)
        if function is not None:
            function.restype = None
            return function
    return None


_ROW_MAJOR, _UPPER, _NO_TRANS, _TRANS = 101, 121, 111, 112
"""CBLAS's enum values (cblas.h)."""


def upper_gram(block: Any, out: Any) -> bool:
    """Write the upper triangle (with the diagonal) of B^T B for the float64 ``block`` B (b x k, b, k >= 2)
    into the C-contiguous k x k float64 ``out``, leaving its strict lower triangle untouched; False (and
    ``out`` untouched) where this is not available: no OpenBLAS ``cblas_dsyrk``, or B's strides not usable
    by BLAS.

    It is the call numpy's matmul makes for ``B.T @ B`` (numpy's ``DOUBLE_matmul_matrixmatrix``: the same
    operand is recognised and ``cblas_dsyrk`` is called with row-major order, the upper triangle, B^T as
    the first operand, ``Trans`` when B's rows are contiguous and ``NoTrans`` when its columns are, the
    same leading dimension), so the triangle holds the same numbers; numpy then mirrors every product
    into its lower triangle, a strided copy that costs about as much as the product itself on a 384 x 384
    result and that a caller summing several blocks needs only once, on the sum."""
    import ctypes

    import numpy as np

    syrk = cblas_routine("dsyrk")
    rows, k = block.shape
    if syrk is None or block.dtype != np.float64 or rows < 2 or k < 2:
        return False
    if not (out.dtype == np.float64 and out.shape == (k, k) and out.flags.c_contiguous):
        return False
    step_rows, step_cols = block.strides
    if step_rows == 8 and step_cols % 8 == 0 and step_cols // 8 >= rows:
        trans, lead = _NO_TRANS, step_cols // 8  # B^T is row-major: B's columns are contiguous
    elif step_cols == 8 and step_rows % 8 == 0 and step_rows // 8 >= k:
        trans, lead = _TRANS, step_rows // 8  # B's rows are contiguous
    else:
        return False
    syrk(ctypes.c_int(_ROW_MAJOR), ctypes.c_int(_UPPER), ctypes.c_int(trans), ctypes.c_int64(k),
         ctypes.c_int64(rows), ctypes.c_double(1.0), ctypes.c_void_p(block.ctypes.data),
         ctypes.c_int64(lead), ctypes.c_double(0.0), ctypes.c_void_p(out.ctypes.data),
         ctypes.c_int64(k))  # fmt: skip
    return True


@functools.cache
def _openblas() -> tuple[object, object] | None:
    """(get, set) thread-count functions of the OpenBLAS numpy uses, or None."""
    import ctypes

    for library in openblas_libraries():
        for get_name, set_name in _SYMBOLS:
            getter, setter = getattr(library, get_name, None), getattr(library, set_name, None)
            if getter is not None and setter is not None:
                getter.restype = ctypes.c_int
                setter.argtypes = [ctypes.c_int]
                return getter, setter
    return None


@contextlib.contextmanager
def single_threaded_blas() -> Iterator[None]:
    """Within the block, numpy's OpenBLAS uses one thread (unless the user chose a count by environment)."""
    functions = None
    if "OPENBLAS_NUM_THREADS" not in os.environ and "OMP_NUM_THREADS" not in os.environ:
        if "numpy" not in sys.modules:
            os.environ["OPENBLAS_NUM_THREADS"] = "1"  # read by OpenBLAS if numpy loads it in the block
            try:
                yield
            finally:
                os.environ.pop("OPENBLAS_NUM_THREADS", None)
            return
        functions = _openblas()
    if functions is None:
        yield
        return
    getter, setter = functions
    previous = getter()  # type: ignore[operator]
    setter(1)  # type: ignore[operator]
    try:
        yield
    finally:
        setter(previous)  # type: ignore[operator]
