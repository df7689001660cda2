"""The optional torch backend of the spectra: the same two float64 operations as numpy's, on "cpu" or "cuda".

:func:`numerics.spectra.spectrum.spectrum` needs singular values (values only, no U or V) and the triangular
factor R of a thin QR; here they are ``torch.linalg.svdvals`` and ``torch.linalg.qr(mode="r")`` on float64
tensors of the given device, the results copied back to numpy. Both are backward stable, like LAPACK's
(torch's CPU build calls its own LAPACK; CUDA calls cuSOLVER), so each singular value differs from numpy's
by at most the two backward errors, O(max(rows, cols) u sigma_1) (Weyl's inequality; u = 2^-53): the last
digits may differ, not the accuracy. torch is imported only when a device is asked for (``--device``).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from numerics.spectra.spectrum import Linalg
from theory.errors import InvalidArgument, require

DEVICES = ("cpu", "cuda")


def _torch() -> Any:
    return require("torch", purpose="--device (omit it to use numpy's LAPACK)")


def _on_device(matrix: np.ndarray, device: str) -> Any:
    return _torch().from_numpy(np.ascontiguousarray(matrix, dtype=np.float64)).to(device)


def singular_values(matrix: np.ndarray, device: str) -> np.ndarray:
    """sigma(matrix), descending, by ``torch.linalg.svdvals`` in float64 on ``device``."""
    return _torch().linalg.svdvals(_on_device(matrix, device)).cpu().numpy()


def triangular_factor(matrix: np.ndarray, device: str) -> np.ndarray:
    """R of the thin QR of ``matrix`` (min(rows, cols) x cols), by ``torch.linalg.qr`` in float64."""
    return _torch().linalg.qr(_on_device(matrix, device), mode="r").R.cpu().numpy()


def torch_linalg(device: str) -> Linalg:
    """The :class:`~numerics.spectra.spectrum.Linalg` of torch on ``device``; a one-line error when torch is
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
    )
