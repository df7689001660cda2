"""The zero rules of the stepped float operations (numerics.certify.directed): x 0 = 0, x + 0 = x and
sqrt(0) = 0 are exact, so they are not stepped; everything else still bounds the exact value.

Reference: exact rational arithmetic (Fraction) on the floats themselves, over exact zeros of either
sign, subnormals (down to eta = 2^-1074), products that underflow and ordinary magnitudes.
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numerics.certify.directed import (
    ETA,
    product_down,
    product_up,
    product_up_array,
    sqrt_up,
    sqrt_up_array,
    sum_up,
    sum_up_array,
    up,
)
from numerics.certify.enclosure import scaled_and_widened

SAMPLES = [
    0.0,
    -0.0,
    ETA,
    3 * ETA,
    2.0**-1022 - ETA,
    2.0**-1022,
    2.0**-600,
    0.1,
    1.0,
    1 + 2.0**-52,
    3.0,
    2.0**500,
]
"""Exact zeros of both signs, subnormals, the smallest normal, an underflowing square, ordinary floats."""

nonnegative = st.one_of(
    st.sampled_from(SAMPLES),
    st.floats(min_value=0.0, max_value=2.0**300, allow_nan=False, allow_subnormal=True),
)


def _exact_product(factors: tuple[float, ...]) -> Fraction:
    return math.prod((Fraction(f) for f in factors), start=Fraction(1))


@pytest.mark.parametrize("factors", [*product(SAMPLES, repeat=2), (0.5, 2.0**-1074, 3.0), (3.0, 0.7, -0.0)])
def test_products_bound_the_exact_product_and_a_zero_factor_gives_exactly_zero(factors):
    exact = _exact_product(factors)
    high, low = product_up(*factors), product_down(*factors)
    assert Fraction(low) <= exact <= Fraction(high)
    assert low >= 0
    if any(f == 0 for f in factors):
        assert high == 0.0 and low == 0.0
    else:  # nonzero: stepped even when the rounded product underflows to 0 (the planted failure mode)
        assert high > 0
        stepped = up(factors[0] * factors[1])
        assert high == (stepped if len(factors) == 2 else up(stepped * factors[2]))


@settings(max_examples=300, deadline=None)
@given(st.lists(nonnegative, min_size=1, max_size=4))
def test_products_of_any_nonnegative_floats_bound_the_exact_product(factors):
    exact = _exact_product(tuple(factors))
    high, low = product_up(*factors), product_down(*factors)
    if math.isinf(high):
        assert low <= exact  # an overflow: +inf bounds above
    else:
        assert Fraction(low) <= exact <= Fraction(high)
    assert (high == 0) == (exact == 0)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(SAMPLES), st.floats(-1e300, 1e300)), min_size=1, max_size=4))
def test_sums_bound_the_exact_sum_and_zero_terms_are_exact(terms):
    exact = sum((Fraction(t) for t in terms), Fraction(0))
    assert Fraction(sum_up(*terms)) >= exact
    nonzero = [t for t in terms if t != 0]
    if len(nonzero) <= 1:
        assert Fraction(sum_up(*terms)) == exact  # nothing rounded: x + 0 = x, 0 + 0 = 0


@pytest.mark.parametrize("x", SAMPLES)
def test_sqrt_up_bounds_the_root_and_zero_is_exact(x):
    root = sqrt_up(x)
    assert Fraction(root) ** 2 >= Fraction(x)
    assert (root == 0) == (x == 0)


def test_array_forms_agree_with_the_scalar_rules_entry_by_entry():
    values = np.array(SAMPLES[:-1])
    for factor in (0.0, -0.0, ETA, 0.7, 3.0):
        expected = [product_up(v, factor) for v in values.tolist()]
        assert product_up_array(values, factor).tolist() == expected
        assert sum_up_array(values, factor).tolist() == [sum_up(v, factor) for v in values.tolist()]
    assert sqrt_up_array(values).tolist() == [sqrt_up(v) for v in values.tolist()]


def test_an_exact_zero_singular_value_with_a_zero_residual_stays_exactly_zero():
    lower, upper = scaled_and_widened(np.array([2.0, 0.0, -0.0]), np.array([2.0, 0.0, -0.0]), 1e-3, 1e-3, 0.0)
    assert upper[1] == upper[2] == 0.0 and lower[1] == lower[2] == 0.0
    grow = Fraction(1 + 1e-3)  # the exact stretch sqrt((1 + f)(1 + f)) = 1 + f
    assert Fraction(lower[0]) <= 2 <= Fraction(upper[0]) and Fraction(upper[0]) >= 2 * grow
    # a residual e > 0 widens a zero to [0, e] exactly (0 + e is exact), not beyond
    _, upper = scaled_and_widened(np.array([0.0]), np.array([0.0]), 0.0, 0.0, 3 * ETA)
    assert upper.tolist() == [3 * ETA]
