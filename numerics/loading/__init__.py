"""Checkpoint loading: sources (aliases, folders, files, ONNX) -> :class:`TransformerWeights` (float64)."""

from numerics.loading.checkpoint import DEFAULT_MODELS as DEFAULT_MODELS
from numerics.loading.checkpoint import clear_cache as clear_cache
from numerics.loading.checkpoint import load_weights as load_weights
from numerics.loading.checkpoint import open_checkpoint as open_checkpoint
from numerics.loading.weights import PROJECTIONS as PROJECTIONS
from numerics.loading.weights import LayerWeights as LayerWeights
from numerics.loading.weights import TransformerWeights as TransformerWeights
