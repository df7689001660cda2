"""A LLaMA checkpoint of random weights written with numpy and safetensors alone (no torch), at a chosen
storage dtype, for the tests of streamed spectra and of the torch backend."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

LLAMA_MODULES = {
    "self_attn.q_proj": ("N", "N"),
    "self_attn.k_proj": ("N", "N"),
    "self_attn.v_proj": ("N", "N"),
    "self_attn.o_proj": ("N", "N"),
    "mlp.gate_proj": ("F", "N"),
    "mlp.up_proj": ("F", "N"),
    "mlp.down_proj": ("N", "F"),
}
"""Projection modules of one layer and their (rows, columns) in terms of N (hidden) and F (feed-forward)."""


def write_llama(folder: Path, dtype: type, hidden: int = 16, ffn: int = 40, layers: int = 2) -> Path:
    """A LLaMA checkpoint of random weights stored as ``dtype`` (safetensors, numpy only)."""
    safetensors = pytest.importorskip("safetensors.numpy", reason="writing safetensors needs safetensors")
    rng = np.random.default_rng(7)
    size = {"N": hidden, "F": ffn}
    with np.errstate(under="ignore"):  # float16 rounds a few tiny draws to subnormals
        tensors = {
            f"model.layers.{i}.{module}.weight": (
                rng.standard_normal((size[rows], size[cols])) / np.sqrt(size[cols])
            ).astype(dtype)
            for i in range(layers)
            for module, (rows, cols) in LLAMA_MODULES.items()
        }
    folder.mkdir()
    safetensors.save_file(tensors, str(folder / "model.safetensors"))
    config = {
        "model_type": "llama",
        "num_hidden_layers": layers,
        "hidden_size": hidden,
        "intermediate_size": ffn,
        "num_attention_heads": 4,
        "num_key_value_heads": 4,
    }
    (folder / "config.json").write_text(json.dumps(config))
    return folder
