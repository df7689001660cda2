"""Shared by the depth claims 8a-8d: theory's growth laws, models built with a known depth factor, and the
weight-free ceiling of B_ours (:func:`weight_free_ceiling`: what B_ours is when every matrix takes p = 0
at full rank, shapes alone).

A model with a known per-layer factor ell: every layer of an H-head encoder has Wq = Wk = a I,
Wv = Wo = b I (so C2(QK_h) = a^2, C2(Vt_h) = b^2), W_in = c [I; 0], W_out = c [I, 0] (C2 = c), hence the
exact proxy's per-layer Lipschitz factor is ell = L_phi c^2 H b^2 (1 + 4 a^2), known from the design
constants, not measured: a prediction made from it is independent of the alphas numerics computes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import mpmath
import numpy as np

from paper_checks.scaling import Origin, ScalingPoint, fit_all, log_proxies
from theory.errors import InvalidArgument
from theory.growth import Growth
from theory.proxy import L_PHI_VALUE

if TYPE_CHECKING:
    from numerics.bounds.proxies import ProxyReport
    from numerics.spectra.matrices import NamedMatrix


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
    from numerics.loading.weights import LayerWeights, ModelShape, TransformerWeights

    n, ffn = design.width, 4 * design.width
    eye = np.eye(n)
    w_in = np.zeros((ffn, n))
    w_in[:n, :n] = design.c * eye
    layer = LayerWeights(design.a * eye, design.a * eye, design.b * eye, design.b * eye, w_in, w_in.T.copy())
    shape = ModelShape(n, design.heads, design.heads, ffn)
    return TransformerWeights((layer,) * depth, shape, f"known-alpha ell={design.layer_factor:.3g}")


def known_alpha_points(design: KnownAlphaDesign, depths: tuple[int, ...]) -> list[ScalingPoint]:
    """log B_ours and log B_Edelman (numerics.bounds.proxies, exact) of the built models at each depth."""
    from numerics.bounds.proxies import proxies

    points = []
    for depth in depths:
        ours, edelman = log_proxies(proxies(known_alpha_weights(design, depth)))
        points.append(
            ScalingPoint(
                f"known-{depth}", Origin.SYNTHETIC, "known alpha", depth, design.width, ours, edelman
            )
        )
    return points


def fitted(points: list[ScalingPoint], proxy: str, log_size: bool) -> float:
    """The fitted log-log exponent (log_size) or exponential rate of ``proxy`` in depth."""
    study = fit_all(points)
    fit = study.exponent(proxy, "L", ("synthetic",)) if log_size else study.rate(proxy, "L", ("synthetic",))
    if fit is None:
        raise InvalidArgument(
            f"no depth fit for {proxy} over {len(points)} points: it needs two depths or more"
        )
    return fit.value


def law_text(cls: Growth) -> str:
    """The class as text, rate per ln ell."""
    from theory.regimes import _depth_text

    return _depth_text(cls)


def full_rank(matrix: NamedMatrix) -> int:
    """The largest rank the shape allows: d_h for a per-head product (its thin factors' width), else
    min(rows, cols)."""
    if matrix.right is not None:
        return min(int(matrix.left.shape[1]), *matrix.shape)
    return min(matrix.shape)


def weight_free_ceiling(report: ProxyReport) -> mpmath.mpf:
    """B_ours with every matrix at p = 0 and at the full rank of its shape: theory.proxy's OURS_PROXY of
    sum_i SUMMAND(p = 0, S = full rank, N) (exact formulas; C_0 = sqrt(N rank) does not see s). For a BERT
    layer this is L (2 H sqrt(N d_h) + 2 N) + sqrt(L): shapes alone, no weight enters."""
    from numerics.formulas.evaluate import evaluate
    from theory.proxy import OURS_PROXY, SUMMAND

    dps = report.dps
    if dps is None:
        raise InvalidArgument("weight_free_ceiling needs an mpmath report (dps set), not a certified one")
    with mpmath.workdps(dps):
        leading = mpmath.fsum(
            evaluate(SUMMAND, dps=dps, p=0, S=full_rank(row.matrix), s=1, N=report.hidden_size)
            for row in report.matrices
        )
        return evaluate(OURS_PROXY, dps=dps, Sigma=leading, L=report.num_layers)


@dataclass(frozen=True)
class CeilingShare:
    """One model of a depth series: B_ours, its weight-free ceiling F and whether B_ours = F exactly."""

    label: str
    origin: Origin
    family: str
    layers: int
    width: int
    ours: float
    ceiling: float

    @property
    def at_ceiling(self) -> bool:
        """B_ours = F to 1e-12 (every matrix at p = 0 and full rank): its depth growth is F's, from shapes."""
        return abs(self.ours - self.ceiling) <= 1e-12 * self.ceiling


def ceiling_share(label: str, origin: Origin, family: str, report: ProxyReport) -> CeilingShare:
    """B_ours of ``report`` and its :func:`weight_free_ceiling`."""
    return CeilingShare(
        label,
        origin,
        family,
        report.num_layers,
        report.hidden_size,
        float(report.ours),
        float(weight_free_ceiling(report)),
    )


def share_study(shares: list[CeilingShare]):  # -> paper_checks.scaling.ScalingStudy
    """Fits of the share B_ours / F (as proxy "ours") and of the ceiling F itself (as proxy "edelman"):
    log B_ours = log(share) + log F, so the fitted exponent of B_ours is the share's plus F's."""
    points = [
        ScalingPoint(
            s.label, s.origin, s.family, s.layers, s.width, math.log(s.ours / s.ceiling), math.log(s.ceiling)
        )
        for s in shares
    ]
    return fit_all(points)
