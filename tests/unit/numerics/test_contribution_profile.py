"""contribution_profile (the float64 C_p of the report's contribution figure) against C_p summed by hand."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np

from numerics.bounds.posthoc import contribution_profile
from numerics.spectra.spectrum import spectrum


def summand_by_hand(values: np.ndarray, rank: int, p: Fraction, scale: float, n: int) -> mpmath.mpf:
    """C_p = S_p^{1/(p+2)} s^{p/(p+2)} N^{(p+1)/(p+2)} at 60 digits, S_p summed over the nonzero values,
    S_0 = ``rank``."""
    with mpmath.workdps(60):
        q = mpmath.mpf(p.numerator) / p.denominator
        nonzero = [mpmath.mpf(float(v)) for v in values if v > 0]
        total = mpmath.mpf(rank) if p == 0 else mpmath.fsum(v**q for v in nonzero)
        s, big_n = mpmath.mpf(scale), mpmath.mpf(n)
        return total ** (1 / (q + 2)) * s ** (q / (q + 2)) * big_n ** ((q + 1) / (q + 2))


def test_the_float_profile_is_c_p_to_float_rounding_over_a_wide_spectrum():
    rng = np.random.default_rng(3)
    # sigma over 12 decades: some below the rank tolerance
    matrix = rng.standard_normal((40, 60)) * np.logspace(0, 12, 40)[:, None]
    spec = spectrum(matrix)
    ps = [Fraction(k, 6) for k in range(13)]
    got = contribution_profile(spec, ps, 1e6, 60)
    expected = [float(summand_by_hand(spec.singular_values, spec.rank, p, 1e6, 60)) for p in ps]
    assert got.dtype == np.float64 and got.shape == (13,)
    assert np.allclose(got, expected, rtol=1e-13, atol=0)


def test_the_zero_matrix_has_no_log_form_and_gets_the_mpmath_values():
    spec = spectrum(np.zeros((3, 4)))
    got = contribution_profile(spec, [Fraction(0), Fraction(1, 2), Fraction(2)], 5.0, 4)
    assert got.tolist() == [0.0, 0.0, 0.0]  # S_p = 0 at every p, rank 0
