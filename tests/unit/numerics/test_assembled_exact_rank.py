"""The assembled bound's p = 0 term counts every nonzero singular value (float and certified paths).

The p = 0 class of rank r contains a matrix only if r is at least its exact rank; the authors' tolerance
rank (sigma_i above 1e-10 max(#sigma, 1) max(sigma_1, 1)) drops small nonzero sigma_i, and the term
3 N rank built on it bounds a class that does not contain the matrix. The planted spectrum
diag(1 x4, 1e-9 x28) has tolerance rank 4 (1e-9 < 3.2e-9) and exact rank 32.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp

from numerics.bounds.assembled import assembled_bound, grid_terms
from numerics.certify.assembled import certified_schatten, certify_assembled
from numerics.certify.certified import certify_matrix
from numerics.certify.interval_eval import interval_evaluate
from numerics.loading.weights import LayerWeights, ModelShape, TransformerWeights
from numerics.spectra.matrices import NamedMatrix
from numerics.spectra.spectrum import spectrum
from theory import assembled as theorem
from theory import proxy as symbols
from theory.proxy import MatrixKind, grid

N, SCALE, M = 32, 100, 8
PLANTED = np.diag([1.0] * 4 + [1e-9] * 28)
EXACT_RANK_TERM = 3 * N * 32  # 3 N rank, rank 32 = 2^5 already a dyadic shell
POINTS = [Fraction(int(q.p), int(q.q)) for q in grid(M)]


def _smallest_positive_p_term() -> float:
    """min over p in P_m, p > 0, of MATRIX_TERM at the planted S_p rounded up to 2^ceil(log2 S_p): the
    terms the fix does not touch, evaluated from the closed form S_p = 4 + 28 (1e-9)^p."""
    best = mpmath.inf
    with mpmath.workdps(30):
        for q in POINTS[1:]:
            s_p = 4 + 28 * mpmath.power(mpmath.mpf("1e-9"), mpmath.mpf(q.numerator) / q.denominator)
            shell = mpmath.mpf(2) ** mpmath.ceil(mpmath.log(s_p, 2))
            values = {symbols.S: shell, symbols.s: SCALE, symbols.N: N}
            term = theorem.MATRIX_TERM.expr.subs(symbols.p, q).subs(values)
            best = min(best, mpmath.mpf(str(sp.N(term, 30))))
    return float(best)


def _nonzero(spec) -> int:
    """The exact rank of a stored spectrum, counted here: #{sigma_i > 0}."""
    return int(np.count_nonzero(spec.singular_values > 0))


def test_planted_spectrum_has_tolerance_rank_4_and_exact_rank_32():
    spec = spectrum(PLANTED)
    assert (spec.rank, _nonzero(spec)) == (4, 32)


def test_float_p0_term_is_the_exact_rank_term_and_the_choice_never_below_it():
    terms = grid_terms(spectrum(PLANTED), mpmath.mpf(SCALE), N, POINTS, 30)
    assert terms[0][0] == 0 and float(terms[0][2]) == EXACT_RANK_TERM  # was 3 N 4 = 384
    chosen = min(term for _, _, term in terms)
    floor = min(EXACT_RANK_TERM, _smallest_positive_p_term())
    assert floor > 2345  # the figure: no valid term on this spectrum is below 2345.7
    assert float(chosen) == pytest.approx(floor, rel=1e-12)


def test_certified_p0_term_is_the_exact_rank_term():
    certified = certify_matrix(NamedMatrix(0, -1, MatrixKind.M_IN, PLANTED))
    assert certified.rank.hi == 4 and certified.exact_rank.lo == 32  # both decided by the enclosures
    ball = certified_schatten(certified, Fraction(0))
    assert ball.contains(32) and not ball.contains(4)
    j = 5  # Shat = 2^5 >= 32
    term = interval_evaluate(theorem.MATRIX_TERM, p=Fraction(0), S=2**j, s=SCALE, N=N)
    assert term.contains(EXACT_RANK_TERM)


def _planted_model() -> TransformerWeights:
    """One layer, N = 4, H = 2: M_in = W_in^T has singular values 1, 1e-12 x3 (tolerance rank 1,
    exact rank 4); every other matrix is a multiple of the identity on its support."""
    eye = np.eye(4)
    w_in = np.vstack([np.diag([1.0, 1e-12, 1e-12, 1e-12]), np.zeros((4, 4))])
    layer = LayerWeights(0.5 * eye, 0.5 * eye, eye, eye, w_in, np.hstack([eye, np.zeros((4, 4))]))
    return TransformerWeights((layer,), ModelShape(4, 2, 2, 8), "planted M_in")


def test_no_matrix_of_a_model_gets_a_p0_term_below_its_exact_rank_term():
    model = _planted_model()
    setting = {"n": 500, "delta": 0.05, "margin": 0.5, "T": 4}
    plain = assembled_bound(model, **setting)
    certified = certify_assembled(model, **setting)
    planted = [row for row in plain.matrices if row.matrix.label == "L0.M_in"]
    assert len(planted) == 1 and planted[0].p == 0  # the p = 0 term is the one taken
    for row, ball_row in zip(plain.matrices, certified.matrices, strict=True):
        spec = spectrum(row.matrix.dense())
        floor = 3 * row.dimension * 2 ** int(np.ceil(np.log2(_nonzero(spec))))
        (p0,) = grid_terms(spec, row.scale, row.dimension, POINTS[:1], 30)
        assert float(p0[2]) == floor
        if row.p == 0:
            assert float(row.term) == floor and ball_row.term.contains(floor)
    assert float(planted[0].term) == 3 * 8 * 4  # N_i = 8, exact rank 4; the tolerance rank 1 gave 24
