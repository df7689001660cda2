"""The growth exponents of the scaling study: a fixed-effects log-log least-squares fit per proxy and axis.

log B = e log x + c_g, one intercept c_g per group of points that share everything but x; the standard
error of e from the residual variance (None when no degree of freedom is left).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from paper_checks.scaling.points import AXES, PROXIES, ScalingPoint
from theory.errors import InvalidArgument


@dataclass(frozen=True)
class Exponent:
    """A fitted growth exponent of one proxy along one axis, with its standard error (None if n/a)."""

    proxy: str
    axis: str
    value: float
    stderr: float | None
    points: int
    groups: int

    def __str__(self) -> str:
        error = f" ± {self.stderr:.2f}" if self.stderr is not None else " (no error estimate)"
        where = f"({self.points} points, {self.groups} series)"
        return f"{self.proxy} ~ {self.axis}^{self.value:.2f}{error} {where}"


def _other_axis_key(point: ScalingPoint, axis: str) -> tuple[str, int]:
    return (point.family, point.width if axis == "L" else point.layers)


def fit_exponent(
    points: Sequence[ScalingPoint], proxy: str, axis: str, log_size: bool = True
) -> Exponent | None:
    """The fixed-effects log-log slope of ``proxy`` along ``axis``, or None with fewer than 2 sizes.

    Points are grouped by (family, the other axis); only groups with at least two distinct sizes on
    ``axis`` inform the slope. With ``log_size=False`` the fit is log B = r x + c_g: r is the
    exponential rate (B grows by e^r per unit of x), the right summary of a geometric growth.

    >>> logs = [(k, 2 * math.log(k), 1.5 * math.log(k)) for k in (1, 2, 4)]
    >>> pts = [ScalingPoint(f"m{k}", "synthetic", "g", k, 8, ours, ed) for k, ours, ed in logs]
    >>> fit = fit_exponent(pts, "ours", "L")
    >>> round(fit.value, 12), fit.stderr < 1e-9
    (2.0, True)
    """
    if axis not in AXES:
        raise InvalidArgument(f"axis={axis!r} must be one of {tuple(AXES)} (depth L or width N)")
    groups: dict[tuple[str, int], list[ScalingPoint]] = {}
    for point in points:
        groups.setdefault(_other_axis_key(point, axis), []).append(point)
    size = (lambda q: q.layers) if axis == "L" else (lambda q: q.width)
    used = [g for g in groups.values() if len({size(q) for q in g}) >= 2]
    if not used:
        return None
    rows, targets = [], []
    for index, group in enumerate(used):
        for q in group:
            x = math.log(size(q)) if log_size else float(size(q))
            row = [x] + [1.0 if j == index else 0.0 for j in range(len(used))]
            rows.append(row)
            targets.append(q.log_proxy(proxy))
    design, y = np.array(rows), np.array(targets)
    coefficients, _, _, _ = np.linalg.lstsq(design, y, rcond=None)
    dof = len(y) - design.shape[1]
    stderr = None
    if dof > 0:
        residual = y - design @ coefficients
        variance = float(residual @ residual) / dof
        covariance = variance * np.linalg.inv(design.T @ design)
        stderr = math.sqrt(max(float(covariance[0, 0]), 0.0))
    return Exponent(
        proxy, axis if log_size else f"exp({axis})", float(coefficients[0]), stderr, len(y), len(used)
    )


@dataclass(frozen=True)
class ScalingStudy:
    """All points of a study and the fitted exponents of both proxies along L and N."""

    points: tuple[ScalingPoint, ...]
    exponents: tuple[Exponent, ...]

    def exponent(self, proxy: str, axis: str, origins: tuple[str, ...] | None = None) -> Exponent | None:
        """The fitted exponent of ``proxy`` along ``axis`` over all points, or over those of ``origins``."""
        if origins is None:
            return next((e for e in self.exponents if e.proxy == proxy and e.axis == axis), None)
        return fit_exponent([q for q in self.points if q.origin in origins], proxy, axis)

    def rate(self, proxy: str, axis: str, origins: tuple[str, ...]) -> Exponent | None:
        """The exponential rate r of ``proxy`` along ``axis`` (log B = r x + c) over ``origins``."""
        return fit_exponent([q for q in self.points if q.origin in origins], proxy, axis, log_size=False)

    def to_json(self) -> dict[str, object]:
        """Points and exponents as plain data."""
        return {
            "points": [
                {
                    "label": q.label,
                    "origin": q.origin,
                    "family": q.family,
                    "L": q.layers,
                    "N": q.width,
                    "log_ours": q.log_ours,
                    "log_edelman": q.log_edelman,
                }
                for q in self.points
            ],
            "exponents": [
                {"proxy": e.proxy, "axis": e.axis, "value": e.value, "stderr": e.stderr, "points": e.points}
                for e in self.exponents
            ],
        }


def fit_all(points: Sequence[ScalingPoint]) -> ScalingStudy:
    """The study of ``points``: both proxies fitted along both axes (axes without two sizes are skipped)."""
    exponents = [fit_exponent(points, proxy, axis) for proxy in PROXIES for axis in AXES]
    return ScalingStudy(tuple(points), tuple(e for e in exponents if e is not None))
