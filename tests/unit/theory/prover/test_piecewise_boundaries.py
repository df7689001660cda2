"""Piecewise statements whose conditions change at a non-dyadic rational (issue 48): the branch
1/(x - 1/3) is undefined at x = 1/3 but evaluated only where 1/3 < x holds, and no binary ball holds 1/3.

The kernel takes the ends of an affine node (x - 1/3, 3*x - 1, 1/3 - x) from the box's exact rational
ends where its ball's end straddles 0, and the cases rule reads a condition affine in one variable
(``3*x > 1``) as a bound of it (docs/prover.md). Truth is fixed without the prover: each statement's
gap is written here by hand in mpmath (50 digits), its conditions decided in exact fractions, and
evaluated at points on both sides of the boundary (down to 10^-30 from it), at it and far out; a false
statement's witness is found by hand analysis. A true statement must be proved and its certificate
re-checked by the kernel; a false one must never be proved (a refutation's witness is re-evaluated by
the mpmath gap); tampered certificates are rejected.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from fractions import Fraction

import mpmath
import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from tests.helpers.certificates import box_certificate, domain_variable
from theory.prover import PROVED, REFUTED, check_certificate, prove
from theory.prover.definedness import UndefinedStatement
from theory.prover.kernel import balls, trees
from theory.prover.kernel import check_certificate as kernel_check

pytestmark = pytest.mark.mp_digits(50)

Gap = Callable[..., mpmath.mpf]


def _m(value: Fraction) -> mpmath.mpf:
    return mpmath.mpf(value.numerator) / value.denominator


def _first(x: Fraction) -> mpmath.mpf:  # Piecewise((1/(x - 1/3), 1/3 < x), (Abs(x - 1/3), True)) + 10^-6
    third = Fraction(1, 3)
    return (1 / _m(x - third) if third < x else abs(_m(x - third))) + mpmath.mpf(10) ** -6


def _inverse(q: Fraction, otherwise: Callable[[Fraction], mpmath.mpf]) -> Gap:
    """Piecewise((1/(x - q), x > q), (otherwise(x), True))."""
    return lambda x: 1 / _m(x - q) if x > q else otherwise(x)


THIRD, TWO_SEVENTHS = Fraction(1, 3), Fraction(2, 7)

TRUE: list[tuple[str, str, bool, Gap]] = [
    ("Piecewise((1/(x - 1/3), 1/3 < x), (Abs(x - 1/3), True)) > -10^-6", "x: real", True, _first),
    (
        "Piecewise((1/(x - 2/7), x > 2/7), (0, True)) >= 0",
        "x: real",
        False,
        _inverse(TWO_SEVENTHS, lambda x: 0),
    ),
    (
        "Piecewise((1/(2/7 - x), x < 2/7), (x - 2/7, True)) >= 0",
        "x: real",
        False,
        lambda x: 1 / _m(TWO_SEVENTHS - x) if x < TWO_SEVENTHS else _m(x - TWO_SEVENTHS),
    ),
    (
        "Piecewise((sqrt(1/3 - x), x <= 1/3), (1/(x - 1/3), True)) >= 0",
        "x: real",
        False,
        lambda x: mpmath.sqrt(_m(THIRD - x)) if x <= THIRD else 1 / _m(x - THIRD),
    ),
    (
        "Piecewise((1/(x - 1/3), x > 1/3), (1/(1/3 - x), x < 1/3), (0, True)) >= 0",
        "x: real",
        False,
        lambda x: 1 / _m(x - THIRD) if x > THIRD else (1 / _m(THIRD - x) if x < THIRD else 0),
    ),
    (
        "Piecewise((Piecewise((1/(x - 1/3), x > 1/3), (0, True)), x < 5/7), (1/(x - 2/7), True)) >= 0",
        "x: real",
        False,
        lambda x: _inverse(THIRD, lambda x: 0)(x) if x < Fraction(5, 7) else 1 / _m(x - TWO_SEVENTHS),
    ),
    (
        "Piecewise((1/(3*x - 1), 3*x > 1), (0, True)) >= 0",
        "x: real",
        False,
        lambda x: 1 / _m(3 * x - 1) if 3 * x > 1 else 0,
    ),
    (
        "Piecewise((y^2/(x - 1/3), x > 1/3), (0, True)) >= 0",
        "x: real, y: [-1, 1]",
        False,
        lambda x, y: _m(y) ** 2 / _m(x - THIRD) if x > THIRD else 0,
    ),
    (
        "Piecewise((1/(x - 1/3), x > 1/3), (5, True)) > 1",
        "x: [0, 1]",
        True,
        lambda x: (1 / _m(x - THIRD) if x > THIRD else 5) - 1,
    ),
    (
        "Piecewise((log(x - 2/7) + 1, x > 2/7), (1, True)) <= x + 1",
        "x: [0, 2]",
        False,
        lambda x: _m(x) + 1 - (mpmath.log(_m(x - TWO_SEVENTHS)) + 1 if x > TWO_SEVENTHS else 1),
    ),
]
"""(statement, domain, strict, gap by hand: the claim is gap >= 0, > 0 when strict)."""

FALSE: list[tuple[str, str, bool, Gap, tuple[Fraction, ...]]] = [
    # the second branch is 0 at x = 1/3 itself
    (
        "Piecewise((1/(x - 1/3), 1/3 < x), (Abs(x - 1/3), True)) > 0",
        "x: real",
        True,
        lambda x: 1 / _m(x - THIRD) if x > THIRD else abs(_m(x - THIRD)),
        (THIRD,),
    ),
    # x - 1/3 < 0 left of the boundary
    (
        "Piecewise((1/(x - 1/3), 1/3 < x), (x - 1/3, True)) >= 0",
        "x: real",
        False,
        _inverse(THIRD, lambda x: _m(x - THIRD)),
        (Fraction(0),),
    ),
    # -1/(x - 1/3) is below -10^6 just right of 1/3
    (
        "Piecewise((-1/(x - 1/3), x > 1/3), (0, True)) > -10^6",
        "x: real",
        True,
        lambda x: (-1 / _m(x - THIRD) if x > THIRD else 0) + 10**6,
        (THIRD + Fraction(1, 10**7),),
    ),
    # 1/(x - 1/3) < 3 for x > 2/3
    (
        "Piecewise((1/(x - 1/3) - 3, x > 1/3), (0, True)) >= 0",
        "x: real",
        False,
        lambda x: 1 / _m(x - THIRD) - 3 if x > THIRD else 0,
        (Fraction(1),),
    ),
    # at the boundary itself the Piecewise is 0, not >= 3/2
    (
        "Piecewise((1/(x - 1/3), x > 1/3), (0, True)) >= 3/2",
        "x: [1/3, 1]",
        False,
        lambda x: (1 / _m(x - THIRD) if x > THIRD else 0) - Fraction(3, 2),
        (THIRD,),
    ),
    # u - u^2/100 with u = 1/(x - 1/3) is unbounded below as x -> 1/3+
    (
        "Piecewise((1/(x - 1/3) - 1/(x - 1/3)^2/100, x > 1/3), (0, True)) >= -30",
        "x: [0, 2]",
        False,
        lambda x: (1 / _m(x - THIRD) - 1 / _m(x - THIRD) ** 2 / 100 if x > THIRD else 0) + 30,
        (THIRD + Fraction(1, 1000),),
    ),
    # left of 2/7 the second branch x - 2/7 is far below -10^-9 (at x = 0: -2/7)
    (
        "Piecewise((1/(x - 2/7), x > 2/7), (x - 2/7, True)) >= -10^-9",
        "x: [0, 1]",
        False,
        lambda x: (
            (1 / _m(x - TWO_SEVENTHS) if x > TWO_SEVENTHS else _m(x - TWO_SEVENTHS)) + mpmath.mpf(10) ** -9
        ),
        (Fraction(0),),
    ),
    # two variables: -10^-9 wherever x <= y
    (
        "Piecewise((1/(x - y), x > y), (-10^-9, True)) >= 0",
        "x: real, y: real",
        False,
        lambda x, y: 1 / _m(x - y) if x > y else -(mpmath.mpf(10) ** -9),
        (Fraction(0), Fraction(0)),
    ),
]
"""(statement, domain, strict, gap by hand, a witness found by hand where the claim fails)."""


def _points(domain: str) -> list[Fraction]:
    """Points of a one-variable range: both sides of 1/3, 2/7, 5/7 down to 10^-30, the boundaries
    themselves, a grid and far out on the line."""
    near = [
        q + s * Fraction(1, 10**k)
        for q in (THIRD, TWO_SEVENTHS, Fraction(5, 7))
        for k in (1, 3, 9, 30)
        for s in (-1, 1)
    ]
    grid = [Fraction(n, 8) for n in range(-40, 41)] + [
        Fraction(s * 10**k) for k in (2, 6, 12) for s in (-1, 1)
    ]
    every = near + grid + [THIRD, TWO_SEVENTHS, Fraction(5, 7)]
    if "[0, 1]" in domain:
        return [p for p in every if 0 <= p <= 1]
    if "[0, 2]" in domain:
        return [p for p in every if 0 <= p <= 2]
    return every


def _holds(value: mpmath.mpf, strict: bool) -> bool:
    return value > 0 if strict else value >= 0


@pytest.mark.parametrize(("statement", "domain", "strict", "gap"), TRUE, ids=[case[0] for case in TRUE])
def test_true_statement_is_proved_and_its_certificate_rechecked(statement, domain, strict, gap):
    xs = _points(domain)
    ys = [Fraction(-1), Fraction(-1, 3), Fraction(0), Fraction(1, 7), Fraction(1)]
    points = [(x, y) for x in xs for y in ys] if "y:" in domain else [(x,) for x in xs]
    assert all(_holds(gap(*point), strict) for point in points)  # the oracle: the statement is true
    result = prove(statement, domain, budget_seconds=5, solver=False)
    assert result.status == PROVED
    (part,) = result.parts
    data = json.loads(json.dumps(part.certificate.to_json()))
    assert check_certificate(data).accepted


@pytest.mark.parametrize(
    ("statement", "domain", "strict", "gap", "witness"), FALSE, ids=[c[0] for c in FALSE]
)
def test_false_statement_is_never_proved(statement, domain, strict, gap, witness):
    assert not _holds(gap(*witness), strict)  # the oracle: the statement is false
    try:
        result = prove(statement, domain, budget_seconds=2, solver=False)
    except UndefinedStatement:
        return  # refused (definedness undecided) is not a verdict
    assert result.status != PROVED
    if result.status == REFUTED:
        (part,) = result.parts
        names = re.findall(r"(\w+):", domain)
        assert not _holds(gap(*(Fraction(part.witness.point[n]) for n in names)), strict)


def test_a_branch_taken_at_its_undefined_point_is_refused_there():
    # x >= 2/7 takes 1/(x - 2/7) at x = 2/7 itself
    with pytest.raises(UndefinedStatement, match="undefined at x = 2/7"):
        prove("Piecewise((1/(x - 2/7), x >= 2/7), (0, True)) >= 0", "x: real", budget_seconds=2)


def test_the_diagonal_of_two_variables_is_decided_under_its_premise():
    """x > y bounds no single variable and no box separates the diagonal; the branch 1/(x - y) is shown
    defined and decided under its premise x - y > 0 (x = y + t, t > 0: theory/prover/kernel/premises.py),
    so the statement (true: 1/(x - y) > 0 where x > y) is proved, not refused."""
    result = prove("Piecewise((1/(x - y), x > y), (0, True)) >= 0", "x: real, y: real", budget_seconds=2)
    assert result.status == "proved"


X = ["var", "x"]
SHIFTED = ["add", X, ["num", "-1/3"]]
# Piecewise((1/(x - 1/3), x > 1/3), (5, True)) - 1 >= 0 over [0, 1]: true (1/(x - 1/3) >= 3/2 there)
GAP = [
    "add",
    ["piecewise", [["pow", SHIFTED, ["num", "-1"]], ["lt", ["num", "1/3"], X]], [["num", "5"], ["true"]]],
    ["num", "-1"],
]
ENCLOSURE = {"method": "enclosure"}
CASES = {"method": "cases", "branches": [ENCLOSURE, ENCLOSURE]}


def _certificate(cut: str, left: dict, right: dict) -> dict:
    boxes = [{"box": {"x": ["0", cut]}, "decision": left}, {"box": {"x": [cut, "1"]}, "decision": right}]
    return box_certificate(GAP, [domain_variable("x", "0", "1")], boxes)


def test_a_cut_at_the_boundary_is_accepted_and_one_moved_past_it_rejected():
    """[0, 1/3] is decided by enclosure: 1/3 < x fails on the whole box, decided exactly. Moved right by
    10^-30/3, the box holds points where 1/3 < x holds and 1/3 itself, where it fails: both branches may
    be taken, and 1/(x - 1/3) on a set reaching 0 has no enclosure: rejected."""
    assert kernel_check(_certificate("1/3", ENCLOSURE, CASES)).accepted
    moved = "1000000000000000000000000000001/3000000000000000000000000000000"  # 1/3 + 10^-30/3
    verdict = kernel_check(_certificate(moved, ENCLOSURE, CASES))
    assert not verdict.accepted and "[0, " in verdict.reason
    # the box [1/3, 1] holds x = 1/3, where the condition fails: no enclosure of it alone
    assert not kernel_check(_certificate("1/3", ENCLOSURE, ENCLOSURE)).accepted


def test_a_false_claim_at_the_boundary_is_rejected():
    """Piecewise((1/(x - 1/3), x > 1/3), (0, True)) >= 1 over [1/3, 1] fails at x = 1/3 (value 0): the
    cases rule puts the point 1/3 in the second branch's region, whose enclosure is -1. Over (1/3, 1]
    the claim is true (1/(x - 1/3) >= 3/2) and the second branch's region is empty."""
    gap = [
        "add",
        ["piecewise", [["pow", SHIFTED, ["num", "-1"]], ["lt", ["num", "1/3"], X]], [["num", "0"], ["true"]]],
        ["num", "-1"],
    ]
    data = box_certificate(
        gap, [domain_variable("x", "1/3", "1")], [{"box": {"x": ["1/3", "1"]}, "decision": CASES}]
    )
    assert not kernel_check(data).accepted
    data["domain"][0]["lower_open"] = True  # over (1/3, 1] the claim is true: the region of 0 is empty
    data["boxes"][0]["decision"] = {"method": "cases", "branches": [ENCLOSURE, None]}
    assert kernel_check(data).accepted


@pytest.mark.parametrize("seed", range(4))
def test_affine_enclosures_contain_every_value_and_no_more(seed):
    """An affine tree over a box with non-dyadic rational ends: its enclosure contains the exact range
    computed in fractions here (every value), an end the range leaves open is open, and an attained
    end 0 is attained (1 over it is undefined)."""
    import random

    generator = random.Random(seed)
    for _ in range(50):
        lo = Fraction(generator.randint(-20, 20), generator.choice([3, 7, 9, 11, 13]))
        hi = lo + Fraction(generator.randint(1, 20), generator.choice([3, 5, 7]))
        a = Fraction(generator.choice([-3, -2, -1, 1, 2, 5]), generator.choice([1, 3, 7]))
        root = generator.choice([lo, hi])  # the tree a (x - root) is 0 at an end
        lo_open, hi_open = generator.random() < 0.5, generator.random() < 0.5
        tree = ["mul", ["num", str(a)], ["add", X, ["num", str(-root)]]]
        values = trees.enclose(tree, {"x": trees.ranged(lo, hi, lo_open, hi_open)})
        low, high = sorted([a * (lo - root), a * (hi - root)])
        low_open = lo_open if (a > 0) else hi_open
        high_open = hi_open if (a > 0) else lo_open
        assert trees.dyadic(values.lo, True) <= low and trees.dyadic(values.hi, False) >= high
        zero_end_open = low_open if low == 0 else high_open
        assert (values.lo.is_zero() and values.lo_open == low_open) or (
            values.hi.is_zero() and values.hi_open == high_open
        )
        inverse = ["pow", tree, ["num", "-1"]]
        env = {"x": trees.ranged(lo, hi, lo_open, hi_open)}
        if zero_end_open:
            inner = trees.enclose(inverse, env)  # 1/(a (x - root)) on a set not reaching 0
            assert not (inner.lo <= 0 <= inner.hi) or balls.infinite(inner.lo) or balls.infinite(inner.hi)
        else:
            with pytest.raises(balls.Undefined):
                trees.enclose(inverse, env)
