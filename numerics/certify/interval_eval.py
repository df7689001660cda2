"""Theory's formulas evaluated in ball arithmetic: the same expressions, over python-flint arb balls.

A stored formula of the bound path (:class:`numerics.formulas.evaluate.CompiledFormula`) runs its stored
lambdify source over balls (:mod:`numerics.certify.stored_arb`, no sympy); any other theory Formula is
printed to arb code from its sympy expression (:mod:`numerics.certify.arb_printer`, imported only then).
Arb's operations are inclusion-isotone (Johansson 2017, provenance ``standard``), so the result is a ball
containing the formula's exact value at every point of the argument balls. No formula is retyped here:
the number comes from the very expression theory checks symbolically.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from numerics.certify.balls import arb_type, flint_context
from numerics.certify.stored_arb import stored_arb_function
from numerics.formulas.evaluate import CompiledFormula, argument_names, rational_as_fraction
from theory.errors import CertificationFailed, InvalidArgument

if TYPE_CHECKING:
    from flint import arb

    from theory.formula import Formula


def to_ball(value: object, name: str) -> arb:
    """A real number as an arb ball containing it (exact for ints, floats, and dyadic rationals).

    Accepts int, float, Fraction, sympy Rational or an arb ball (returned as is).
    """
    arb = arb_type()

    if isinstance(value, arb):
        return value
    value = rational_as_fraction(value)
    if isinstance(value, Fraction):
        return arb(value.numerator) / value.denominator
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidArgument(f"{name}={value!r} must be a real number (int, float, rational or arb ball)")
    ball = arb(value)
    if not ball.is_finite():
        raise InvalidArgument(f"{name}={value!r} is not finite; formulas take finite real values")
    return ball


def exact_integer(ball: arb, what: str) -> int:
    """The integer a ball pins down (a ball of radius < 1/2 around an integer), else CertificationFailed.

    >>> from flint import arb
    >>> exact_integer(arb(12), "m")
    12
    """
    value = ball.unique_fmpz()
    if value is None:
        raise CertificationFailed(
            f"{what} is not decided by its enclosure {ball.str(10)}; it must be an integer"
        )
    return int(value)


def interval_evaluate(formula: Formula | CompiledFormula, **values: object) -> arb:
    """A ball containing ``formula`` at every point of the argument balls (symbol names as keywords).

    Raises InvalidArgument for missing or unknown arguments and CertificationFailed when the result
    is not a finite ball (an argument ball reaching outside the formula's domain, e.g. 0 under a
    fractional power).

    >>> from theory.proxy import SUMMAND
    >>> ball = interval_evaluate(SUMMAND, p=0, S=4, s=7, N=9)
    >>> ball.contains(6), float(ball.rad()) < 1e-30
    (True, True)
    """
    evaluate = interval_evaluator(formula, tuple(values))
    with flint_context():
        return evaluate(*values.values())


def interval_evaluator(formula: Formula | CompiledFormula, names: tuple[str, ...]) -> Callable[..., arb]:
    """:func:`interval_evaluate` of ``formula`` as a function of its argument values given in the order
    ``names`` (checked once here, not on every call: a caller evaluating one formula at many points). The
    function converts each value by :func:`to_ball` and must run inside
    :func:`numerics.certify.balls.flint_context` (the precision every ball of a certificate is formed at).

    >>> from theory.proxy import SUMMAND
    >>> summand = interval_evaluator(SUMMAND, ("S", "s", "N", "p"))
    >>> with flint_context():
    ...     summand(4, 7, 9, 0).contains(6)
    True
    """
    order = argument_names(formula)
    missing = [n for n in order if n not in names]
    unknown = sorted(set(names) - set(order))
    if missing or unknown:
        raise InvalidArgument(
            f"formula {formula.name!r} takes {list(order)}; missing {missing}, unknown {unknown} "
            "among the values"
        )
    positions = [names.index(n) for n in order]
    function = _ball_function(formula)

    def evaluate(*values: object) -> arb:
        balls = [to_ball(values[i], order[j]) for j, i in enumerate(positions)]
        result = function(*balls)
        result = to_ball(result, formula.name) if not hasattr(result, "is_finite") else result
        if not result.is_finite():
            raise CertificationFailed(
                f"formula {formula.name!r} has no finite enclosure at the given balls "
                f"({', '.join(f'{n}={b.str(5)}' for n, b in zip(order, balls, strict=True))}); "
                "tighten the inputs"
            )
        return result

    return evaluate


def _ball_function(formula: Formula | CompiledFormula) -> Callable[..., Any]:
    """The formula as a function of arb balls: a stored formula's own source, else sympy's printing."""
    if isinstance(formula, CompiledFormula):
        return stored_arb_function(formula)
    from numerics.certify.arb_printer import compiled_arb

    return compiled_arb(formula)


class ArbArithmetic:
    """:class:`numerics.formulas.arithmetic.Arithmetic` in python-flint arb balls at
    :data:`numerics.certify.balls.PRECISION` bits: every number a ball containing the exact value."""

    @property
    def zero(self) -> arb:
        """The exact ball 0."""
        return arb_type()(0)

    @property
    def one(self) -> arb:
        """The exact ball 1."""
        return arb_type()(1)

    def context(self) -> AbstractContextManager[object]:
        """:func:`numerics.certify.balls.flint_context`."""
        return flint_context()

    def number(self, value: object, name: str) -> arb:
        """:func:`to_ball` (exact for ints, floats and dyadic rationals)."""
        return to_ball(value, name)

    def evaluate(self, formula: Formula | CompiledFormula, **values: object) -> arb:
        """:func:`interval_evaluate`."""
        return interval_evaluate(formula, **values)

    def integer(self, formula: Formula | CompiledFormula, what: str, **values: object) -> int:
        """The integer the formula's ball pins down (:func:`exact_integer`), else CertificationFailed."""
        return exact_integer(interval_evaluate(formula, **values), what)

    def total(self, values: Iterable[arb]) -> arb:
        """The ball sum, term by term from the exact 0."""
        return sum(values, self.zero)

    def maximum(self, values: Iterable[arb]) -> arb:
        """A ball containing the maximum of the points of the balls (arb's ``max``, pairwise)."""
        return functools.reduce(lambda x, y: x.max(y), values)

    def less(self, a: arb, b: arb) -> bool | None:
        """True if every point of ``a`` is < every point of ``b``, False if every point of ``a`` is >= every
        point of ``b``, None (undecided) when the balls overlap.

        >>> from flint import arb
        >>> less = ArbArithmetic().less
        >>> less(arb(1), arb(2)), less(arb(2), arb(1)), less(arb(1, 1), arb(1))
        (True, False, None)
        """
        if a < b:
            return True
        if a >= b:
            return False
        return None
