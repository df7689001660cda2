"""Outward rounding of a ball to float endpoints: exact where the endpoint is a float, never one ulp inward.

The planted values lie exactly on float endpoints, so an endpoint moved one ulp inward excludes them;
the mutation tests apply that move (by monkeypatch) and check the containment check catches it.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest

import numerics.certify.report as report
from numerics.certify.balls import flint_context, outward

flint = pytest.importorskip("flint", reason="certification needs python-flint (certify extra)")
arb = flint.arb

FLOAT_POINTS = [0.1, -0.1, 1.0, 2.0**-1074, -(2.0**-1074), 1e308, 3.0 * 2.0**-30, 2.0**53 + 2.0]
"""Exact float values: ordinary, negative, the smallest subnormal, near overflow, dyadic, beyond 2^53."""


def _enclosures(to_floats: Callable[[object], tuple[float, float]]) -> None:
    """Assert that ``to_floats`` encloses every planted ball, and tightly when its endpoints are floats."""
    with flint_context():
        for value in FLOAT_POINTS:  # a point ball: both endpoints are exactly the float
            lo, hi = to_floats(arb(value))
            assert arb(lo) <= arb(value) <= arb(hi), (value, lo, hi)
            assert lo == hi == value
        for mid, radius in ((1.0, 2.0**-10), (-3.0, 0.5), (2.0**-1000, 2.0**-1010)):
            ball = arb(mid, radius)  # arb may round the radius up: the planted endpoints lie inside
            lo, hi = to_floats(ball)
            assert arb(lo) <= ball.lower() and ball.upper() <= arb(hi), (mid, lo, hi)
            assert arb(lo) <= arb(mid) - arb(radius) and arb(mid) + arb(radius) <= arb(hi), (mid, lo, hi)
        for k in range(1, 40):  # endpoints not floats: round-to-nearest goes inward about half the time
            ball = arb(k) / 3 + arb(0, arb(2) ** -70)
            lo, hi = to_floats(ball)
            assert arb(lo) <= ball.lower() and ball.upper() <= arb(hi), (k, lo, hi)


def test_outward_encloses_every_planted_ball_tightly():
    _enclosures(outward)


def test_interval_json_reports_the_planted_float_endpoints_exactly():
    _enclosures(lambda ball: tuple(report.interval_json(ball).values()))


def _lower_one_ulp_inward(ball: object) -> tuple[float, float]:
    lo, hi = outward(ball)
    return math.nextafter(lo, math.inf), hi


def _upper_one_ulp_inward(ball: object) -> tuple[float, float]:
    lo, hi = outward(ball)
    return lo, math.nextafter(hi, -math.inf)


def _rounded_to_nearest(ball: object) -> tuple[float, float]:
    return float(ball.lower().mid()), float(ball.upper().mid())


@pytest.mark.parametrize("mutant", [_lower_one_ulp_inward, _upper_one_ulp_inward, _rounded_to_nearest])
def test_an_endpoint_moved_inward_is_caught(mutant, monkeypatch):
    monkeypatch.setattr(report, "outward", mutant)
    with pytest.raises(AssertionError):
        _enclosures(lambda ball: tuple(report.interval_json(ball).values()))
