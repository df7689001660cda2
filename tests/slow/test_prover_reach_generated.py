"""Generated statements for this session's rules (jump, periodic, bernstein, squares at infinity): no
false one proved, no true one refuted, every witness confirmed by mpmath at 50 digits (the gaps written by
hand with mpmath, sharing nothing with the parser). Truth by construction: Hermite's identity
floor(y) + floor(y + 1/2) = floor(2 y) makes floor((x + a)/2) + floor((x + a + 1)/2) - (x + a) =
floor(x + a) - (x + a), in (-1, 0], 0 at the integers; (x + y)(x - y)^2 >= 0 on [0, 1]^2 and
(x - y)^2 (x^2 + x y + y^2) >= 0 everywhere, 0 on the diagonal; k - k u/sqrt(1 + u^2) > 0 with limit 0.
A statement moved by -d below its infimum is false at a planted point. Provenance: derived."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from fractions import Fraction

import mpmath
import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from theory.prover import PROVED, REFUTED, prove

pytestmark = [pytest.mark.slow, pytest.mark.mp_digits(50)]

Case = tuple[str, str, Callable[..., mpmath.mpf], bool, tuple[str, ...], tuple[Fraction, ...]]
"""(statement, domain, gap by hand, true, variables, a planted point: the gap's infimum there or nearby)."""


def _mp(value: Fraction) -> mpmath.mpf:
    return mpmath.mpf(value.numerator) / value.denominator


def _cases(seed: int = 48) -> list[Case]:
    rng = random.Random(seed)
    found: list[Case] = []
    for _ in range(4):
        a = Fraction(rng.randint(-6, 6), rng.choice([1, 2, 3]))
        d = Fraction(1, 10 ** rng.randint(3, 9))
        domain = rng.choice(["x: real", "x: [-4, 4]", "x: [0, 7/2]"])
        for sign, true in ((1, True), (-1, False)):
            bound = sign * d if true else -d
            statement = f"floor((x + {a})/2) + floor((x + {a} + 1)/2) <= x + {a} + {bound}"

            def gap(x, a=a, bound=bound):
                y = x + _mp(a)
                return y + _mp(bound) - mpmath.floor(y / 2) - mpmath.floor((y + 1) / 2)

            found.append((statement, domain, gap, true, ("x",), (math.ceil(a) - a,)))
    for _ in range(3):
        m = Fraction(1, 10 ** rng.randint(2, 3))
        for bound, true in ((m, True), (-m, False)):
            statement = f"x^3 + y^3 + {bound} >= x^2*y + x*y^2"
            found.append(
                (
                    statement,
                    "x: [0, 1], y: [0, 1]",
                    lambda x, y, b=bound: (x + y) * (x - y) ** 2 + _mp(b),
                    true,
                    ("x", "y"),
                    (Fraction(1, 2), Fraction(1, 2)),
                )
            )
    for _ in range(3):
        k, scale, shift = (
            rng.randint(1, 5),
            Fraction(rng.randint(1, 4), rng.randint(1, 3)),
            rng.randint(-3, 3),
        )
        d = Fraction(1, 10 ** rng.randint(4, 8))
        for bound, true in ((Fraction(k), True), (k - d, False)):
            u = f"({scale})*(x - ({shift}))"
            statement = f"{k}*{u}/sqrt(1 + ({u})^2) <= {bound}"

            def gap(x, k=k, scale=scale, shift=shift, bound=bound):
                u = _mp(scale) * (x - shift)
                return _mp(bound) - k * u / mpmath.sqrt(1 + u**2)

            far = shift + (math.isqrt(k * d.denominator) + 2) / scale  # k/(2 u^2) < d there
            found.append((statement, "x: real", gap, true, ("x",), (far,)))
    return found


CASES = _cases()


@pytest.mark.parametrize(
    ("statement", "domain", "gap", "true", "names", "point"), CASES, ids=[c[0] for c in CASES]
)
def test_no_wrong_verdict(statement, domain, gap, true, names, point):
    result = prove(statement, domain, budget_seconds=5)
    if true:
        assert result.status != REFUTED
    else:
        assert result.status != PROVED
    if result.status == REFUTED:
        point = result.parts[0].witness.point
        assert gap(*(_mp(Fraction(point[n])) for n in names)) < 0


def test_the_planted_truths_hold_by_mpmath():
    """Each true gap >= 0 on a grid and at its planted point, each false gap < 0 at its planted point."""
    grid = [Fraction(k, 8) for k in range(-32, 33)]
    unit = [Fraction(k, 16) for k in range(17)]
    for statement, _domain, gap, true, names, point in CASES:
        at = gap(*(_mp(v) for v in point))
        if not true:
            assert at < 0, statement
            continue
        points = [(x,) for x in grid] if len(names) == 1 else [(x, y) for x in unit for y in unit]
        assert min(gap(*(_mp(v) for v in p)) for p in [*points, point]) >= 0, statement


def test_most_true_ones_are_proved():
    proved = sum(prove(s, d, budget_seconds=5).status == PROVED for s, d, _, true, _, _ in CASES if true)
    assert proved >= len([c for c in CASES if c[3]]) - 2
