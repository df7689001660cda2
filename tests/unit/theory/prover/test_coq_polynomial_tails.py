"""The Coq export of the ``polynomial`` step on a range reaching infinity (theory/prover/coq/polynomials.py):
the tail start X and the Taylor coefficients b_k of q(X + sign t) that the printed Horner form carries,
against q evaluated directly in exact rationals (Horner's rule on q's own coefficients, not the Taylor
shift), and coefficients in Q(sqrt d) printed with sqrt. No coqc here (tests/slow/test_coq_polynomial_tails.py
compiles the files).
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from theory.prover.coq.polynomials import number, shifted, tail_start
from theory.prover.kernel.quadratic import Quadratic


def _value(coefficients, x):
    total = Fraction(0)
    for c in reversed(coefficients):
        total = total * x + c
    return total


def _from_roots(roots, constant):
    """prod (x - r) + constant, coefficients by degree."""
    p = [Fraction(1)]
    for r in roots:
        p = [(p[k - 1] if k else 0) - r * (p[k] if k < len(p) else 0) for k in range(len(p) + 1)]
    p[0] += constant
    return p


@pytest.mark.parametrize("seed", range(20))
def test_the_shifted_coefficients_are_the_polynomial_at_x_plus_t(seed):
    rng = random.Random(seed)
    q = [Fraction(rng.randint(-9, 9), rng.randint(1, 4)) for _ in range(rng.randint(2, 7))] + [Fraction(1)]
    at = Fraction(rng.randint(-5, 5), rng.randint(1, 3))
    for sign in (1, -1):
        b = shifted(q, at, sign)
        for t in (Fraction(0), Fraction(1, 3), Fraction(2), Fraction(-7, 5)):
            assert _value(b, t) == _value(q, at + sign * t)


@pytest.mark.parametrize("seed", range(20))
def test_a_tail_start_certifies_the_tail_and_lies_in_the_range(seed):
    """q = prod (x - r_i) + c with roots r_i in [-6, 6]: at the X found, every Taylor coefficient is >= 0
    (> 0 for the constant) towards the tail, so q > 0 there; X is at least the finite end given."""
    rng = random.Random(100 + seed)
    roots = [Fraction(rng.randint(-12, 12), 2) for _ in range(rng.randint(1, 5))]
    q = _from_roots(roots, Fraction(1, 100))
    degree = len(q) - 1
    inside = Fraction(rng.randint(-3, 3))
    right = tail_start(q, 1, True, inside)
    assert right is not None and right >= inside
    assert all(c >= 0 for c in shifted(q, right, 1)) and _value(q, right) > 0
    if degree % 2 == 0:  # towards -oo an even degree with positive lead also tends to +oo
        left = tail_start(q, -1, True, None)
        assert left is not None
        assert all(c >= 0 for c in shifted(q, left, -1))
        assert all(_value(q, left - Fraction(k, 3)) > 0 for k in range(30))
    else:
        assert tail_start(q, -1, False, None) is None  # q -> -oo there: no tail start is claimed


def test_numbers_of_a_quadratic_field_print_with_their_root():
    assert number(Quadratic(Fraction(1, 2), Fraction(-2, 3), 3)) == [
        "add",
        ["num", "1/2"],
        ["mul", ["num", "-2/3"], ["pow", ["num", "3"], ["num", "1/2"]]],
    ]
    assert number(Quadratic(Fraction(5), 0, 3)) == ["num", "5"]
    assert number(Fraction(-7, 2)) == ["num", "-7/2"]
