"""Diagonal models whose every proxy quantity is known by hand.

N = 4, H = 2 heads (d_h = 2), F = 8, Wq = a I, Wk = b I, Wv = c I, Wo = d I, Win = e [I; 0], Wout = f [I, 0].
Then QK_h = ab E_h and Vt_h = cd E_h (E_h the identity on the head's two coordinates), and M_in and M_out
have four singular values e resp. f (tests/unit/numerics/test_proxies.py types the closed forms)."""

from __future__ import annotations

import numpy as np

from numerics.loading.weights import LayerWeights, ModelShape, TransformerWeights

N, H, F = 4, 2, 8
"""Width, heads and feed-forward width of every diagonal model."""


def diagonal_layer(a: float, b: float, c: float, d: float, e: float, f: float) -> LayerWeights:
    """One layer: Wq = a I, Wk = b I, Wv = c I, Wo = d I, Win = e [I; 0], Wout = f [I, 0]."""
    eye = np.eye(N)
    return LayerWeights(
        a * eye,
        b * eye,
        c * eye,
        d * eye,
        e * np.vstack([eye, np.zeros((4, 4))]),
        f * np.hstack([eye, np.zeros((4, 4))]),
    )


def diagonal_model(
    depth: int, a: float, b: float, c: float, d: float, e: float, f: float
) -> TransformerWeights:
    """``depth`` equal diagonal layers."""
    return layered_model([(a, b, c, d, e, f)] * depth)


def layered_model(params: list[tuple[float, ...]]) -> TransformerWeights:
    """One diagonal layer per parameter tuple (a, b, c, d, e, f): layers may differ."""
    layers = tuple(diagonal_layer(*layer) for layer in params)
    return TransformerWeights(layers, ModelShape(N, H, H, F), f"diagonal model, {len(layers)} layers")
