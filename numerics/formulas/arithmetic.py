"""One arithmetic protocol for every composition of theory's formulas, as mpmath's mp/iv/fp contexts share
one API: the proxies and the assembled bound are composed once (:mod:`numerics.bounds.composition`) and
evaluated in whichever arithmetic is passed.

An :class:`Arithmetic` provides numbers, a precision context, the evaluation of a theory formula, and the
few reductions the compositions use (sum, maximum, the decision a < b). Two implementations:

- :class:`MpmathArithmetic` (here): points at ``dps`` decimal digits; formulas run from their stored
  lambdify source (:func:`numerics.formulas.evaluate.evaluate`);
- :class:`numerics.certify.interval_eval.ArbArithmetic`: python-flint arb balls, each containing the exact
  value (:func:`numerics.certify.interval_eval.interval_evaluate`).

What depends on a matrix's spectrum (Schatten sums, the post hoc minimum over P_m, shell indices) is the
spectral half of the protocol, :class:`numerics.bounds.composition.SpectralArithmetic`.
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Protocol, TypeVar

import mpmath

from numerics.formulas.evaluate import DEFAULT_DPS, CompiledFormula, check_dps, evaluate, to_mpf

if TYPE_CHECKING:
    from theory.formula import Formula

Number = TypeVar("Number")
"""A number of an arithmetic: mpmath.mpf for :class:`MpmathArithmetic`, flint.arb for arb."""


class Arithmetic(Protocol[Number]):
    """The operations a composition of theory's formulas needs, in one arithmetic."""

    @property
    def zero(self) -> Number:
        """The additive identity (the empty sum)."""
        ...

    @property
    def one(self) -> Number:
        """The multiplicative identity (the empty product)."""
        ...

    def context(self) -> AbstractContextManager[object]:
        """The working precision of this arithmetic, entered around every composition."""
        ...

    def number(self, value: object, name: str) -> Number:
        """``value`` (int, float, Fraction, or a number of this arithmetic) as a number of this arithmetic."""
        ...

    def evaluate(self, formula: Formula | CompiledFormula, **values: object) -> Number:
        """``formula`` at the named values (symbol names as keywords)."""
        ...

    def integer(self, formula: Formula | CompiledFormula, what: str, **values: object) -> int:
        """The integer value of an integer-valued ``formula`` (e.g. m = ceil(L + ln N), K)."""
        ...

    def total(self, values: Iterable[Number]) -> Number:
        """The sum of ``values`` (zero when empty)."""
        ...

    def maximum(self, values: Iterable[Number]) -> Number:
        """The largest of ``values`` (a number containing the maximum, for balls)."""
        ...

    def less(self, a: Number, b: Number) -> bool | None:
        """a < b decided: True, False, or None when this arithmetic cannot decide it (overlapping balls)."""
        ...


class MpmathArithmetic:
    """:class:`Arithmetic` in mpmath at ``dps`` decimal digits (points; every reported value of ``bound``)."""

    def __init__(self, dps: int = DEFAULT_DPS) -> None:
        self.dps = check_dps(dps)

    @property
    def zero(self) -> mpmath.mpf:
        """mpf(0)."""
        return mpmath.mpf(0)

    @property
    def one(self) -> mpmath.mpf:
        """mpf(1)."""
        return mpmath.mpf(1)

    def context(self) -> AbstractContextManager[object]:
        """mpmath.workdps(dps)."""
        return mpmath.workdps(self.dps)

    def number(self, value: object, name: str) -> mpmath.mpf:
        """:func:`numerics.formulas.evaluate.to_mpf` (exact for ints, floats and rationals)."""
        return to_mpf(value, name)

    def evaluate(self, formula: Formula | CompiledFormula, **values: object) -> mpmath.mpf:
        """:func:`numerics.formulas.evaluate.evaluate` at ``dps`` digits."""
        return evaluate(formula, dps=self.dps, **values)

    def integer(self, formula: Formula | CompiledFormula, what: str, **values: object) -> int:
        """int() of the formula's value (exact for the integer-valued formulas it is used on)."""
        return int(self.evaluate(formula, **values))

    def total(self, values: Iterable[mpmath.mpf]) -> mpmath.mpf:
        """mpmath.fsum (one rounding at the working precision)."""
        return mpmath.fsum(values)

    def maximum(self, values: Iterable[mpmath.mpf]) -> mpmath.mpf:
        """max."""
        return max(values)

    def less(self, a: mpmath.mpf, b: mpmath.mpf) -> bool | None:
        """a < b (points: always decided)."""
        return bool(a < b)
