"""evaluate(): theory formulas in mpmath, agreement with float64, beyond float64's range, bad input."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp

from numerics.bounds.schatten import MpmathSpectra, log_schatten_power_sums, schatten_power_sum
from numerics.formulas.evaluate import (
    compiled,
    evaluate,
    log_form,
)
from numerics.spectra.spectrum import spectrum
from theory.errors import InvalidArgument
from theory.formula import Formula
from theory.provenance import Provenance, Tagged
from theory.proxy import EDELMAN_PROXY, LAYER_LIPSCHITZ, SUMMAND

TAG = Tagged(Provenance.DERIVED, "test")


@pytest.mark.parametrize(
    ("p", "S", "s", "N"), [(0.0, 7, 3.5, 384), (0.5, 12.25, 1e4, 768), (2.0, 3.0, 0.01, 128)]
)
def test_summand_agrees_with_a_float64_evaluation(p, S, s, N):
    by_hand = S ** (1 / (p + 2)) * s ** (p / (p + 2)) * N ** ((p + 1) / (p + 2))
    assert float(evaluate(SUMMAND, p=p, S=S, s=s, N=N)) == pytest.approx(by_hand, rel=1e-14)
    assert float(compiled(SUMMAND, "numpy")(p, S, s, N)) == pytest.approx(by_hand, rel=1e-14)


def test_high_precision_is_really_high():
    # C_{1/3}(S=2, s=1, N=1) = 2^{3/7}, to 45 digits
    value = evaluate(SUMMAND, dps=60, p=Fraction(1, 3), S=2, s=1, N=1)
    with mpmath.workdps(60):
        assert abs(value / mpmath.power(2, mpmath.mpf(3) / 7) - 1) < mpmath.mpf(10) ** -55


def test_products_beyond_float64_stay_finite_and_exact():
    # 400 layers of factor 1e10: alpha = 1e3990 overflows float64, not mpmath
    factor = evaluate(LAYER_LIPSCHITZ, L_phi=1, C_in=10.0, C_out=10.0, A=1e8)
    with mpmath.workdps(50):
        alpha = factor**399
        b_edelman = evaluate(EDELMAN_PROXY, Xi=alpha ** (mpmath.mpf(2) / 3))
        assert mpmath.isfinite(b_edelman)
        assert abs(mpmath.log10(b_edelman) - 3990) < mpmath.mpf(10) ** -40


def test_evaluate_returns_at_the_requested_precision():
    third = Formula("third", sp.Symbol("x", positive=True) / 3, (sp.Symbol("x", positive=True),), TAG, "x/3")
    assert evaluate(third, dps=80, x=1).context.prec < 300  # an mpf, not a string
    assert mpmath.nstr(evaluate(third, dps=80, x=1), 70) == "0." + "3" * 70


def test_cache_is_per_formula_and_backend():
    assert compiled(SUMMAND, "mpmath") is compiled(SUMMAND, "mpmath")
    assert compiled(SUMMAND, "mpmath") is not compiled(SUMMAND, "numpy")


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"p": 1, "S": 1, "s": 1}, "missing"),
        ({"p": 1, "S": 1, "s": 1, "N": 1, "q": 2}, "unknown"),
        ({"p": 1, "S": float("nan"), "s": 1, "N": 1}, "not finite"),
        ({"p": 1, "S": 1, "s": float("inf"), "N": 1}, "not finite"),
        ({"p": "1", "S": 1, "s": 1, "N": 1}, "real number"),
    ],
)
def test_bad_values_raise(values, message):
    with pytest.raises(InvalidArgument, match=message):
        evaluate(SUMMAND, **values)


@pytest.mark.parametrize("dps", [0, 14, 100_001, 50.0, True])
def test_bad_precision_raises(dps):
    with pytest.raises(InvalidArgument, match="dps"):
        evaluate(SUMMAND, dps=dps, p=0, S=1, s=1, N=1)


def test_complex_or_infinite_results_are_refused():
    x = sp.Symbol("x", real=True)
    with pytest.raises(InvalidArgument, match="complex"):
        evaluate(Formula("root", sp.sqrt(x), (x,), TAG, "sqrt x"), x=-1)
    with pytest.raises(InvalidArgument, match="undefined"):
        evaluate(Formula("inverse", 1 / x, (x,), TAG, "1/x"), x=0)


def test_schatten_power_sums():
    spec = spectrum(np.diag([4.0, 1.0, 0.0]))
    assert schatten_power_sum(MpmathSpectra(), spec, 0) == 2  # the rank
    assert schatten_power_sum(MpmathSpectra(), spec, Fraction(1, 2)) == 3
    assert schatten_power_sum(MpmathSpectra(), spec, 2) == 17
    for bad in (-0.1, 2.5, float("nan")):
        with pytest.raises(InvalidArgument, match="p="):
            schatten_power_sum(MpmathSpectra(), spec, bad)


def test_log_schatten_sums_match_mpmath_and_do_not_overflow():
    spec = spectrum(np.diag([1e200, 3e150, 2.0]))
    ps = np.array([0.0, 0.3, 1.0, 2.0])
    logs = log_schatten_power_sums(spec, ps)
    for p, log_value in zip(ps, logs, strict=True):
        assert log_value == pytest.approx(
            float(mpmath.log(schatten_power_sum(MpmathSpectra(), spec, float(p)))), rel=1e-14
        )


def test_log_form_is_the_log_of_the_formula():
    function = log_form(SUMMAND)
    assert function is not None
    with mpmath.workdps(30):
        exact = evaluate(SUMMAND, p=0.7, S=5.0, s=1e300, N=300)
        assert function(0.7, np.log(5.0), np.log(1e300), np.log(300)) == pytest.approx(
            float(mpmath.log(exact)), rel=1e-14
        )
    x, c = sp.Symbol("x", positive=True), sp.Symbol("c", positive=True)
    assert log_form(Formula("sum", x + c, (x, c), TAG, "x + c"), ("p",)) is None
