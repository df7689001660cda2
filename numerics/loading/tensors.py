"""Where a checkpoint's tensors come from, read a few at a time as exact float arrays: files, shards, memory.

A :class:`TensorSource` lists its tensor names and reads the ones asked for. Safetensors files (one, or
the shards of a ``model.safetensors.index.json``) are memory-mapped and read per tensor, so a caller that
asks for one layer at a time never holds more than that layer; a mapping (a state dict, the tensors of a
``pytorch_model.bin`` or an ONNX export) is read from memory, upcast to float64. Safetensors tensors keep
their stored width (float16, float32, float64; bfloat16 as float32, exactly): the upcast to float64 is done
one matrix at a time by whoever needs it (:mod:`numerics.loading.stream`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from numerics.loading.hf_folder import read_safetensors
from numerics.safe_io import inside, read_json
from theory.errors import CheckpointError, UnsupportedCheckpoint, require
from theory.records import record

SHARD_INDEX = "model.safetensors.index.json"
BIN_SHARD_INDEX = "pytorch_model.bin.index.json"


class TensorSource(Protocol):
    """Tensor names, and exact float arrays (float16, float32 or float64) of the ones asked for."""

    @property
    def names(self) -> tuple[str, ...]: ...

    def read(self, names: Iterable[str]) -> dict[str, np.ndarray]: ...


@record
class SafetensorsFiles:
    """One or more safetensors files (the shards of one model), read tensor by tensor."""

    paths: tuple[Path, ...]
    shard_of: dict[str, Path] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for path in self.paths:  # names only (no tensor read), with the reader's error handling
            for name in read_safetensors(path, lambda _: False)[1]:
                self.shard_of.setdefault(name, path)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.shard_of)

    def read(self, names: Iterable[str]) -> dict[str, np.ndarray]:
        by_shard: dict[Path, set[str]] = {}
        for name in names:
            by_shard.setdefault(self.shard_of[name], set()).add(name)
        out: dict[str, np.ndarray] = {}
        for path, wanted in by_shard.items():
            out.update(read_safetensors(path, wanted.__contains__)[0])
        return out


def shards(index: Path) -> tuple[Path, ...]:
    """The shard files a shard index (safetensors or .bin) names (its ``weight_map`` values), in order,
    each resolved inside the index's folder (:func:`numerics.safe_io.inside`); CheckpointError for an
    index that is not a JSON object mapping tensor names to file names, or names a file outside."""
    document = read_json(index)
    weight_map = document.get("weight_map") if isinstance(document, dict) else None
    if not isinstance(weight_map, dict) or not weight_map:
        raise CheckpointError(f"{index} is not a shard index: it needs a non-empty JSON object weight_map")
    wrong = [value for value in weight_map.values() if not isinstance(value, str) or not value]
    if wrong:
        raise CheckpointError(
            f"{index}: a weight_map value is {json.dumps(wrong[0])[:40]}, expected the file name of a shard"
        )
    return tuple(inside(index.parent, name, str(index)) for name in sorted(set(weight_map.values())))


def check_weight_map(index: Path, located: Mapping[str, Path]) -> None:
    """The shards hold exactly the tensors the index's ``weight_map`` lists, each in the file it names
    (``located``: tensor name -> the shard it was found in); CheckpointError naming the first tensor the
    index invents (no shard has it), omits (a shard has it, the index does not say) or misplaces."""
    document = read_json(index)
    weight_map = document["weight_map"] if isinstance(document, dict) else {}  # shards() validated it
    expected = {name: inside(index.parent, file, str(index)) for name, file in weight_map.items()}
    invented = sorted(set(expected) - set(located))
    omitted = sorted(set(located) - set(expected))
    moved = sorted(name for name in expected if name in located and located[name] != expected[name])
    for names, problem in (
        (invented, "lists {} in {}, but that shard does not hold it"),
        (omitted, "does not list {}, which the shard {} holds"),
        (moved, "places {} in {}, but another shard holds it"),
    ):
        if names:
            name = names[0]
            shard = expected.get(name, located.get(name))
            assert shard is not None
            more = f" ({len(names) - 1} more like it)" if len(names) > 1 else ""
            raise CheckpointError(
                f"{index}: its weight_map {problem.format(name, shard.name)}{more}; the index and its "
                "shards disagree, rebuild the index"
            )


@record
class InMemory:
    """A mapping from names to numpy arrays or torch tensors (a state dict), upcast on read."""

    tensors: Mapping[str, Any]
    where: str

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.tensors)

    def read(self, names: Iterable[str]) -> dict[str, np.ndarray]:
        return {name: as_float64(self.tensors[name], name, self.where) for name in names}


def as_float64(value: Any, name: str, where: str) -> np.ndarray:
    """A float tensor or array as a float64 numpy array (exact upcast); quantised or integer types refused."""
    if hasattr(value, "detach"):  # a torch tensor
        torch = require("torch", purpose=f"{where}: reading a torch tensor")

        if not value.dtype.is_floating_point:
            raise UnsupportedCheckpoint(f"{where}: tensor {name} has dtype {value.dtype}; only float weights")
        return value.detach().to(device="cpu", dtype=torch.float64).numpy().copy()  # never the model's memory
    array = np.asarray(value)
    if array.dtype.kind != "f":
        raise UnsupportedCheckpoint(f"{where}: tensor {name} has dtype {array.dtype}; only float weights")
    return array.astype(np.float64)
