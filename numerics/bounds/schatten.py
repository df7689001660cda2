"""Schatten power sums of a stored spectrum: S_p = sum_{sigma_i > 0} sigma_i^p, S_0 = rank (docs: notation).

Provenance: exact (the authors' ``norms.py``). :func:`schatten_power_sum` is the one sum, in any
:class:`SchattenArithmetic` (mpmath on a stored spectrum, :class:`MpmathSpectra`; arb on certified
enclosures, :class:`numerics.certify.certified.ArbSpectra`); :func:`log_schatten_power_sums` is the float64
log form of the post hoc search only, and :func:`exact_rank` the p = 0 value a bound covering the p = 0
class needs.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Protocol, TypeVar

import mpmath
import numpy as np

from numerics.formulas.arithmetic import Arithmetic, MpmathArithmetic
from numerics.spectra.spectrum import Spectrum
from theory.errors import InvalidArgument

Number = TypeVar("Number", bound=Any)
SpectralIn = TypeVar("SpectralIn", contravariant=True)


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


class SchattenArithmetic(Arithmetic[Number], Protocol[Number, SpectralIn]):
    """An :class:`~numerics.formulas.arithmetic.Arithmetic` that reads a matrix's spectrum: its rank and
    the terms sigma_i^p (each a number of the arithmetic containing the exact power, for balls)."""

    def rank(self, spectrum: SpectralIn, exact: bool) -> Number:
        """S_0: the authors' tolerance rank, or with ``exact`` every nonzero sigma_i."""
        ...

    def power_terms(self, spectrum: SpectralIn, exponent: Number) -> Iterable[Number]:
        """sigma_i^exponent for every sigma_i that may be > 0 (exponent in (0, 2])."""
        ...


def schatten_power_sum(
    arithmetic: SchattenArithmetic[Number, SpectralIn],
    spectrum: SpectralIn,
    p: object,
    *,
    exact: bool = False,
) -> Number:
    """S_p = sum_{sigma_i > 0} sigma_i^p in ``arithmetic``, p in [0, 2]; S_0 = rank (docs: notation).

    Every singular value > 0 enters for p > 0 (as in the authors' ``norms.py``); the exact zeros of a
    thin-factor product contribute nothing. At p = 0: the authors' tolerance rank (exact proxies), or with
    ``exact`` the exact rank (the assembled bound, whose p = 0 class must contain the matrix).

    >>> from numerics.spectra.spectrum import spectrum
    >>> from fractions import Fraction
    >>> float(schatten_power_sum(MpmathSpectra(), spectrum(np.diag([4.0, 1.0])), Fraction(1, 2)))
    3.0
    """
    with arithmetic.context():
        exponent = arithmetic.number(p, "p")
        if exponent == 0:
            return arithmetic.rank(spectrum, exact)
        if not (exponent > 0 and exponent <= 2):
            raise InvalidArgument(f"p={p!r} is outside [0, 2], the range of Schatten indices of the bound")
        return arithmetic.total(arithmetic.power_terms(spectrum, exponent))


class MpmathSpectra(MpmathArithmetic):
    """The mpmath :class:`SchattenArithmetic` of a stored :class:`~numerics.spectra.spectrum.Spectrum`."""

    def rank(self, spectrum: Spectrum, exact: bool) -> mpmath.mpf:
        """``spectrum.rank`` (the authors' tolerance rank), or with ``exact`` :func:`exact_rank`."""
        return mpmath.mpf(exact_rank(spectrum) if exact else spectrum.rank)

    def power_terms(self, spectrum: Spectrum, exponent: mpmath.mpf) -> Iterator[mpmath.mpf]:
        """sigma_i^exponent for every stored sigma_i > 0."""
        return (mpmath.power(mpmath.mpf(v), exponent) for v in spectrum.singular_values.tolist() if v > 0)


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
