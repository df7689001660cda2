"""A designed transformer on which the spectrum-adaptive choice must pick p > 0 (spectrum adaptivity).

Every projection (Wq, Wk, Wv, Wo, Win, Wout) is full rank with a power-law spectrum sigma_i =
scale * i^{-beta} (numerics.synthetic.prescribed, Haar singular vectors). At p = 0 a summand counts the
whole rank (sqrt(N rank) in B_ours, 3 N rank in the assembled bound); with a small scale the depth factors
and sensitivities are small and S_p of a fast-decaying spectrum is small, so p > 0 costs less: the post hoc
choice must leave p = 0. Trained weights (every real matrix but one, every trained synthetic one) pick p = 0.
"""

from __future__ import annotations

import numpy as np

from numerics.loading.weights import LayerWeights, ModelShape, TransformerWeights
from numerics.synthetic.prescribed import with_spectrum

DESIGNED = {"num_layers": 2, "hidden_size": 32, "num_heads": 1, "ffn_size": 128, "scale": 1.0, "beta": 2.0}
"""The designed model of ``compare --designed`` and claim 10b."""


def power_law_weights(
    *,
    num_layers: int,
    hidden_size: int,
    num_heads: int,
    ffn_size: int,
    scale: float,
    beta: float,
    seed: int = 0,
) -> TransformerWeights:
    """TransformerWeights whose every projection has singular values scale * i^{-beta}, i = 1..min(shape)."""
    shapes = [(hidden_size, hidden_size)] * 4 + [(ffn_size, hidden_size), (hidden_size, ffn_size)]
    layers = []
    for layer in range(num_layers):
        matrices = []
        for index, (rows, cols) in enumerate(shapes):
            sigma = scale * np.arange(1, min(rows, cols) + 1, dtype=np.float64) ** -beta
            matrices.append(with_spectrum(sigma, rows, cols, seed + 10 * layer + index).matrix)
        layers.append(LayerWeights(*matrices))
    label = f"designed power law (scale {scale}, beta {beta}) L{num_layers}-N{hidden_size}-H{num_heads}"
    return TransformerWeights(tuple(layers), ModelShape(hidden_size, num_heads, num_heads, ffn_size), label)


def designed_weights() -> TransformerWeights:
    """The model of :data:`DESIGNED`."""
    return power_law_weights(**DESIGNED)  # type: ignore[arg-type]
