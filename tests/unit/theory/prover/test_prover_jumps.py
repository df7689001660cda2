"""The kernel's ``jump`` step (docs/prover.md): floor and ceiling constant between the points where their
affine argument crosses an integer. True statements touching 0 at a jump are proved, their truth checked
by mpmath at 50 digits on a grid of rationals and at the touching points (the gap written by hand); near
misses are refuted at a witness mpmath confirms; hand-made and tampered certificates are rejected."""

from __future__ import annotations

import copy
from fractions import Fraction

import mpmath
import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from tests.helpers.certificates import box_certificate, domain_variable
from theory.prover import PROVED, REFUTED, prove
from theory.prover.kernel import check_certificate
from theory.prover.kernel.trees import Malformed

pytestmark = pytest.mark.mp_digits(50)


def _mp(value) -> mpmath.mpf:
    value = Fraction(value)
    return mpmath.mpf(value.numerator) / value.denominator


def _hermite(x):
    """x - floor(x/2) - floor((x + 1)/2): 0 at every integer, x - floor(x) between."""
    return x - mpmath.floor(x / 2) - mpmath.floor((x + 1) / 2)


TRUE = [
    ("floor(x/2) + floor((x+1)/2) <= x", "x: [-3, 3]", _hermite, (-3, 3), [-3, 0, 1, 3]),
    ("floor(x/2) + floor((x+1)/2) > x - 1", "x: [0, 5]", lambda x: _hermite(x) + 1, (0, 5), []),
    ("ceiling(x) >= 1", "x: (0, 2]", lambda x: mpmath.ceil(x) - 1, (Fraction(1, 64), 2), [Fraction(1, 2), 1]),
    (
        "ceiling(3*x - 1/2) < 3*x + 1/2",
        "x: [0, 1]",
        lambda x: 3 * x + _mp(Fraction(1, 2)) - mpmath.ceil(3 * x - _mp(Fraction(1, 2))),
        (0, 1),
        [],  # its infimum 0 is approached just right of each crossing, never attained
    ),
]
"""(statement, domain, gap by hand, grid ends, points where the gap is exactly 0: the bound is attained)."""

FALSE = [
    ("floor(x/2) + floor((x+1)/2) <= x - 1/10^9", "x: [-3, 3]", lambda x: _hermite(x) - mpmath.mpf(10) ** -9),
    ("ceiling(x) >= 1", "x: [0, 2]", lambda x: mpmath.ceil(x) - 1),
]


@pytest.mark.parametrize(
    ("statement", "domain", "gap", "ends", "touching"), TRUE, ids=[case[0] for case in TRUE]
)
def test_touching_at_a_jump_is_proved_and_mpmath_agrees(statement, domain, gap, ends, touching):
    lo, hi = (Fraction(end) for end in ends)
    grid = [lo + (hi - lo) * Fraction(k, 96) for k in range(97)]
    assert min(gap(_mp(x)) for x in grid) >= 0
    assert all(gap(_mp(x)) == 0 for x in touching)
    assert prove(statement, domain, budget_seconds=20).status == PROVED


@pytest.mark.parametrize(("statement", "domain", "gap"), FALSE, ids=[case[0] for case in FALSE])
def test_near_miss_at_a_jump_is_refuted_where_mpmath_sees_it_fail(statement, domain, gap):
    result = prove(statement, domain, budget_seconds=10)
    assert result.status == REFUTED
    (part,) = result.parts
    assert gap(_mp(part.witness.point["x"])) < 0


X = ["var", "x"]
ENCLOSE = {"method": "enclosure"}


def _certificate(gap: list, lower: str, upper: str, decision: dict, strict: bool = False) -> dict:
    box = {"box": {"x": [lower, upper]}, "decision": decision}
    return box_certificate(gap, [domain_variable("x", lower, upper)], [box], strict)


def _minus(tree: list) -> list:
    return ["mul", ["num", "-1"], tree]


def test_false_floor_claim_is_rejected_on_the_open_piece():
    # floor(x) - x >= 0 on [0, 1]: at x = 1/2 it is -1/2; the piece (0, 1) replaces floor(x) by 0.
    gap = ["add", ["floor", X], _minus(X)]
    verdict = check_certificate(
        _certificate(gap, "0", "1", {"method": "jump", "variable": "x", "pieces": [ENCLOSE] * 3})
    )
    assert not verdict.accepted and "piece" in verdict.reason


def test_pieces_must_match_the_crossings_and_the_argument_must_be_affine():
    gap = ["add", X, _minus(["floor", X])]
    with pytest.raises(Malformed):
        check_certificate(
            _certificate(gap, "0", "2", {"method": "jump", "variable": "x", "pieces": [ENCLOSE] * 3})
        )
    assert check_certificate(
        _certificate(gap, "0", "2", {"method": "jump", "variable": "x", "pieces": [ENCLOSE] * 5})
    ).accepted
    squared = ["add", ["pow", X, ["num", "2"]], _minus(["floor", ["pow", X, ["num", "2"]]])]
    verdict = check_certificate(
        _certificate(squared, "0", "2", {"method": "jump", "variable": "x", "pieces": [ENCLOSE] * 5})
    )
    assert not verdict.accepted and "not a*x + b" in verdict.reason


def test_a_tampered_strictness_is_rejected_at_the_touching_point():
    result = prove("floor(x/2) + floor((x+1)/2) <= x", "x: [0, 2]", budget_seconds=20)
    assert result.status == PROVED
    certificate = copy.deepcopy(result.parts[0].certificate.to_json())
    assert check_certificate(certificate).accepted
    certificate["strict"] = True  # the gap is 0 at x = 0, 1, 2
    assert not check_certificate(certificate).accepted


def _whole_line(gap: list, decision: dict) -> dict:
    return {
        "format": "specbound-certificate/2",
        "inequality": "",
        "gap": gap,
        "strict": False,
        "domain": [
            {
                "name": "x",
                "lower": "-oo",
                "upper": "oo",
                "lower_open": True,
                "upper_open": True,
                "integer": False,
            }
        ],
        "boxes": [{"box": {"x": ["-oo", "oo"]}, "decision": decision}],
    }


HERMITE = [
    "add",
    X,
    _minus(["floor", ["mul", ["num", "1/2"], X]]),
    _minus(["floor", ["mul", ["num", "1/2"], ["add", X, ["num", "1"]]]]),
]


@pytest.mark.parametrize(
    ("statement", "gap"),
    [
        ("floor(x/2) + floor((x+1)/2) <= x", _hermite),
        pytest.param(
            "floor(x/2) + floor((x+1)/2) > x - 1", lambda x: _hermite(x) + 1, marks=pytest.mark.slow
        ),
    ],
)
def test_periodic_gap_over_the_reals_is_proved_and_mpmath_agrees(statement, gap):
    # Hermite's identity floor(y) + floor(y + 1/2) = floor(2 y), by hand: the gap is x - floor(x) in [0, 1)
    points = [_mp(Fraction(k, 7)) + 10**9 * s for k in range(-30, 31) for s in (-1, 0, 1)]
    assert all(0 <= _hermite(x) < 1 and _hermite(x) == x - mpmath.floor(x) for x in points)
    assert all(gap(x) >= 0 for x in points)
    assert prove(statement, "x: real", budget_seconds=20).status == PROVED


def test_periodic_needs_a_true_period_the_whole_line_and_a_decided_period():
    jump = {"method": "jump", "variable": "x", "pieces": [ENCLOSE] * 5}
    # period 2 on [0, 2]: floor(x/2) jumps at 0 and 2, floor((x+1)/2) at 1 (nested jumps in each piece)
    nested = {
        "method": "jump",
        "variable": "x",
        "pieces": [ENCLOSE, {"method": "jump", "variable": "x", "pieces": [ENCLOSE] * 5}, ENCLOSE],
    }
    assert check_certificate(
        _whole_line(HERMITE, {"method": "periodic", "variable": "x", "period": "2", "then": nested})
    ).accepted
    # the gap is x - floor(x): 1 is a period too (on [0, 1] floor(x/2) is constant inside, floor((x+1)/2)
    # jumps at 1), but 1/2 is not: gap(x + 1/2) - gap(x) is 1/2 at x = 0
    inside = {"method": "jump", "variable": "x", "pieces": [ENCLOSE] * 3}
    unit = {"method": "jump", "variable": "x", "pieces": [ENCLOSE, inside, ENCLOSE]}
    assert check_certificate(
        _whole_line(HERMITE, {"method": "periodic", "variable": "x", "period": "1", "then": unit})
    ).accepted
    verdict = check_certificate(
        _whole_line(HERMITE, {"method": "periodic", "variable": "x", "period": "1/2", "then": jump})
    )
    assert not verdict.accepted and "periodic" in verdict.reason
    # x/2 - floor(x) is not periodic at all; x - floor(x) has period 1 but is false shifted by -1/2
    drift = ["add", ["mul", ["num", "1/2"], X], _minus(["floor", X])]
    assert not check_certificate(
        _whole_line(drift, {"method": "periodic", "variable": "x", "period": "1", "then": jump})
    ).accepted
    below = ["add", X, _minus(["floor", X]), ["num", "-1/2"]]
    assert not check_certificate(
        _whole_line(
            below,
            {
                "method": "periodic",
                "variable": "x",
                "period": "1",
                "then": {"method": "jump", "variable": "x", "pieces": [ENCLOSE] * 3},
            },
        )
    ).accepted
    # a half-line is not the whole line
    half = _certificate(
        HERMITE, "0", "4", {"method": "periodic", "variable": "x", "period": "2", "then": nested}
    )
    assert not check_certificate(half).accepted
