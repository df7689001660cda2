"""Read a Hugging Face checkpoint: its ``config.json`` and the tensors of a weights file, as float arrays.

Two weight formats: ``.safetensors`` (read with ``safetensors`` in its numpy flavour, no torch; bfloat16,
which numpy lacks, is widened bit-exactly from its raw bytes) and ``pytorch_model.bin`` (needs torch).
Only the tensors a caller asks for are read, so the 30k x N word embeddings are never upcast.
Every failure names the file and what is wrong with it: :class:`~theory.errors.CheckpointError` for an
unreadable file, :class:`~theory.errors.UnsupportedCheckpoint` for a quantised dtype. Which family a
config describes is decided by :mod:`numerics.loading.families`.
"""

from __future__ import annotations

import json
import math
import pickle
import re
import struct
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np

from numerics.safe_io import os_problem, regular_file
from theory.errors import CheckpointError, UnsupportedCheckpoint, require

CONFIG_NAME = "config.json"
WEIGHT_NAMES = ("model.safetensors", "pytorch_model.bin")
"""Weight files looked for in a folder, in order of preference (safetensors needs no torch)."""

_FLOAT_DTYPES = {"F16", "F32", "F64", "BF16"}
MAX_MATRIX_BYTES = 16 << 30
"""Largest projection matrix read, in float64 bytes (16 GiB: 32768 x 65536); a larger declared shape is a
lie or not an encoder, and reading it would exhaust memory."""
_TORCH_FLOATS = ("torch.float16", "torch.bfloat16", "torch.float32", "torch.float64")


def read_config_object(path: Path) -> dict:
    """A ``config.json`` as a dict, or CheckpointError naming the file (unreadable, not JSON, no object)."""
    regular_file(path)
    try:
        config = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise CheckpointError(f"{path} cannot be read: {os_problem(error)}") from None
    except (ValueError, RecursionError) as error:  # bad JSON or UTF-8, a 5000-digit integer, deep nesting
        reason = "nested too deeply" if isinstance(error, RecursionError) else str(error)
        raise CheckpointError(f"{path} is not a readable JSON config: {reason}") from None
    if not isinstance(config, dict):
        raise CheckpointError(
            f"{path} holds a JSON {type(config).__name__}, expected an object of model settings"
        )
    return config


def find_weights_file(folder: Path) -> Path | None:
    """The weights file of a Hugging Face folder (:data:`WEIGHT_NAMES`, first present wins), or None."""
    return next((folder / name for name in WEIGHT_NAMES if (folder / name).is_file()), None)


def read_safetensors(
    path: Path, wanted: Callable[[str], bool]
) -> tuple[dict[str, np.ndarray], tuple[str, ...]]:
    """The tensors of ``path`` whose names satisfy ``wanted`` at their stored width (float16, float32 or
    float64; bfloat16 widened exactly to float32), and all tensor names. The caller upcasts to float64 one
    matrix at a time (:func:`numerics.loading.stream.read_layer`), so a whole layer is never held twice.
    Each tensor is copied out under its own mapping of the file: the mapped pages of the tensors read before
    it are released, so memory holds the arrays read plus one tensor's file pages (one mapping for all would
    keep every page read resident until the end, doubling the layer)."""
    safetensors = require("safetensors", purpose=f"reading {path}")
    safe_open, SafetensorError = safetensors.safe_open, safetensors.SafetensorError

    tensors = {}
    selected: list[tuple[str, str]] = []
    try:
        with safe_open(str(path), framework="numpy") as handle:
            names = tuple(handle.keys())
            for name in filter(wanted, names):
                dtype = handle.get_slice(name).get_dtype()
                if dtype not in _FLOAT_DTYPES:
                    raise UnsupportedCheckpoint(
                        f"{path}: tensor {name} has dtype {dtype}; only float checkpoints are supported "
                        "(quantisation noise distorts the small singular values the bound depends on)"
                    )
                shape = handle.get_slice(name).get_shape()
                if len(shape) not in (1, 2, 3):  # refused before reading: a lying shape may declare terabytes
                    raise CheckpointError(
                        f"{path}: tensor {name} has shape {tuple(shape)}, expected 1 to 3 axes"
                    )
                if 8 * math.prod(shape) > MAX_MATRIX_BYTES:
                    raise CheckpointError(
                        f"{path}: tensor {name} has shape {tuple(shape)}, over {MAX_MATRIX_BYTES >> 30} GiB "
                        "in float64; no encoder's projection is that large"
                    )
                selected.append((name, dtype))
        for name, dtype in selected:
            if dtype == "BF16":
                tensors[name] = _read_bf16(path, name)
                continue
            with safe_open(str(path), framework="numpy") as handle:
                tensors[name] = np.asarray(handle.get_tensor(name))
    except SafetensorError as error:
        raise CheckpointError(
            f"{path} is not a valid safetensors file (truncated or corrupt?): {error}"
        ) from None
    except OSError as error:
        raise CheckpointError(f"{path} cannot be read: {os_problem(error)}") from None
    except MemoryError as error:  # safetensors maps the whole file: a (sparse) file beyond the address space
        raise CheckpointError(
            f"{path} cannot be mapped into memory ({error}); is it really a checkpoint?"
        ) from None
    except (ValueError, KeyError, TypeError, struct.error) as error:  # _read_bf16 on a lying header
        raise CheckpointError(
            f"{path} is not a valid safetensors file: {type(error).__name__}: {error}"
        ) from None
    except BaseException as error:  # safetensors' Rust code panics (a BaseException) when memory runs out
        if type(error).__name__ != "PanicException":
            raise
        raise CheckpointError(f"{path}: the safetensors reader failed: {_first_line(error)}") from None
    return tensors, names


_ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def _first_line(error: BaseException) -> str:
    """The telling line of an error's message, without terminal colour codes (torch adds them): torch's
    ``WeightsUnpickler error:`` line (what was refused) when present, else the first non-empty line."""
    lines = [line.strip() for line in _ANSI_ESCAPE.sub("", str(error)).splitlines() if line.strip()]
    refusal = [line for line in lines if line.startswith("WeightsUnpickler error:")]
    return (refusal or lines or [type(error).__name__])[0]


def _read_bf16(path: Path, name: str) -> np.ndarray:
    """A bfloat16 tensor as float32 (exact: bfloat16 is the top half of a float32), from the raw file.

    Safetensors layout: an 8-byte little-endian header length, a JSON header giving each tensor's dtype,
    shape and byte range, then the data.
    """
    with path.open("rb") as stream:
        (header_size,) = struct.unpack("<Q", stream.read(8))
        entry = json.loads(stream.read(header_size))[name]
        start, end = entry["data_offsets"]
        stream.seek(8 + header_size + start)
        raw = np.frombuffer(stream.read(end - start), dtype="<u2")
    return (raw.astype(np.uint32) << 16).view(np.float32).reshape(entry["shape"])


def read_torch_bin(
    path: Path, wanted: Callable[[str], bool]
) -> tuple[dict[str, np.ndarray], tuple[str, ...]]:
    """Like :func:`read_safetensors`, for a ``pytorch_model.bin`` (a saved state dict); needs torch."""
    torch = require("torch", purpose=f"{path} is a PyTorch pickle (model.safetensors is not); reading it")
    try:
        with warnings.catch_warnings():  # e.g. "pickle protocol 4": a second stderr line, not an error
            warnings.simplefilter("ignore")
            state = torch.load(str(path), map_location="cpu", weights_only=True)
    except pickle.UnpicklingError as error:  # the weights-only unpickler met code or an unknown global
        raise CheckpointError(
            f"{path} holds pickled objects other than tensors, which a weights-only load refuses "
            f"(specbound never executes a pickle): {_first_line(error)}"
        ) from None
    except Exception as error:  # torch raises RuntimeError, pickle, zipfile or EOF errors on damaged files
        raise CheckpointError(
            f"{path} is not a readable PyTorch checkpoint (truncated or corrupt?): "
            f"{type(error).__name__}: {_first_line(error)}"
        ) from None
    if not isinstance(state, dict) or not all(isinstance(v, torch.Tensor) for v in state.values()):
        raise CheckpointError(f"{path} does not hold a state dict (a mapping from names to tensors)")
    tensors = {}
    for name in filter(wanted, state):
        tensor = state[name]
        if str(tensor.dtype) not in _TORCH_FLOATS:
            raise UnsupportedCheckpoint(
                f"{path}: tensor {name} has dtype {tensor.dtype}; only float checkpoints are supported "
                "(quantisation noise distorts the small singular values the bound depends on)"
            )
        if tensor.layout != torch.strided or tensor.is_meta:
            kind = "a meta tensor (no data)" if tensor.is_meta else f"a {tensor.layout} tensor"
            raise UnsupportedCheckpoint(f"{path}: tensor {name} is {kind}; specbound reads dense tensors")
        tensors[name] = tensor.detach().to(torch.float64).numpy()
    return tensors, tuple(state)
