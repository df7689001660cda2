"""Theory's formulas evaluated in arb (sympy Formulas and the bound path's stored sources): balls contain
sympy's exact values, bad inputs fail loudly."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp
from flint import arb

from numerics.certify.interval_eval import interval_evaluate
from numerics.formulas import codegen as formula_codegen
from numerics.formulas import generated
from numerics.formulas.evaluate import CompiledFormula
from theory.errors import CertificationFailed, InvalidArgument
from theory.formula import Formula
from theory.provenance import Provenance, Tagged
from theory.proxy import (
    EDELMAN_PROXY,
    EDELMAN_TERM,
    GRID_M,
    HEAD_LIPSCHITZ,
    L_PHI_VALUE,
    LAYER_LIPSCHITZ,
    OURS_PROXY,
    SUMMAND,
    MatrixKind,
)


def exact_ball(formula: Formula, values: dict[str, object]) -> arb:
    """sympy's value of the formula at the values, to 60 digits, as a ball of radius 1e-50 (reference)."""
    by_name = {str(a): a for a in formula.args}
    number = sp.N(formula.expr.subs({by_name[k]: sp.nsimplify(v) for k, v in values.items()}), 60)
    return arb(str(number)) + arb(0, "1e-50")


CASES = [
    (SUMMAND, {"p": Fraction(1, 3), "S": 17, "s": Fraction(9, 2), "N": 384}),
    (SUMMAND, {"p": 0, "S": 32, "s": 1000, "N": 384}),
    (SUMMAND, {"p": 2, "S": Fraction(5, 7), "s": 3, "N": 8}),
    (EDELMAN_PROXY, {"Xi": Fraction(123, 10)}),
    (OURS_PROXY, {"Sigma": 100, "L": 6}),
    (HEAD_LIPSCHITZ, {"C_V": Fraction(5, 2), "C_QK": 3}),
    (LAYER_LIPSCHITZ, {"L_phi": L_PHI_VALUE, "C_in": 11, "C_out": 8, "A": 400}),
    (EDELMAN_TERM[MatrixKind.QK], {"C_out": 8, "C_in": 11, "C_V": 3, "n21": 250}),
]


@pytest.mark.parametrize(
    ("formula", "values"), CASES, ids=[f"{f.name}-{i}" for i, (f, _) in enumerate(CASES)]
)
def test_ball_contains_the_exact_value_and_is_tight(formula, values):
    ball = interval_evaluate(formula, **values)
    reference = exact_ball(formula, values)
    assert ball.overlaps(reference)
    assert float(ball.rad()) <= 1e-30 * max(1.0, abs(float(ball.mid())))


def test_argument_balls_propagate():
    wide = interval_evaluate(OURS_PROXY, Sigma=arb(100, 1), L=4)
    assert wide.contains(arb(101)) and wide.contains(arb(103)) and not wide.contains(arb(104))


def test_ceiling_of_the_grid_size():
    assert interval_evaluate(GRID_M, L=6, N=384).unique_fmpz() == 12  # ceil(6 + ln 384) = ceil(11.95)


def test_decimal_float_constant_is_enclosed():
    x = sp.Symbol("x", positive=True)
    formula = Formula("scaled", sp.Float("0.1") * x, (x,), Tagged(Provenance.DERIVED, "test"), "0.1 x")
    assert interval_evaluate(formula, x=10).contains(1)


def test_missing_unknown_and_non_real_arguments_are_refused():
    with pytest.raises(InvalidArgument, match="missing"):
        interval_evaluate(OURS_PROXY, Sigma=1)
    with pytest.raises(InvalidArgument, match="unknown"):
        interval_evaluate(OURS_PROXY, Sigma=1, L=2, q=3)
    with pytest.raises(InvalidArgument, match="real number"):
        interval_evaluate(OURS_PROXY, Sigma="1", L=2)
    with pytest.raises(InvalidArgument, match="not finite"):
        interval_evaluate(OURS_PROXY, Sigma=float("inf"), L=2)


def test_ball_outside_the_domain_fails_loudly():
    with pytest.raises(CertificationFailed, match="no finite enclosure"):
        interval_evaluate(SUMMAND, p=Fraction(1, 2), S=arb(0, 1), s=1, N=4)


def _stored_formulas() -> list[CompiledFormula]:
    out = []
    for name in formula_codegen.BOUND_FORMULAS:
        value = getattr(generated, name)
        out.extend(value.values() if isinstance(value, dict) else [value])
    return out


@pytest.mark.parametrize("stored", _stored_formulas(), ids=lambda f: f.key)
def test_a_stored_formula_in_balls_contains_sympys_exact_value(stored):
    # the ball comes from the stored lambdify source (no sympy); the reference is theory's sympy expression
    values = {name: Fraction(7 + 5 * i, 3 + i) for i, name in enumerate(stored.arg_names)}
    ball = interval_evaluate(stored, **values)
    assert ball.overlaps(exact_ball(stored.formula, values))
    assert float(ball.rad()) <= 1e-30 * max(1.0, abs(float(ball.mid())))
    assert ball.mid() == interval_evaluate(stored.formula, **values).mid()  # sympy's printing to arb agrees


def _with_source(source: str, names: tuple[str, ...] = ()) -> CompiledFormula:
    return CompiledFormula("test:stored", "stored", ("x",), names, source, None, None)


def test_a_stored_source_with_a_rounded_literal_or_an_unknown_name_is_refused():
    with pytest.raises(CertificationFailed, match="not an exact integer"):
        interval_evaluate(_with_source("def _lambdifygenerated(x):\n    return 0.1*x\n"), x=1)
    with pytest.raises(CertificationFailed, match="not an exact integer"):
        interval_evaluate(
            _with_source("def _lambdifygenerated(x):\n    return mpf('0.1')*x\n", ("mpf",)), x=1
        )
    with pytest.raises(CertificationFailed, match="no ball meaning"):
        interval_evaluate(_with_source("def _lambdifygenerated(x):\n    return gamma(x)\n", ("gamma",)), x=1)


def test_a_stored_rational_constant_is_an_exact_ball_not_a_float():
    # 1/3 of Python ints would be the float 0.333...3 (3 x it is 1 - 2^-54 exactly at 128 bits, not 1); the
    # rewrite makes it arb(1)/arb(3), a ball containing 1/3
    ball = interval_evaluate(_with_source("def _lambdifygenerated(x):\n    return x*(1/3)\n"), x=3)
    assert ball.contains(1) and float(ball.rad()) < 1e-35
