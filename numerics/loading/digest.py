"""The content hash of a model's weights: sha256 over its sizes and one sha256 per layer.

A layer's digest covers every projection's name, shape and float64 bytes (C order), so the weights loaded
whole, streamed layer by layer, or digested inside worker processes (each a layer it read for its spectra)
give the same hash; and a layer read at its stored width hashes as its exact float64 upcast.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

import numpy as np

from numerics.loading.weights import LayerWeights


def layer_digest(layer: LayerWeights) -> bytes:
    """sha256 of the layer's projections in order: for each, ``"name shape"`` then its float64 bytes
    (each matrix upcast alone: memory holds one float64 matrix)."""
    digest = hashlib.sha256()
    for name, array in layer.items():
        digest.update(f"{name} {array.shape}".encode())
        digest.update(np.ascontiguousarray(array, dtype="<f8").data.cast("B"))
    return digest.digest()


def weights_digest(num_layers: int, hidden_size: int, num_heads: int, layers: Iterable[bytes]) -> str:
    """The hex sha256 of ``"L N H"`` followed by the layers' :func:`layer_digest`, in layer order."""
    digest = hashlib.sha256(f"{num_layers} {hidden_size} {num_heads}".encode())
    for part in layers:
        digest.update(part)
    return digest.hexdigest()
