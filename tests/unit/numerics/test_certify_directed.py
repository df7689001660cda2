"""Float bounds stepped outward (numerics.certify.directed) and the float intervals built on them, against
exact Fractions and mpmath at 60 digits, with planted cases where round-to-nearest alone lands on the wrong
side of the exact value."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from numerics.certify.apriori import rounded_gram
from numerics.certify.certified import point_values
from numerics.certify.directed import (
    ABOVE_ONE_PLUS_U,
    ONE_MINUS_U,
    down,
    product_up,
    scaled_bounds,
    sqrt_up,
    sum_up,
    up,
)
from numerics.certify.enclosure import scaled_and_widened
from numerics.certify.fast import APRIORI_BOUNDS, certify_gram_fast
from numerics.certify.float_bounds import gamma, square_sum
from numerics.certify.rank import certified_numerical_rank, certified_rank

U = Fraction(1, 2**53)


def floats(rng: np.random.Generator, count: int, lowest: int = -1070, highest: int = 500) -> list[float]:
    """Positive floats over the binades 2^lowest .. 2^highest (subnormals below 2^-1022)."""
    return [math.ldexp(rng.uniform(0.5, 1.0), int(e)) for e in rng.integers(lowest, highest, size=count)]


def test_stepped_operations_bound_the_exact_results():
    rng = np.random.default_rng(1)
    xs, ys = floats(rng, 400), floats(rng, 400, -500)  # products and quotients stay below overflow
    for x, y in zip(xs, ys, strict=True):
        fx, fy = Fraction(x), Fraction(y)
        assert Fraction(sum_up(x, y)) >= fx + fy
        assert Fraction(product_up(x, y)) >= fx * fy
        assert Fraction(down(x - y)) <= fx - fy <= Fraction(up(x - y))
        assert Fraction(down(x / y)) <= fx / fy <= Fraction(up(x / y))
        root = sqrt_up(x)
        assert Fraction(root) ** 2 >= fx and Fraction(down(math.sqrt(x))) ** 2 <= fx


def test_round_to_nearest_alone_would_be_on_the_wrong_side():
    # a product that rounds below the exact one (half of them do): stepped up it is above
    below = next(
        (x, y)
        for x, y in zip(
            floats(np.random.default_rng(2), 200), floats(np.random.default_rng(3), 200), strict=True
        )
        if Fraction(x * y) < Fraction(x) * Fraction(y)
    )
    assert Fraction(product_up(*below)) >= Fraction(below[0]) * Fraction(below[1])


def test_the_constants_are_on_the_safe_side_of_one_plus_and_minus_u():
    assert 1 + 2.0**-53 == 1.0  # 1 + u is no float: rounding it would lose the u
    assert Fraction(ABOVE_ONE_PLUS_U) >= 1 + U and Fraction(ONE_MINUS_U) == 1 - U


def test_gamma_is_an_upper_bound_and_refuses_too_many_terms():
    for n in (1, 7, 1536, 2**40):
        nu = n * U
        assert Fraction(gamma(n)) >= nu / (1 - nu)
    with pytest.raises(Exception, match="too many"):
        gamma(2**52 + 1)


def test_scaling_a_bound_into_the_subnormals_steps_outward():
    lower, upper = np.array([3.0 * 2.0**-1061]), np.array([3.0 * 2.0**-1061])
    low, high = scaled_bounds(lower, upper, -14)  # 3 * 2^-1075 = 1.5 eta is no float: it rounds
    exact = Fraction(3, 2 ** (1061 + 14))
    assert Fraction(float(low[0])) <= exact <= Fraction(float(high[0]))
    assert float(low[0]) < float(high[0])
    same = scaled_bounds(np.array([3.0]), np.array([5.0]), 4)
    assert same[0].tolist() == [48.0] and same[1].tolist() == [80.0]  # exact: no step


def test_square_sum_encloses_the_exact_sum_of_squares_including_underflow():
    rng = np.random.default_rng(5)
    for values in (rng.standard_normal(300), np.full(50, 1e-170), np.array([2.0**-600, 3.0])):
        exact = sum(Fraction(float(x)) ** 2 for x in values)
        with np.errstate(under="ignore"):
            low, high = square_sum(values)
        assert Fraction(low) <= exact <= Fraction(high)


def test_rounded_gram_bound_holds_exactly():
    rng = np.random.default_rng(6)
    tall = rng.standard_normal((70, 5))
    gram, bound = rounded_gram(tall)
    exact = [
        [sum(Fraction(tall[r, i]) * Fraction(tall[r, j]) for r in range(70)) for j in range(5)]
        for i in range(5)
    ]
    squared = sum((Fraction(gram[i, j]) - exact[i][j]) ** 2 for i in range(5) for j in range(5))
    assert 0 < squared <= Fraction(bound) ** 2


def test_widening_steps_outward_where_nearest_rounding_would_cut_into_the_exact_end():
    # find a value s and defects where fl(s * shrink) exceeds the exact product: the lower end must not
    rng = np.random.default_rng(7)
    for _ in range(200):
        s, f_left, f_right, e = (
            rng.uniform(1, 2),
            rng.uniform(0, 1e-3),
            rng.uniform(0, 1e-3),
            rng.uniform(0, 1e-9),
        )
        low, high = scaled_and_widened(np.array([s]), np.array([s]), f_left, f_right, e)
        with mpmath.workdps(60):
            fl, fr, mp_s, mp_e = (mpmath.mpf(x) for x in (f_left, f_right, s, e))
            exact_low = mp_s * mpmath.sqrt((1 - fl) * (1 - fr)) - mp_e
            exact_high = mp_s * mpmath.sqrt((1 + fl) * (1 + fr)) + mp_e
            assert mpmath.mpf(float(low[0])) <= exact_low and exact_high <= mpmath.mpf(float(high[0]))
            # and tight: a few units in the last place
            assert exact_low - mpmath.mpf(float(low[0])) < 8 * 2.0**-52 * exact_low
            naive = s * math.sqrt((1 - f_left) * (1 - f_right)) - e
            if mpmath.mpf(naive) > exact_low:
                break
    else:
        pytest.fail("no sample where the nearest-rounded lower end exceeds the exact one")


def test_gram_certificate_encloses_mpmath_values_and_excludes_a_perturbed_matrix():
    rng = np.random.default_rng(8)
    matrix = rng.standard_normal((9, 24))
    certificate = certify_gram_fast(matrix, bounds=APRIORI_BOUNDS).enclosure
    perturbed = matrix.copy()
    perturbed[0, 0] *= 1 + 1e-9  # moves sigma_1 by about 1e-10 relative, beyond the enclosure's width
    with mpmath.workdps(60):
        exact = sorted(mpmath.svd_r(mpmath.matrix(matrix.tolist()), compute_uv=False), reverse=True)
        moved = sorted(mpmath.svd_r(mpmath.matrix(perturbed.tolist()), compute_uv=False), reverse=True)
        for low, high, value in zip(certificate.lower, certificate.upper, exact, strict=True):
            assert mpmath.mpf(float(low)) <= value <= mpmath.mpf(float(high))
        assert any(
            not mpmath.mpf(float(low)) <= value <= mpmath.mpf(float(high))
            for low, high, value in zip(certificate.lower, certificate.upper, moved, strict=True)
        )
    assert str(certified_rank(certificate)) == str(certified_numerical_rank(certificate)) == "9"


def test_point_values_lie_inside_the_intervals():
    from numerics.certify.certified import certify_matrix
    from numerics.spectra.matrices import NamedMatrix
    from theory.kinds import MatrixKind

    matrix = np.random.default_rng(9).standard_normal((10, 16))
    certified = certify_matrix(NamedMatrix(0, -1, MatrixKind.M_IN, matrix))
    points = point_values(certified)
    assert points is not None
    assert np.all(certified.enclosure.lower <= points) and np.all(points <= certified.enclosure.upper)


def test_an_exact_zero_stays_zero_and_an_underflowed_product_is_stepped():
    values = np.array([0.0, 2.0**-1070])
    low, high = scaled_and_widened(values, values, 0.0, 0.0, 0.0)
    assert high[0] == 0.0 and low[0] == 0.0  # 0 * grow + 0 is exact: the exact rank stays decided
    assert Fraction(float(high[1])) >= Fraction(2.0**-1070) and high[1] > 0
    low, high = scaled_and_widened(np.array([2.0**-1074]), np.array([2.0**-1074]), 0.0, 0.0, 0.0)
    assert float(high[0]) > 2.0**-1074  # eta * grow (grow > 1 from the stepped 1 + 0) is stepped up
