"""The theory's formulas in numbers: limits in p, monotonicity, homogeneity, and the Schatten facts.

Each ``check_*`` function runs a hypothesis property against a given Formula and raises AssertionError
when the formula violates it; the tests call them with the theory's formulas, and ``test_mutants.py``
calls the same functions with deliberately broken formulas and asserts that they fail. The expected
values (sqrt(N rank), N^{3/4} (s ||W||_F)^{1/2}, K_2 = 24 sqrt 3, ...) are typed here from the docs and
theory.assembled's docstring: they are the independent statements the formulas must agree with.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import sympy as sp
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from numerics.bounds.posthoc import contribution
from numerics.formulas.evaluate import evaluate
from numerics.spectra.matrices import extract_matrices
from numerics.spectra.spectrum import spectrum
from numerics.strategies import matrices_with_spectrum, schatten_indices, transformer_weights, with_spectrum
from numerics.testing import check_dominates, check_limit, check_monotone
from theory import assembled, interpolation, schatten
from theory.formula import Formula
from theory.proxy import SUMMAND, MatrixKind

RTOL = 1e-9
SCALES = st.floats(min_value=0.1, max_value=1e3, allow_nan=False)
WIDTHS = st.integers(1, 4096)
POSITIVE_P = st.floats(min_value=1e-3, max_value=2.0, allow_nan=False)
FACTORS = st.floats(min_value=0.1, max_value=10.0, allow_nan=False)


def _numeric(formula: Formula):
    """The formula as a float function of its arguments in order, evaluated in mpmath
    (numerics.formulas.evaluate)."""
    names = [str(a) for a in formula.args]
    return lambda *values: float(evaluate(formula, dps=30, **dict(zip(names, values, strict=True))))


def _power_sum(sigma: np.ndarray, p: float) -> float:
    """S_p = sum over the nonzero sigma_i of sigma_i^p; the rank at p = 0 (docs: notation)."""
    nonzero = sigma[sigma > 0]
    return float(nonzero.size) if p == 0 else float(np.sum(nonzero**p))


def property_settings(fail_fast: bool) -> settings:
    """The settings of the ``check_*`` properties: no example database, one bug reported (an
    AssertionError, not a group); ``fail_fast`` (used on mutants) stops at the first failing example,
    skipping the shrinking and explaining phases."""
    phases = (Phase.generate,) if fail_fast else tuple(p for p in Phase if p is not Phase.explain)
    return settings(database=None, report_multiple_bugs=False, phases=phases)


def _close(a: float, b: float, rtol: float = RTOL) -> bool:
    return math.isclose(float(a), float(b), rel_tol=rtol)


def check_summand(formula: Formula, fail_fast: bool = False) -> None:
    """C_0 = sqrt(N rank), C_2 = N^{3/4} (s ||W||_F)^{1/2}, continuity at 0+, degree p/(p+2) in W and s."""
    f = _numeric(formula)

    @property_settings(fail_fast)
    @given(matrices_with_spectrum(), SCALES, WIDTHS, POSITIVE_P, FACTORS)
    def run(drawn, s, n, p, c):
        sigma = drawn.singular_values
        rank, frob = drawn.rank, float(np.linalg.norm(sigma))
        assert _close(f(0, rank, s, n), math.sqrt(n * rank))
        assert _close(f(2, _power_sum(sigma, 2), s, n), n**0.75 * math.sqrt(s * frob))
        assert _close(f(1e-12, _power_sum(sigma, 1e-12), s, n), math.sqrt(n * rank), rtol=1e-6)
        base = f(p, _power_sum(sigma, p), s, n)
        assert _close(f(p, _power_sum(c * sigma, p), s, n), c ** (p / (p + 2)) * base)
        assert _close(f(p, _power_sum(sigma, p), c * s, n), c ** (p / (p + 2)) * base)
        assert f(p, _power_sum(sigma, p), s, n + 1) > base

    run()


def check_matrix_term(formula: Formula, fail_fast: bool = False) -> None:
    """MATRIX_TERM: 3 N rank at p = 0, 3 N (rank + 1) as p -> 0+, K_2 N^{3/2} S_2^{1/2} s + 3N at p = 2
    with K_2 = 24 sqrt 3, and (MATRIX_TERM - 3N) of degree 2p/(p+2) in s, increasing in s, S and N."""
    f = _numeric(formula)

    @property_settings(fail_fast)
    @given(matrices_with_spectrum(), SCALES, WIDTHS, POSITIVE_P, FACTORS)
    def run(drawn, s, n, p, c):
        sigma, rank = drawn.singular_values, drawn.rank
        assert _close(f(0, rank, s, n), 3 * n * rank)
        assert _close(f(1e-12, _power_sum(sigma, 1e-12), s, n), 3 * n * (rank + 1), rtol=1e-6)
        expected_two = 24 * math.sqrt(3) * n**1.5 * math.sqrt(_power_sum(sigma, 2)) * s + 3 * n
        assert _close(f(2, _power_sum(sigma, 2), s, n), expected_two)
        power = _power_sum(sigma, p)
        base = f(p, power, s, n) - 3 * n
        assert _close(f(p, power, c * s, n) - 3 * n, c ** (2 * p / (p + 2)) * base, rtol=1e-8)
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


def test_proxy_summand_limits_monotonicity_and_homogeneity():
    check_summand(SUMMAND)


def test_assembled_matrix_term_limits_monotonicity_and_homogeneity():
    check_matrix_term(assembled.MATRIX_TERM)


def test_assembled_gap_term_dominates_the_confidence_term_and_is_monotone():
    check_gap_term(assembled.GAP_TERM)


def test_interpolation_exponents_are_monotone_in_p_with_the_stated_endpoints():
    # through numerics.testing, the module a user points at their own bound
    exponents = {str(b): e for b, e in interpolation.theorem_exponents().items()}
    p, domain = interpolation.p, {interpolation.p: (0.0, 2.0)}
    check_monotone(exponents["N"], p, domain)
    check_monotone(exponents["S"], p, domain, increasing=False)
    check_monotone(exponents["s"], p, domain)
    check_limit(exponents["N"], p, 2.0, sp.Rational(3, 2), domain)
    check_limit(exponents["S"], p, 2.0, sp.Rational(1, 2), domain)
    check_limit(exponents["s"], p, 0.0, sp.Integer(0), domain)
    check_dominates(
        sp.Integer(1), -exponents["epsilon"], domain
    )  # entropy ~ eps^{-2p/(p+2)}: Dudley converges


def _tail_bound() -> Formula:
    """sigma_k <= (S_p / k)^{1/p}: the right side of the theory's Schatten tail statement, as a Formula."""
    relation = schatten.lemma().statement[0]
    return Formula("tail", relation.rhs, (schatten.S_p, schatten.k, schatten.p), schatten.lemma().tag, "tail")


_TAIL = _tail_bound()


@given(matrices_with_spectrum(), POSITIVE_P)
def test_singular_value_tail_bound_of_the_theory_holds(drawn, p):
    sigma = np.linalg.svd(drawn.matrix, compute_uv=False)
    power = float(np.sum(sigma[sigma > 0] ** p))
    for k, value in enumerate(sigma, start=1):
        assert value <= evaluate(_TAIL, dps=30, S_p=power, k=k, p=p) * (1 + 1e-9)


@given(matrices_with_spectrum(), POSITIVE_P, POSITIVE_P)
def test_schatten_quasi_norm_is_nonincreasing_in_p(drawn, p, q):
    low, high = sorted((p, q))
    sigma = drawn.singular_values[drawn.singular_values > 0]
    log_norm = lambda r: float(np.log(np.sum(sigma**r)) / r)  # noqa: E731  log ||W||_{s,r}
    assert log_norm(high) <= log_norm(low) + 1e-12


@given(
    st.integers(1, 8),
    st.integers(1, 8),
    st.data(),
    st.floats(min_value=1e-3, max_value=1.0, allow_nan=False),
)
def test_p_triangle_inequality_for_p_at_most_one(rows, cols, data, p):
    a = data.draw(matrices_with_spectrum(rows=rows, cols=cols)).matrix
    b = data.draw(matrices_with_spectrum(rows=rows, cols=cols)).matrix
    s_p = lambda w: float(np.sum(np.linalg.svd(w, compute_uv=False) ** p))  # noqa: E731
    assert s_p(a + b) <= (s_p(a) + s_p(b)) * (1 + 1e-9)


@given(matrices_with_spectrum(kinds=("low_rank", "power_law")), st.integers(0, 2**32 - 1))
def test_schatten_power_sum_tends_to_the_rank(drawn, seed):
    rebuilt = with_spectrum(drawn.singular_values[: drawn.rank], *drawn.matrix.shape, seed)
    assert math.isclose(_power_sum(rebuilt.singular_values, 1e-12), drawn.rank, rel_tol=1e-9)


@given(schatten_indices(), matrices_with_spectrum(), SCALES, WIDTHS)
def test_proxy_summand_never_exceeds_its_rank_value_by_more_than_the_spectral_factor(p, drawn, s, n):
    # C_p / C_0 = (sum_i (sqrt(N) s sigma_i)^p / rank^{(p+2)/2})^{1/(p+2)} <= (sqrt(N) s sigma_1)^{p/(p+2)}
    f = _numeric(SUMMAND)
    sigma, rank = drawn.singular_values, drawn.rank
    ratio = f(p, _power_sum(sigma, p), s, n) / math.sqrt(n * rank)
    ceiling = (math.sqrt(n) * s * sigma[0]) ** (p / (p + 2)) * rank ** (-p / (2 * (p + 2)))
    assert ratio <= ceiling * (1 + 1e-9)


@given(transformer_weights(), FACTORS, schatten_indices(), SCALES)
def test_scaling_the_query_weights_scales_each_qk_contribution_by_c_to_the_p_over_p_plus_2(weights, c, p, s):
    # homogeneity through the real pipeline: extraction, thin-factor spectrum, mpmath summand
    scaled_layers = tuple(dataclasses.replace(layer, wq=c * layer.wq) for layer in weights.layers)
    scaled = dataclasses.replace(weights, layers=scaled_layers)
    n = weights.hidden_size
    for before, after in zip(extract_matrices(weights), extract_matrices(scaled), strict=True):
        old = float(contribution(spectrum(before), p, s, n))
        new = float(contribution(spectrum(after), p, s, n))
        factor = c ** (p / (p + 2)) if before.kind is MatrixKind.QK else 1.0
        assert math.isclose(new, factor * old, rel_tol=1e-9)
