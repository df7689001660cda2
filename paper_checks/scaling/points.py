"""The points of the scaling study: one record per model, its size and the logs of both proxies."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from theory.errors import InvalidArgument

if TYPE_CHECKING:
    from numerics.bounds.proxies import ProxyReport

AXES = {"L": "layers", "N": "width"}
"""The two scaling axes: depth L (number of layers) and width N (hidden dimension)."""

PROXIES = ("ours", "edelman")


class Origin(StrEnum):
    """Where a point of the study comes from (its JSON text is the value)."""

    REAL = "real"
    """An embedded checkpoint."""
    TRUNCATED = "truncated"
    """The first k layers of an embedded checkpoint: not a model trained at depth k, a prefix of one."""
    SYNTHETIC = "synthetic"
    """A small encoder trained by the toolkit (:mod:`numerics.synthetic`)."""
    USER = "user"
    """A checkpoint the user passed."""


@dataclass(frozen=True)
class ScalingPoint:
    """One model of the study: where it comes from, its size, and the natural logs of both proxies.

    Logs are stored because B_Edelman overflows float64 on deep models; ``origin`` is an :class:`Origin`;
    ``family`` groups the points of one series (e.g. the truncations of one checkpoint, or the synthetic
    grid).
    """

    label: str
    origin: Origin
    family: str
    layers: int
    width: int
    log_ours: float
    log_edelman: float

    def log_proxy(self, proxy: str) -> float:
        """The natural log of proxy ``ours`` or ``edelman``."""
        if proxy not in PROXIES:
            raise InvalidArgument(f"proxy={proxy!r} must be one of {PROXIES}")
        return self.log_ours if proxy == "ours" else self.log_edelman


def log_proxies(report: ProxyReport) -> tuple[float, float]:
    """(ln B_ours, ln B_Edelman) of a proxy report, in mpmath (B_Edelman may exceed float64)."""
    import mpmath

    return float(mpmath.log(report.ours)), float(mpmath.log(report.edelman))


def point(label: str, origin: Origin, family: str, report: ProxyReport) -> ScalingPoint:
    """A study point from a proxy report."""
    log_ours, log_edelman = log_proxies(report)
    return ScalingPoint(label, origin, family, report.num_layers, report.hidden_size, log_ours, log_edelman)
