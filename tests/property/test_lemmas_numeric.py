"""The theory's formulas in numbers: limits in p, monotonicity, homogeneity, and the Schatten facts.

The ``check_*`` properties (tests.helpers.formula_properties) run here on the theory's formulas;
``test_mutants.py`` runs the same functions on deliberately broken formulas and asserts that they fail. The
expected values are typed from the docs and theory.assembled's docstring: they are the independent
statements the formulas must agree with.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from numerics.bounds.posthoc import contribution
from numerics.formulas.evaluate import evaluate
from numerics.spectra.matrices import extract_matrices
from numerics.spectra.spectrum import spectrum
from numerics.strategies import matrices_with_spectrum, schatten_indices, transformer_weights, with_spectrum
from numerics.testing import check_dominates, check_limit, check_monotone
from tests.helpers.formula_properties import (
    FACTORS,
    POSITIVE_P,
    SCALES,
    WIDTHS,
    as_float_function,
    check_gap_term,
    check_matrix_term,
    check_summand,
    power_sum,
)
from theory import assembled, interpolation, schatten
from theory.formula import Formula
from theory.proxy import SUMMAND, MatrixKind


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
    assert math.isclose(power_sum(rebuilt.singular_values, 1e-12), drawn.rank, rel_tol=1e-9)


@given(schatten_indices(), matrices_with_spectrum(), SCALES, WIDTHS)
def test_proxy_summand_never_exceeds_its_rank_value_by_more_than_the_spectral_factor(p, drawn, s, n):
    # C_p / C_0 = (sum_i (sqrt(N) s sigma_i)^p / rank^{(p+2)/2})^{1/(p+2)} <= (sqrt(N) s sigma_1)^{p/(p+2)}
    f = as_float_function(SUMMAND)
    sigma, rank = drawn.singular_values, drawn.rank
    ratio = f(p, power_sum(sigma, p), s, n) / math.sqrt(n * rank)
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
