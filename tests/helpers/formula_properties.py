"""Hypothesis properties of the theory's formulas in numbers, as functions of the Formula checked.

Each ``check_*`` function runs a hypothesis property against a given Formula and raises AssertionError when
the formula violates it: tests/property/test_lemmas_numeric.py calls them with the theory's formulas, and
tests/property/test_mutants.py with deliberately broken formulas, asserting that they fail. The expected
values (sqrt(N rank), N^{3/4} (s ||W||_F)^{1/2}, K_2 = 24 sqrt 3, ...) are typed here from the docs and
theory.assembled's docstring: they are the independent statements the formulas must agree with."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from numerics.formulas.evaluate import evaluate
from numerics.strategies import matrices_with_spectrum
from theory.formula import Formula

RTOL = 1e-9


SCALES = st.floats(min_value=0.1, max_value=1e3, allow_nan=False)


WIDTHS = st.integers(1, 4096)


POSITIVE_P = st.floats(min_value=1e-3, max_value=2.0, allow_nan=False)


FACTORS = st.floats(min_value=0.1, max_value=10.0, allow_nan=False)
"""Relative tolerance and hypothesis strategies of the formula properties: a scale s, a width N, a
Schatten index p > 0, a homogeneity factor c."""


def as_float_function(formula: Formula):
    """The formula as a float function of its arguments in order, evaluated in mpmath
    (numerics.formulas.evaluate)."""
    names = [str(a) for a in formula.args]
    return lambda *values: float(evaluate(formula, dps=30, **dict(zip(names, values, strict=True))))


def power_sum(sigma: np.ndarray, p: float) -> float:
    """S_p = sum over the nonzero sigma_i of sigma_i^p; the rank at p = 0 (docs: notation)."""
    nonzero = sigma[sigma > 0]
    return float(nonzero.size) if p == 0 else float(np.sum(nonzero**p))


def property_settings(fail_fast: bool) -> settings:
    """The settings of the ``check_*`` properties: no example database, one bug reported (an
    AssertionError, not a group); ``fail_fast`` (used on mutants) stops at the first failing example,
    skipping the shrinking and explaining phases."""
    phases = (Phase.generate,) if fail_fast else tuple(p for p in Phase if p is not Phase.explain)
    return settings(database=None, report_multiple_bugs=False, phases=phases)


def relatively_close(a: float, b: float, rtol: float = RTOL) -> bool:
    """a and b agree to ``rtol`` relative."""
    return math.isclose(float(a), float(b), rel_tol=rtol)


def check_summand(formula: Formula, fail_fast: bool = False) -> None:
    """C_0 = sqrt(N rank), C_2 = N^{3/4} (s ||W||_F)^{1/2}, continuity at 0+, degree p/(p+2) in W and s."""
    f = as_float_function(formula)

    @property_settings(fail_fast)
    @given(matrices_with_spectrum(), SCALES, WIDTHS, POSITIVE_P, FACTORS)
    def run(drawn, s, n, p, c):
        sigma = drawn.singular_values
        rank, frob = drawn.rank, float(np.linalg.norm(sigma))
        assert relatively_close(f(0, rank, s, n), math.sqrt(n * rank))
        assert relatively_close(f(2, power_sum(sigma, 2), s, n), n**0.75 * math.sqrt(s * frob))
        assert relatively_close(f(1e-12, power_sum(sigma, 1e-12), s, n), math.sqrt(n * rank), rtol=1e-6)
        base = f(p, power_sum(sigma, p), s, n)
        assert relatively_close(f(p, power_sum(c * sigma, p), s, n), c ** (p / (p + 2)) * base)
        assert relatively_close(f(p, power_sum(sigma, p), c * s, n), c ** (p / (p + 2)) * base)
        assert f(p, power_sum(sigma, p), s, n + 1) > base

    run()


def check_matrix_term(formula: Formula, fail_fast: bool = False) -> None:
    """MATRIX_TERM: 3 N rank at p = 0, 3 N (rank + 1) as p -> 0+, K_2 N^{3/2} S_2^{1/2} s + 3N at p = 2
    with K_2 = 24 sqrt 3, and (MATRIX_TERM - 3N) of degree 2p/(p+2) in s, increasing in s, S and N."""
    f = as_float_function(formula)

    @property_settings(fail_fast)
    @given(matrices_with_spectrum(), SCALES, WIDTHS, POSITIVE_P, FACTORS)
    def run(drawn, s, n, p, c):
        sigma, rank = drawn.singular_values, drawn.rank
        assert relatively_close(f(0, rank, s, n), 3 * n * rank)
        assert relatively_close(f(1e-12, power_sum(sigma, 1e-12), s, n), 3 * n * (rank + 1), rtol=1e-6)
        expected_two = 24 * math.sqrt(3) * n**1.5 * math.sqrt(power_sum(sigma, 2)) * s + 3 * n
        assert relatively_close(f(2, power_sum(sigma, 2), s, n), expected_two)
        power = power_sum(sigma, p)
        base = f(p, power, s, n) - 3 * n
        assert relatively_close(f(p, power, c * s, n) - 3 * n, c ** (2 * p / (p + 2)) * base, rtol=1e-8)
        assert f(p, power, 2 * s, n) > f(p, power, s, n)
        assert f(p, 2 * power, s, n) > f(p, power, s, n) and f(p, power, s, n + 1) > f(p, power, s, n)

    run()


def check_gap_term(formula: Formula, fail_fast: bool = False) -> None:
    """GAP_TERM is at least the confidence term 3 sqrt(ln(2/delta)/(2n)) of the margin bound (Mohri et al.
    2018 Thm 3.3) and the Rademacher constant 8/sqrt(n) (Sigma = 0), decreasing in n and delta, increasing
    in Sigma."""

    def value(**kw: float) -> float:
        return float(evaluate(formula, dps=30, **kw))

    @property_settings(fail_fast)
    @given(
        st.floats(0.0, 1e6),
        st.integers(2, 10**7),
        st.floats(1e-6, 0.5),
        st.floats(0.01, 1.0),
        st.integers(1, 40),
        st.integers(1, 48),
        st.integers(1, 512),
        st.floats(0.0, 500.0),
    )
    def run(sigma, n, delta, margin, m, k, t, peel):
        kw = dict(Sigma=sigma, n=n, delta=delta, gamma_m=margin, m=m, K=k, T=t, N_max=16, Q=3.0, P=peel)
        here = value(**kw)
        assert here >= 3 * math.sqrt(math.log(2 / delta) / (2 * n)) + 8 / math.sqrt(n)
        assert value(**{**kw, "n": 4 * n}) < here
        assert value(**{**kw, "delta": delta / 2}) > here
        assert value(**{**kw, "Sigma": sigma + 1.0}) > here

    run()
