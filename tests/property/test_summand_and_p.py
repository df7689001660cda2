"""Properties of the summand and of the post hoc p (hypothesis).

- the grid minimum is never below the continuous minimum;
- refining the grid (m -> 2m, so P_m is a subset of P_2m) never increases the minimum;
- the value at p = 0 is sqrt(N rank), whatever the scale;
- the continuous minimum is at most the summand at any p in [0, 2].
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from numerics.bounds.posthoc import choose_p, contribution
from numerics.spectra.spectrum import spectrum

singular_values = st.lists(st.floats(1e-6, 1e3), min_size=1, max_size=12)
scales = st.floats(1e-4, 1e8)
widths = st.integers(12, 2000)
grid_sizes = st.integers(1, 12)


def diagonal_spectrum(values: list[float]):
    return spectrum(np.diag(np.array(values)))


@given(singular_values, scales, widths, grid_sizes)
def test_grid_minimum_is_never_below_the_continuous_minimum(values, scale, n, m):
    choice = choose_p(diagonal_spectrum(values), scale, n, m=m)
    assert choice.value_continuous <= choice.value_grid
    assert 0 <= choice.p_continuous <= 2


@given(singular_values, scales, widths, grid_sizes)
def test_refining_the_grid_never_increases_the_minimum(values, scale, n, m):
    spec = diagonal_spectrum(values)
    coarse = choose_p(spec, scale, n, m=m)
    fine = choose_p(spec, scale, n, m=2 * m)
    assert fine.value_grid <= coarse.value_grid


@given(singular_values, scales, widths)
def test_value_at_zero_is_sqrt_n_rank(values, scale, n):
    spec = diagonal_spectrum(values)
    with mpmath.workdps(50):
        expected = mpmath.sqrt(mpmath.mpf(n) * spec.rank)
        assert abs(contribution(spec, 0, scale, n) - expected) <= expected * mpmath.mpf(10) ** -45


@given(singular_values, scales, widths, st.fractions(0, 2))
def test_continuous_minimum_is_below_the_summand_anywhere(values, scale, n, q):
    spec = diagonal_spectrum(values)
    choice = choose_p(spec, scale, n, m=3)
    at_q = contribution(spec, Fraction(q), scale, n)
    assert choice.value_continuous <= at_q * (1 + mpmath.mpf(10) ** -9)
