"""Root-mean inequalities with a margin: sqrt(x) + sqrt(y) <= sqrt(2 (x + y)) + c. The search's ``squares``
step keeps the margin c > 0 with the root it props up (:func:`theory.prover.rewrites.root_sides`), so the
square difference is (sqrt(x) - sqrt(y))^2 + 2 c sqrt(2 (x + y)) + c^2, whose sum-of-squares form the
kernel encloses > 0 on the whole domain: one box, strict or not.

References: mpmath at 50 digits (the gap on a grid is >= c and equals c on the diagonal x = y, by the
QM-AM inequality; the near miss's witness has a negative gap).
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

import mpmath

from theory.prover import check_certificate, prove
from theory.prover.kernel import check_certificate as kernel_check

BUDGET = 3.0
MARGIN = mpmath.mpf(1) / 1000
TRUE = [
    ("sqrt(x) + sqrt(y) <= sqrt(2*(x + y)) + 1/1000", "x: [0, 1], y: [0, 1]", 2),
    ("sqrt(x) + sqrt(y) <= sqrt(2*(x + y)) + 1/1000", "x: [0, 1], y: [0, 3]", 2),
    ("sqrt(x) + sqrt(y) < sqrt(2*(x + y)) + 1/1000", "x: [0, 1], y: [0, 1]", 2),
    ("sqrt(x) + sqrt(y) + sqrt(z) <= sqrt(3*(x+y+z)) + 1/1000", "x: [0, 1], y: [0, 1], z: [0, 1]", 3),
]
NEAR_MISS = ("sqrt(x) + sqrt(y) <= sqrt(2*(x + y)) - 1/1000", "x: [0, 1], y: [0, 1]")


def _gap(point: list[mpmath.mpf], margin: mpmath.mpf) -> mpmath.mpf:
    """sqrt(n (x_1 + ... + x_n)) + margin - sum sqrt(x_i), in mpmath."""
    return mpmath.sqrt(len(point) * sum(point)) + margin - sum(mpmath.sqrt(v) for v in point)


def _grid(uppers: list[int], steps: int = 6) -> list[list[mpmath.mpf]]:
    points: list[list[mpmath.mpf]] = [[]]
    for upper in uppers:
        points = [[*p, mpmath.mpf(upper) * k / steps] for p in points for k in range(steps + 1)]
    return points


@pytest.mark.parametrize(("text", "domain", "variables"), TRUE)
def test_root_mean_bounds_with_a_margin_are_proved_with_a_checked_certificate(text, domain, variables):
    uppers = [3 if "y: [0, 3]" in domain and index == 1 else 1 for index in range(variables)]
    with mpmath.workdps(50):  # the reference: gap >= c everywhere, = c on the diagonal
        values = [_gap(point, MARGIN) for point in _grid(uppers)]
        assert min(values) >= MARGIN - mpmath.mpf(10) ** -40
        assert min(values) <= MARGIN + mpmath.mpf(10) ** -40
    result = prove(text, domain, BUDGET, solver=False)
    assert result.status == "proved", result.parts[0].reason
    certificate = result.parts[0].certificate.to_json()
    assert check_certificate(certificate).accepted


def test_a_certificate_with_the_margin_made_negative_is_rejected():
    result = prove(*TRUE[0][:2], BUDGET, solver=False)
    certificate = result.parts[0].certificate.to_json()
    text = json.dumps(certificate)
    assert '["num", "1/1000"]' in text
    tampered = json.loads(text.replace('["num", "1/1000"]', '["num", "-1/1000"]'))
    assert tampered["gap"] != certificate["gap"]
    assert not kernel_check(tampered).accepted  # the kernel rejects the mathematics itself
    assert not check_certificate(tampered).accepted


def test_the_near_miss_below_the_root_mean_is_refuted_at_a_point_mpmath_confirms():
    result = prove(*NEAR_MISS, BUDGET, solver=False)
    assert result.status == "refuted"
    point = result.parts[0].witness.to_json()["point"]
    with mpmath.workdps(50):
        values = [mpmath.mpf(Fraction(point[n]).numerator) / Fraction(point[n]).denominator for n in "xy"]
        assert _gap(values, -MARGIN) < 0
