"""Schatten power sums of a stored spectrum: S_p = sum_{sigma_i > 0} sigma_i^p, S_0 = rank (docs: notation).

Provenance: exact (the authors' ``norms.py``). :func:`schatten_power_sum` is the mpmath value every report
uses, :func:`log_schatten_power_sums` the float64 log form of the post hoc search only, and
:func:`exact_rank` the p = 0 value a bound covering the p = 0 class needs.
"""

from __future__ import annotations

import mpmath
import numpy as np

from numerics.formulas.evaluate import DEFAULT_DPS, check_dps, to_mpf
from numerics.spectra.spectrum import Spectrum
from theory.errors import InvalidArgument


def exact_rank(spec: Spectrum) -> int:
    """The exact rank of the stored spectrum: #{sigma_i > 0}, every nonzero stored singular value.

    It is the limit of S_p = sum_{sigma_i > 0} sigma_i^p as p -> 0+ (the definition S_0 = rank W of
    docs: notation), so it is what a bound covering the p = 0 class needs: the authors' tolerance rank
    (``spec.rank``, sigma_i above 1e-10 sigma_1) drops singular values that are small but nonzero, and the
    p = 0 class of that rank does not contain the matrix. Rounding noise of a dense SVD only adds values,
    so the count never falls below the rank of the matrix the SVD is exact for.

    >>> from numerics.spectra.spectrum import spectrum
    >>> s = spectrum(np.diag([1.0, 1e-12]))
    >>> s.rank, exact_rank(s)
    (1, 2)
    """
    return int(np.count_nonzero(spec.singular_values > 0))


def schatten_power_sum(
    spec: Spectrum, p: object, *, dps: int = DEFAULT_DPS, exact: bool = False
) -> mpmath.mpf:
    """S_p = sum_i sigma_i^p in mpmath at ``dps`` digits; S_0 = rank (docs: notation).

    Every stored singular value > 0 enters for p > 0 (as in the authors' ``norms.py``); the exact
    zeros of a thin-factor product contribute nothing. At p = 0: the authors' tolerance rank
    ``spec.rank`` (exact proxies), or with ``exact`` the exact rank :func:`exact_rank` (the assembled
    bound, whose p = 0 class must contain the matrix).

    >>> from numerics.spectra.spectrum import spectrum
    >>> from fractions import Fraction
    >>> float(schatten_power_sum(spectrum(np.diag([4.0, 1.0])), Fraction(1, 2)))
    3.0
    """
    check_dps(dps)
    with mpmath.workdps(dps):
        exponent = to_mpf(p, "p")
        if not 0 <= exponent <= 2:
            raise InvalidArgument(f"p={p!r} is outside [0, 2], the range of Schatten indices of the bound")
        if exponent == 0:
            return mpmath.mpf(exact_rank(spec) if exact else spec.rank)
        return mpmath.fsum(
            mpmath.power(mpmath.mpf(v), exponent) for v in spec.singular_values.tolist() if v > 0
        )


def log_schatten_power_sums(spec: Spectrum, ps: np.ndarray) -> np.ndarray:
    """log S_p for each p in ``ps``, in float64 (a log-sum-exp of p log sigma_i: no overflow; log rank at 0).

    For the fast vectorised search of the post hoc p only; reported values use :func:`schatten_power_sum`.

    >>> from numerics.spectra.spectrum import spectrum
    >>> logs = log_schatten_power_sums(spectrum(np.diag([4.0, 1.0])), np.array([0.0, 0.5, 2.0]))
    >>> np.exp(logs).round(12).tolist()
    [2.0, 3.0, 17.0]
    """
    logs = np.log(spec.singular_values[spec.singular_values > 0])
    exponents = np.outer(ps, logs)
    top = exponents.max(axis=1)
    with np.errstate(under="ignore"):
        sums = np.exp(exponents - top[:, None]).sum(axis=1)
    return np.where(ps == 0, np.log(spec.rank), top + np.log(sums))
