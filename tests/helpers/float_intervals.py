"""Float intervals (lo, hi) of the certificates checked against arb references: ``encloses`` asks for
lo <= every point of the reference ball <= hi (arb's comparisons are certain ones), never a union's
rounded radius."""

from __future__ import annotations

from typing import Any

from flint import arb


def encloses(bounds: tuple[float, float], reference: Any) -> bool:
    """True when the floats (lo, hi) certainly enclose the arb ball (or number) ``reference``."""
    reference = reference if isinstance(reference, arb) else arb(reference)
    return bool(arb(bounds[0]) <= reference and reference <= arb(bounds[1]))


def relative_width(bounds: tuple[float, float]) -> float:
    """(hi - lo) / hi (0 for hi = 0)."""
    return (bounds[1] - bounds[0]) / bounds[1] if bounds[1] else 0.0
