"""Shared by the depth claims 8a-8d: theory's growth laws, and models built with a known depth factor.

A model with a known per-layer factor ell: every layer of an H-head encoder has Wq = Wk = a I,
Wv = Wo = b I (so C2(QK_h) = a^2, C2(Vt_h) = b^2), W_in = c [I; 0], W_out = c [I, 0] (C2 = c), hence the
exact proxy's per-layer Lipschitz factor is ell = L_phi c^2 H b^2 (1 + 4 a^2), known from the design
constants, not measured: a prediction made from it is independent of the alphas numerics computes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from paper_checks.scaling import ScalingPoint, fit_all, log_proxies
from theory.growth import Growth
from theory.proxy import L_PHI_VALUE


@dataclass(frozen=True)
class KnownAlphaDesign:
    """Design constants of a model with known per-layer factor ell (module docstring)."""

    a: float
    b: float
    c: float
    width: int = 8
    heads: int = 2

    @property
    def layer_factor(self) -> float:
        """ell = L_phi c^2 H b^2 (1 + 4 a^2), from the design constants."""
        return float(L_PHI_VALUE) * self.c**2 * self.heads * self.b**2 * (1 + 4 * self.a**2)


BOUNDED = KnownAlphaDesign(a=0.5, b=math.sqrt(1 / (2 * 1.13 * 2.0)), c=1.0)
"""ell = 1.13 * 1 * 2 * (1/(4.52)) * 2 = 1: bounded alpha (alpha_l = 1 for every layer)."""
GEOMETRIC = KnownAlphaDesign(a=1.0, b=1.0, c=1.0)
"""ell = 1.13 * 2 * 5 = 11.3: geometric alpha, rate ln 11.3 = 2.42 per layer."""


def known_alpha_weights(
    design: KnownAlphaDesign, depth: int
):  # -> numerics.loading.weights.TransformerWeights
    """An encoder of ``depth`` identical layers built from the design constants."""
    from numerics.loading.weights import LayerWeights, TransformerWeights

    n, ffn = design.width, 4 * design.width
    eye = np.eye(n)
    w_in = np.zeros((ffn, n))
    w_in[:n, :n] = design.c * eye
    layer = LayerWeights(design.a * eye, design.a * eye, design.b * eye, design.b * eye, w_in, w_in.T.copy())
    return TransformerWeights(
        (layer,) * depth, n, design.heads, ffn, f"known-alpha ell={design.layer_factor:.3g}"
    )


def known_alpha_points(design: KnownAlphaDesign, depths: tuple[int, ...]) -> list[ScalingPoint]:
    """log B_ours and log B_Edelman (numerics.bounds.proxies, exact) of the built models at each depth."""
    from numerics.bounds.proxies import proxies

    points = []
    for depth in depths:
        ours, edelman = log_proxies(proxies(known_alpha_weights(design, depth)))
        points.append(
            ScalingPoint(f"known-{depth}", "synthetic", "known alpha", depth, design.width, ours, edelman)
        )
    return points


def fitted(points: list[ScalingPoint], proxy: str, log_size: bool) -> float:
    """The fitted log-log exponent (log_size) or exponential rate of ``proxy`` in depth."""
    study = fit_all(points)
    fit = study.exponent(proxy, "L", ("synthetic",)) if log_size else study.rate(proxy, "L", ("synthetic",))
    if fit is None:
        raise ValueError(f"no depth fit for {proxy} over {len(points)} points")
    return fit.value


def law_text(cls: Growth) -> str:
    """The class as text, rate per ln ell."""
    from theory.regimes import _depth_text

    return _depth_text(cls)
