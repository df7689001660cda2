"""Tiny BERT checkpoints written to disk for the loader and ``inspect`` tests (no torch needed).

``tiny_bert_tensors`` makes a state dict with the module names of a Hugging Face BertModel (weights in
``nn.Linear`` layout out x in, biases, LayerNorms, embeddings); ``write_folder`` saves it as a Hugging Face
folder (config.json + model.safetensors).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

MODULE_SHAPES = {
    "attention.self.query": ("wq", "N", "N"),
    "attention.self.key": ("wk", "N", "N"),
    "attention.self.value": ("wv", "N", "N"),
    "attention.output.dense": ("wo", "N", "N"),
    "intermediate.dense": ("w_in", "F", "N"),
    "output.dense": ("w_out", "N", "F"),
}


def tiny_bert_tensors(
    seed: int = 0, layers: int = 2, hidden: int = 8, ffn: int = 16, prefix: str = "", dtype: type = np.float32
) -> dict[str, np.ndarray]:
    """A random BERT state dict with ``layers`` layers, hidden size ``hidden`` and FFN size ``ffn``."""
    rng = np.random.default_rng(seed)
    size = {"N": hidden, "F": ffn}
    tensors = {f"{prefix}embeddings.word_embeddings.weight": rng.standard_normal((30, hidden)).astype(dtype)}
    for index in range(layers):
        for module, (_, rows, cols) in MODULE_SHAPES.items():
            name = f"{prefix}encoder.layer.{index}.{module}"
            tensors[f"{name}.weight"] = rng.standard_normal((size[rows], size[cols])).astype(dtype)
            tensors[f"{name}.bias"] = rng.standard_normal(size[rows]).astype(dtype)
        tensors[f"{prefix}encoder.layer.{index}.output.LayerNorm.weight"] = np.ones(hidden, dtype)
    return tensors


def projection(tensors: dict[str, np.ndarray], layer: int, name: str, prefix: str = "") -> np.ndarray:
    """The tensor of projection ``name`` (wq, wk, wv, wo, w_in, w_out) of ``layer`` in ``tensors``."""
    module = next(m for m, (short, _, _) in MODULE_SHAPES.items() if short == name)
    return tensors[f"{prefix}encoder.layer.{layer}.{module}.weight"]


def bert_config(layers: int = 2, hidden: int = 8, heads: int = 2, ffn: int = 16, **extra: object) -> dict:
    """A Hugging Face BertConfig as a JSON-ready dict."""
    return {
        "model_type": "bert",
        "architectures": ["BertModel"],
        "num_hidden_layers": layers,
        "hidden_size": hidden,
        "num_attention_heads": heads,
        "intermediate_size": ffn,
        **extra,
    }


def write_folder(folder: Path, tensors: dict[str, np.ndarray] | None, config: dict | None) -> Path:
    """Write config.json and model.safetensors (each only if given) into ``folder``; returns the folder."""
    from safetensors.numpy import save_file

    folder.mkdir(parents=True, exist_ok=True)
    if config is not None:
        (folder / "config.json").write_text(json.dumps(config))
    if tensors is not None:
        save_file(tensors, str(folder / "model.safetensors"))
    return folder
