"""The cheap forms beside sympy's simplify and subs: growth's sign read off ln X - ln Y and off a rational
function's factored form (checked against mpmath at sample points), and Formula.subs in one walk (checked
against sympy's subs, srepr for srepr, and its sequential order kept where a value holds an argument)."""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from theory.formula import Formula
from theory.growth import GrowthUndecided, sign
from theory.provenance import Provenance, Tagged

t = sp.Symbol("t", positive=True)
RANGE = 2 * t / (t + 1)

SIGNED = [
    (sp.log(3 * t + 1) - sp.log(2 * t + 1), 1),
    (sp.log(2 * t + 1) - sp.log(3 * t + 1), -1),
    (sp.log(3 * RANGE + 2) - sp.log(RANGE + 2), 1),
    (2 * (RANGE + 1) / (RANGE + 2) - 1, 1),
    (1 - 2 * (RANGE + 1) / (RANGE + 2), -1),
    (4 * t / ((t + 1) * (RANGE + 2)) - 2 * (RANGE + 1) / (RANGE + 2) + 2 / (RANGE + 2), 0),
]


@pytest.mark.parametrize(("value", "expected"), SIGNED, ids=str)
def test_sign_agrees_with_mpmath_at_sample_points(value, expected):
    assert sign(value) == expected
    at = sp.lambdify(t, value, "mpmath")
    with mpmath.workdps(40):
        for point in ("0.001", "0.5", "1", "7", "1e6"):
            number = at(mpmath.mpf(point))
            assert (number > 1e-30) - (number < -1e-30) == expected, (point, number)


def test_a_sign_that_changes_on_the_range_is_still_undecided():
    # (t - 1)/(t + 1) factors to itself: neither the factored form nor simplify decides it
    with pytest.raises(GrowthUndecided):
        sign(2 * t / (t + 1) - 1)


x, y, z = sp.symbols("x y z", positive=True)
FORMULA = Formula(
    "f", sp.sqrt(x + 2 * y) * sp.log(1 + z / y) + x**y, (x, y, z), Tagged(Provenance.STANDARD, "t"), "a test"
)


@pytest.mark.parametrize(
    "values",
    [{"x": 3, "y": sp.Rational(1, 2)}, {"y": z**2 + 1}, {"x": sp.exp(z), "y": 2, "z": 5}],
    ids=str,
)
def test_formula_subs_is_sympy_s_subs(values):
    by_name = {str(a): a for a in FORMULA.args}
    reference = FORMULA.expr.subs({by_name[k]: v for k, v in values.items()})
    assert sp.srepr(FORMULA.subs(**values)) == sp.srepr(reference)


def test_formula_subs_keeps_sympy_s_order_where_a_value_holds_an_argument():
    # sympy replaces x by y first, then every y by 2: sequential, unlike a simultaneous replacement
    result = FORMULA.subs(x=y, y=2)
    assert result == FORMULA.expr.subs({x: y, y: 2})
    assert result != FORMULA.expr.xreplace({x: y, y: 2})
