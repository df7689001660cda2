"""A small transformer that is exactly the network class of the reconstructed Theorem 3.1.

Architecture (docs/mathematics.md; reconstructed),
row-vector convention, input X in R^{T x N} with rows of norm <= 1. Each of the L layers computes

    X <- Pi( sum_h softmax(X QK_h X^T) X Vt_h ),     QK_h = Wq[hs,:]^T Wk[hs,:],  Vt_h = Wv[hs,:]^T Wo[:,hs]^T
    X <- Pi( GELU(X M_in) M_out ),                    M_in = Win^T,  M_out = Wout^T

where Pi(x) = x / max(1, ||x||_2) projects every row onto the unit ball and hs are the rows of head h.
There is no residual branch, no bias, no LayerNorm and no 1/sqrt(d_h) score scaling: the depth factor
alpha of docs: proxies has no "1 +" term and the score is exactly X QK_h X^T. The output is the
scalar f(X) = <w, x_0> / max(1, ||w||) read off the first token, so |f(X)| <= 1.

The weights are ``nn.Linear`` modules without bias (out x in), so :func:`to_weights` gives a
:class:`numerics.loading.TransformerWeights` whose matrices
(:func:`numerics.spectra.matrices.extract_matrices`)
are literally the ones this forward pass multiplies by. torch is imported lazily (``specbound[models]``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from numerics.loading.weights import PROJECTIONS, LayerWeights, ModelShape, TransformerWeights
from theory.errors import InvalidArgument, require

if TYPE_CHECKING:  # pragma: no cover
    import torch


@dataclass(frozen=True)
class SyntheticConfig:
    """Architecture of a synthetic transformer: L layers, hidden size N, H heads, feed-forward size F.

    ``ffn_size`` defaults to 4N (BERT's ratio). ``init_scale`` multiplies the default ``nn.Linear``
    initialisation; ``seed`` fixes the initial weights.

    >>> SyntheticConfig(num_layers=2, hidden_size=8, num_heads=2).ffn
    32
    """

    num_layers: int = 2
    hidden_size: int = 16
    num_heads: int = 1
    ffn_size: int | None = None
    init_scale: float = 1.0
    seed: int = 0
    name: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        for attr in ("num_layers", "hidden_size", "num_heads"):
            value = getattr(self, attr)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise InvalidArgument(f"SyntheticConfig {attr}={value!r} must be an integer >= 1")
        if self.ffn_size is not None and (not isinstance(self.ffn_size, int) or self.ffn_size < 1):
            raise InvalidArgument(
                f"SyntheticConfig ffn_size={self.ffn_size!r} must be an integer >= 1 or None (4N)"
            )
        if self.hidden_size % self.num_heads:
            raise InvalidArgument(
                f"SyntheticConfig hidden_size={self.hidden_size} is not divisible by "
                f"num_heads={self.num_heads}"
            )
        if not (np.isfinite(self.init_scale) and self.init_scale > 0):
            raise InvalidArgument(
                f"SyntheticConfig init_scale={self.init_scale!r} must be a finite number > 0"
            )

    @property
    def ffn(self) -> int:
        """F, the feed-forward size (4N unless given)."""
        return self.ffn_size if self.ffn_size is not None else 4 * self.hidden_size

    @property
    def label(self) -> str:
        """A short name such as ``L2-N16-H1`` (or ``name`` when given)."""
        return self.name or f"L{self.num_layers}-N{self.hidden_size}-H{self.num_heads}"


def _torch() -> Any:
    return require("torch", purpose="a synthetic transformer")


def project_rows(x: torch.Tensor) -> torch.Tensor:
    """Pi(x) = x / max(1, ||x||_2) on every row (last axis): the projection onto the unit ball."""
    torch = _torch()
    return x / torch.clamp(torch.linalg.vector_norm(x, dim=-1, keepdim=True), min=1.0)


def build_model(config: SyntheticConfig) -> torch.nn.Module:
    """A float64 ``torch.nn.Module`` computing f: (B, T, N) -> (B,), initialised from ``config.seed``.

    The module has ``layers`` (each with ``wq, wk, wv, wo, w_in, w_out``, bias-free ``nn.Linear``),
    ``readout`` (``nn.Linear(N, 1)``, normalised to norm <= 1 in the forward pass) and ``config``.
    """
    torch = _torch()
    nn: Any = torch.nn
    n, f, h = config.hidden_size, config.ffn, config.num_heads

    class _Layer(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.wq, self.wk, self.wv, self.wo = (nn.Linear(n, n, bias=False) for _ in range(4))
            self.w_in = nn.Linear(n, f, bias=False)
            self.w_out = nn.Linear(f, n, bias=False)

        def forward(self, x: Any) -> Any:
            b, t, _ = x.shape
            q, k, v = (m(x).view(b, t, h, n // h).transpose(1, 2) for m in (self.wq, self.wk, self.wv))
            attention = torch.softmax(q @ k.transpose(-1, -2), dim=-1)
            x = project_rows(self.wo((attention @ v).transpose(1, 2).reshape(b, t, n)))
            return project_rows(self.w_out(nn.functional.gelu(self.w_in(x))))

    class _SyntheticTransformer(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.config = config
            self.layers = nn.ModuleList(_Layer() for _ in range(config.num_layers))
            self.readout = nn.Linear(n, 1, bias=False)

        def forward(self, x: Any) -> Any:
            x = project_rows(x)
            for layer in self.layers:
                x = layer(x)
            w = self.readout.weight[0]
            return (x[:, 0, :] @ w) / torch.clamp(torch.linalg.vector_norm(w), min=1.0)

    generator_state = torch.random.get_rng_state()
    try:
        torch.manual_seed(config.seed)
        model = _SyntheticTransformer().double()
    finally:
        torch.random.set_rng_state(generator_state)
    with torch.no_grad():
        for parameter in model.parameters():
            parameter.mul_(config.init_scale)
    return model


def readout_weight(model: torch.nn.Module) -> np.ndarray:
    """The trained read-out w (N entries, float64 copy); the forward pass uses w / max(1, ||w||).

    The assembled bound covers it as the K-th matrix (``numerics.bounds.assembled.readout``).

    >>> readout_weight(build_model(SyntheticConfig(num_layers=1, hidden_size=4))).shape
    (4,)
    """
    return np.array(model.readout.weight.detach().cpu().double().numpy()[0])  # type: ignore[union-attr,operator]


def to_weights(model: torch.nn.Module, source: str | None = None) -> TransformerWeights:
    """The model's projections as :class:`TransformerWeights` (float64 copies, ``nn.Linear`` layout).

    >>> model = build_model(SyntheticConfig(num_layers=1, hidden_size=4, num_heads=2))
    >>> w = to_weights(model)
    >>> (w.num_layers, w.hidden_size, w.num_heads, w.ffn_size)
    (1, 4, 2, 16)
    """
    config: SyntheticConfig = model.config  # type: ignore[assignment]
    layers = tuple(
        LayerWeights(
            *(np.array(getattr(layer, name).weight.detach().cpu().double().numpy()) for name in PROJECTIONS)
        )
        for layer in model.layers  # type: ignore[union-attr]
    )
    return TransformerWeights(
        layers,
        ModelShape(config.hidden_size, config.num_heads, config.num_heads, config.ffn),
        source or f"synthetic {config.label}",
    )
