"""The optional torch backend of the spectra: the same two float64 operations as numpy's, on "cpu" or "cuda".

:func:`numerics.spectra.spectrum.spectrum` needs singular values (values only, no U or V) and the triangular
factor R of a thin QR; here they are ``torch.linalg.svdvals`` and ``torch.linalg.qr(mode="r")`` on float64
tensors of the given device, the results copied back to numpy. Both are backward stable, like LAPACK's
(torch's CPU build calls its own LAPACK; CUDA calls cuSOLVER), so each singular value differs from numpy's
by at most the two backward errors, O(max(rows, cols) u sigma_1) (Weyl's inequality; u = 2^-53): the last
digits may differ, not the accuracy. torch is imported only when a device is asked for (``--device``).
On CUDA a layer's per-head QR factorisations and core SVDs go to torch as three batched calls
(:func:`numerics.spectra.spectrum.layer_spectra`), not one call each: each call is a kernel launch
(BERT-large has 2,304 small problems), and the batched kernels are backward stable too, so the same bound
holds. On the CPU torch's batched QR loops over LAPACK with more overhead (a BERT-large layer: 1.25 s
against 1.03 s of CPU), so there each matrix keeps its own call.
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Iterator
from typing import Any

import numpy as np

from numerics.spectra.backend import Linalg
from theory.errors import InvalidArgument, require

DEVICES = ("cpu", "cuda")


DEVICE_PURPOSE = "--device (omit it to use numpy's LAPACK)"


def _torch(purpose: str = DEVICE_PURPOSE) -> Any:
    return require("torch", purpose=purpose)


@contextlib.contextmanager
def single_thread(purpose: str = DEVICE_PURPOSE) -> Iterator[None]:
    """Within the block torch's intra-op pool runs one thread (restored afterwards): small problems on a
    busy machine gain nothing from more threads but their spinning. ``purpose`` is what a missing torch
    is needed for, in its one-line message."""
    torch = _torch(purpose)
    previous = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(previous)


def _cpu_threads(device: str) -> contextlib.AbstractContextManager[None]:
    """On the CPU, :func:`single_thread`, as numpy's OpenBLAS runs (:mod:`numerics.spectra.blas`: on a busy
    machine the threads spin; measured on a BERT-large layer at load 6 on 2 cores: 5.0 s CPU with torch's
    2 threads, 1.0 s with one), unless the user chose a count by environment (``OMP_NUM_THREADS``)."""
    if device != "cpu" or "OMP_NUM_THREADS" in os.environ:
        return contextlib.nullcontext()
    return single_thread()


def _on_device(matrix: np.ndarray, device: str) -> Any:
    return _torch().from_numpy(np.ascontiguousarray(matrix, dtype=np.float64)).to(device)


def singular_values(matrix: np.ndarray, device: str) -> np.ndarray:
    """sigma(matrix), descending, by ``torch.linalg.svdvals`` in float64 on ``device`` (of every matrix of
    a stack, one batched call)."""
    with _cpu_threads(device):
        return _torch().linalg.svdvals(_on_device(matrix, device)).cpu().numpy()


def triangular_factor(matrix: np.ndarray, device: str) -> np.ndarray:
    """R of the thin QR of ``matrix`` (min(rows, cols) x cols), by ``torch.linalg.qr`` in float64 (of every
    matrix of a stack, one batched call)."""
    with _cpu_threads(device):
        return _torch().linalg.qr(_on_device(matrix, device), mode="r").R.cpu().numpy()


def torch_linalg(device: str) -> Linalg:
    """The :class:`~numerics.spectra.backend.Linalg` of torch on ``device``; a one-line error when torch is
    missing, the device is unknown, or CUDA is asked for and not available."""
    if device not in DEVICES:
        raise InvalidArgument(f"device {device!r} is not one of {', '.join(DEVICES)}")
    torch = _torch()
    if device == "cuda" and not torch.cuda.is_available():
        raise InvalidArgument(
            "--device cuda: CUDA is not available to torch on this machine; use --device cpu or omit --device"
        )
    return Linalg(
        f"torch {torch.__version__} on {device}, float64",
        functools.partial(singular_values, device=device),
        functools.partial(triangular_factor, device=device),
        batches=device
        == "cuda",  # a kernel launch per call on the GPU; on the CPU one call per matrix is faster
    )
