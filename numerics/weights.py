"""`TransformerWeights`: the projection matrices of a BERT-family encoder, as float64 arrays.

Layout follows PyTorch ``nn.Linear`` (out x in): Wq, Wk, Wv, Wo are N x N, Win is F x N, Wout is N x F
(F the feed-forward size). Biases, LayerNorm and embeddings are not kept: the theory ignores them
(docs: matrices, exact).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from theory.errors import InvalidArgument

PROJECTIONS = ("wq", "wk", "wv", "wo", "w_in", "w_out")
"""The six projection names of a layer, in the docs' order (Wq, Wk, Wv, Wo, Win, Wout)."""


@dataclass(frozen=True, eq=False)
class LayerWeights:
    """The six projection weights of one encoder layer, float64, ``nn.Linear`` layout (out x in)."""

    wq: np.ndarray
    wk: np.ndarray
    wv: np.ndarray
    wo: np.ndarray
    w_in: np.ndarray
    w_out: np.ndarray

    def items(self) -> tuple[tuple[str, np.ndarray], ...]:
        """(name, array) pairs in the docs' order."""
        return tuple((name, getattr(self, name)) for name in PROJECTIONS)


@dataclass(frozen=True, eq=False)
class TransformerWeights:
    """A BERT-family encoder's projection weights, validated on construction.

    Invariants: every array is a finite float64 matrix; Wq, Wk, Wv, Wo are N x N, Win is F x N and
    Wout is N x F; N is divisible by ``num_heads``. ``source`` says where the weights came from.
    """

    layers: tuple[LayerWeights, ...]
    hidden_size: int
    num_heads: int
    ffn_size: int
    source: str

    def __post_init__(self) -> None:
        n, f, h = self.hidden_size, self.ffn_size, self.num_heads
        where = f"in {self.source}"
        if not self.layers:
            raise InvalidArgument(f"no encoder layers {where}; a transformer needs at least one layer")
        if h < 1 or n < 1 or f < 1:
            raise InvalidArgument(f"hidden_size={n}, num_heads={h}, ffn_size={f} {where} must all be >= 1")
        if n % h:
            raise InvalidArgument(
                f"hidden_size={n} is not divisible by num_heads={h} {where}; "
                "heads must split the hidden dimension"
            )
        expected = {"wq": (n, n), "wk": (n, n), "wv": (n, n), "wo": (n, n), "w_in": (f, n), "w_out": (n, f)}
        for index, layer in enumerate(self.layers):
            for name, array in layer.items():
                if not isinstance(array, np.ndarray) or array.dtype != np.float64:
                    raise InvalidArgument(f"layer {index} {name} {where} must be a float64 numpy array")
                if array.shape != expected[name]:
                    raise InvalidArgument(
                        f"layer {index} {name} {where} has shape {array.shape}, expected {expected[name]} "
                        f"(N={n}, FFN={f}, nn.Linear layout out x in)"
                    )
                if not np.isfinite(array).all():
                    bad = int(np.size(array) - np.count_nonzero(np.isfinite(array)))
                    raise InvalidArgument(
                        f"layer {index} {name} {where} has {bad} NaN or infinite entries; "
                        "the checkpoint is damaged or was saved mid-divergence"
                    )

    @property
    def num_layers(self) -> int:
        """L, the number of encoder layers."""
        return len(self.layers)

    @property
    def head_dim(self) -> int:
        """d_h = N / H."""
        return self.hidden_size // self.num_heads

    def truncated(self, depth: int) -> TransformerWeights:
        """The first ``depth`` layers of this model (a depth series made from one trained model)."""
        if not 1 <= depth <= self.num_layers:
            raise InvalidArgument(f"depth={depth} is outside [1, {self.num_layers}] for {self.source}")
        return TransformerWeights(
            self.layers[:depth],
            self.hidden_size,
            self.num_heads,
            self.ffn_size,
            f"{self.source} (first {depth} of {self.num_layers} layers)",
        )
