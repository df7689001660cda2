"""Checkpoint loading: sources (aliases, folders, files, ONNX) -> :class:`TransformerWeights` (float64).

The public names below are imported on first use (PEP 562), so a light submodule (``aliases``,
``coverage``) can be imported without numpy and the loaders.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from theory.prover.lazy_exports import lazy_getattr

if TYPE_CHECKING:
    from numerics.loading.aliases import DEFAULT_MODELS as DEFAULT_MODELS
    from numerics.loading.checkpoint import load_weights as load_weights
    from numerics.loading.checkpoint import open_checkpoint as open_checkpoint
    from numerics.loading.weights import PROJECTIONS as PROJECTIONS
    from numerics.loading.weights import LayerWeights as LayerWeights
    from numerics.loading.weights import TransformerWeights as TransformerWeights

_HOME = {
    "DEFAULT_MODELS": "numerics.loading.aliases",
    "load_weights": "numerics.loading.checkpoint",
    "open_checkpoint": "numerics.loading.checkpoint",
    "PROJECTIONS": "numerics.loading.weights",
    "LayerWeights": "numerics.loading.weights",
    "TransformerWeights": "numerics.loading.weights",
}

__all__ = sorted(_HOME)


__getattr__ = lazy_getattr(__name__, _HOME)
