"""Models already in memory: a transformers ``PreTrainedModel``, any ``nn.Module``, or a state dict.

A module is read through its ``state_dict()`` (the same names a saved checkpoint has, so the same
family adapters apply) and its ``config`` when it has one; a state dict takes its sizes from
``config=`` (a dict such as ``config.json``'s, or a transformers config object).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from numerics.loading.tensors import InMemory
from theory.errors import UnsupportedCheckpoint


def in_memory(source: Any, config: Any = None) -> tuple[InMemory, dict[str, Any] | None, str]:
    """The tensors, the config as a dict (or None) and a label of an in-memory model or state dict."""
    if isinstance(source, Mapping):
        return InMemory(source, "state dict"), _as_dict(config), "state dict"
    state_dict = getattr(source, "state_dict", None)
    if not callable(state_dict):
        raise UnsupportedCheckpoint(
            f"specbound cannot read a {type(source).__name__}: give an alias, a path (Hugging Face folder, "
            ".safetensors, .bin or .onnx file), an nn.Module or a state dict (with config=)"
        )
    where = f"in-memory {type(source).__name__}"
    return InMemory(state_dict(), where), _as_dict(config or getattr(source, "config", None)), where


def _as_dict(config: Any) -> dict[str, Any] | None:
    """A config as a plain dict: dicts as they are, transformers configs through ``to_dict()``."""
    if config is None or isinstance(config, dict):
        return config
    to_dict = getattr(config, "to_dict", None)
    if callable(to_dict):
        return dict(to_dict())
    if isinstance(config, Mapping):
        return dict(config)
    raise UnsupportedCheckpoint(
        "config= must be a dict (the content of config.json) or a transformers config, "
        f"not {type(config).__name__}"
    )
