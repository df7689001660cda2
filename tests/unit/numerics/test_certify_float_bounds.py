"""The float-bounds certificate path on adversarial inputs, every bound checked against exact arithmetic.

Which test guards which step of numerics.certify.float_bounds / numerics.certify.fast:
- (B1) gamma_n: a worst-case sequential sum (every addition rounds the same way) whose exact error is
  (n - 1) u: a gamma replaced by n u / 2 fails it;
- (B2) error-free split: the exact part of a split product equals the exact (Fraction) product, on rows
  and columns spanning 2^-600..2^600 and with subnormal entries; the rest bound covers the rest's error;
- residual_bound: >= the exact ||T - L R||_F (Fractions) on nearly cancelling, ill-conditioned and
  huge-range inputs; dropping its rounding terms fails the cancelling case;
- the dense and thin certificates: planted spectra Q1 diag(s) Q2^T with Q products of Householder
  reflectors I - 2 v v^T / v^T v with integer v, v^T v a power of 2 (exactly orthogonal, dyadic), so W
  is exact in float64 (checked with Fractions) and its singular values are exactly s: ill-conditioned,
  clustered, near the rank threshold, scaled by 2^+-1000 and into the subnormals; a huge range inside
  one matrix falls back to arb;
- (2,1) norms: against the exact value (Fractions, then one correctly rounded arb square root).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from flint import arb

from numerics.certify.balls import flint_context
from numerics.certify.certified import ARB_PATH, FLOAT_PATH, certify_matrix
from numerics.certify.fast import (
    certify_dense_fast,
    certify_product_fast,
    norm_21_dense_fast,
    norm_21_product_fast,
)
from numerics.certify.float_bounds import (
    FastPathUnavailable,
    gamma,
    gram_split_product,
    orthogonality_bound,
    product_error,
    residual_bound,
    row_dots,
    split,
    split_product,
)
from numerics.certify.rank import certified_numerical_rank
from numerics.spectra.matrices import NamedMatrix
from numerics.spectra.spectrum import RANK_TOLERANCE
from tests.helpers.float_intervals import encloses
from theory.proxy import MatrixKind

U = 2.0**-53


def exact(matrix: np.ndarray) -> list[list[Fraction]]:
    return [[Fraction(float(x)) for x in row] for row in np.atleast_2d(matrix)]


def exact_product(left: np.ndarray, right: np.ndarray) -> list[list[Fraction]]:
    a, b = exact(left), exact(right)
    return [
        [sum((a[i][t] * b[t][j] for t in range(len(b))), Fraction(0)) for j in range(len(b[0]))]
        for i in range(len(a))
    ]


def ball(value: Fraction) -> arb:
    with flint_context():
        return arb(value.numerator) / value.denominator


def assert_at_most(value: Fraction, bound: arb) -> None:
    """value <= bound, decided in arb (value enclosed at 128 bits)."""
    with flint_context():
        assert ball(value) <= bound, (float(value), bound.str(10))


def householder(v: list[int]) -> np.ndarray:
    """I - 2 v v^T / (v^T v) for an integer v with v^T v a power of 2: exactly orthogonal and dyadic."""
    norm = sum(x * x for x in v)
    assert norm & (norm - 1) == 0
    vec = np.array(v, dtype=np.float64)
    return np.eye(len(v)) - (2.0 / norm) * np.outer(vec, vec)


Q8 = householder([1, 1, 1, 1, 2, 2, 2, 0]) @ householder([3, 2, 1, 1, 1, 0, 0, 0])
Q6 = householder([3, 2, 1, 1, 1, 0]) @ householder([0, 1, 1, 1, 1, 2])


def planted(q_left: np.ndarray, q_right: np.ndarray, values: list[float]) -> np.ndarray:
    """Q_left[:, :k] diag(values) Q_right[:, :k]^T, asserted exact in float64 (Fractions)."""
    k = len(values)
    w = (q_left[:, :k] * np.array(values)) @ q_right[:, :k].T
    truth = exact_product(q_left[:, :k] * np.array(values), q_right[:, :k].T)
    assert exact(q_left[:, :k] * np.array(values)) == [
        [Fraction(float(q_left[i, t])) * Fraction(values[t]) for t in range(k)]
        for i in range(q_left.shape[0])
    ]
    assert exact(w) == truth, "the planted matrix is not exact in float64"
    return w


def assert_encloses(balls, values: list[float], scale: int = 0) -> None:
    """Every ball contains the exact value 2^scale * value (sorted descending, zeros padded)."""
    with flint_context():
        assert len(balls) >= len(values)
        for b, v in zip(
            balls, sorted(values, reverse=True) + [0.0] * (len(balls) - len(values)), strict=True
        ):
            target = arb(v) * arb(2) ** scale
            assert b.contains(target), (v, scale, b.str(10))


# --- (B1): gamma_n ---------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 4, 17, 200])
def test_gamma_covers_a_worst_case_sequential_sum(n):
    """1 + u + u + ... in this order: every addition ties and rounds to even (down): error (n - 1) u."""
    terms = [1.0] + [U] * (n - 1)
    computed = 0.0
    for t in terms:
        computed += t
    truth = sum((Fraction(t) for t in terms), Fraction(0))
    error = abs(Fraction(computed) - truth)
    assert error == (n - 1) * Fraction(U)  # the adversary realised the worst case
    with flint_context():
        assert_at_most(error, arb(gamma(n - 1)) * ball(truth))


def test_gamma_refuses_too_many_terms():
    with pytest.raises(FastPathUnavailable):
        gamma(2**53)


# --- (B2): error-free split and split products -------------------------------------------------------


def adversarial_factors(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Full 53-bit entries, rows of the left factor scaled 2^-600..2^600, a column of the right factor
    subnormal-scaled, zeros, and a row spanning 2^-40..2^40 inside itself."""
    rng = np.random.default_rng(seed)
    left = rng.standard_normal((5, 9))
    left *= np.ldexp(1.0, rng.integers(-600, 600, size=(5, 1)))
    left[2] = np.ldexp(rng.standard_normal(9), rng.integers(-40, 40, size=9))
    left[4] = 0.0
    right = rng.standard_normal((9, 4))
    right[:, 1] = np.ldexp(right[:, 1], -400)
    right[3, 2] = 0.0
    return left, right


@pytest.mark.parametrize("seed", range(4))
def test_split_is_exact_and_the_high_part_has_the_stated_bits(seed):
    left, _ = adversarial_factors(seed)
    high, low, e = split(left, axis=1, bits=20)
    assert exact(high + low) == exact(left)
    assert [
        [h + lo for h, lo in zip(hr, lr, strict=True)] for hr, lr in zip(exact(high), exact(low), strict=True)
    ] == exact(left)
    for row, power in zip(high, e.ravel(), strict=True):
        units = np.ldexp(row, 20 - int(power))
        assert (units == np.trunc(units)).all() and (np.abs(units) < 2**20).all()


@pytest.mark.parametrize("seed", range(4))
def test_split_product_exact_part_is_exact_and_rest_bound_covers_the_rest(seed):
    left, right = adversarial_factors(seed)
    with flint_context():
        exact_part, rest, bound = split_product(left, right)
        bits = (53 - math.ceil(math.log2(left.shape[1]))) // 2
        l_hi, _, _ = split(left, axis=1, bits=bits)
        r_hi, _, _ = split(right, axis=0, bits=bits)
        assert exact(exact_part) == exact_product(l_hi, r_hi)  # BLAS computed it without any rounding
        truth = exact_product(left, right)
        rest_truth = [
            [t - Fraction(float(x)) for t, x in zip(tr, er, strict=True)]
            for tr, er in zip(truth, exact_part, strict=True)
        ]
        error = sum(
            (
                (Fraction(float(r)) - t) ** 2
                for rr, tr in zip(rest, rest_truth, strict=True)
                for r, t in zip(rr, tr, strict=True)
            ),
            Fraction(0),
        )
        assert_at_most(error, arb(bound) ** 2)


def test_split_product_refuses_exponents_beyond_the_error_free_range():
    left = np.array([[2.0**-1040, 0.0]])
    right = np.array([[2.0**-100], [0.0]])
    with pytest.raises(FastPathUnavailable, match="binary orders"):
        split_product(left, right)


# --- residual_bound ----------------------------------------------------------------------------------


def residual_cases():
    rng = np.random.default_rng(7)
    left, right = rng.standard_normal((6, 30)), rng.standard_normal((30, 5))
    near = np.array(
        [
            [
                float(sum(Fraction(float(a)) * Fraction(float(b)) for a, b in zip(row, col, strict=True)))
                for col in right.T
            ]
            for row in left
        ]
    )
    yield "nearly cancelling (T = LR rounded)", near, left, right
    q, _ = np.linalg.qr(rng.standard_normal((12, 12)))
    yield "orthogonality defect", np.eye(12), q.T, q
    ill = left * np.logspace(0, -15, 30)
    yield "ill-conditioned", ill @ right + 1e-3, ill, right
    wide = np.ldexp(left, rng.integers(-500, 500, size=(6, 1)))
    yield "huge row range", wide @ right, wide, right


@pytest.mark.parametrize("case", list(residual_cases()), ids=lambda c: c[0])
def test_residual_bound_is_at_least_the_exact_residual(case):
    _, target, left, right = case
    with flint_context():
        bound, estimate = residual_bound(target, left, right)
        truth = exact_product(left, right)
        squared = sum(
            (
                (Fraction(float(t)) - p) ** 2
                for tr, pr in zip(target, truth, strict=True)
                for t, p in zip(tr, pr, strict=True)
            ),
            Fraction(0),
        )
        assert_at_most(squared, arb(bound) ** 2)
        assert estimate <= bound * (1 + 1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_orthogonality_bound_is_at_least_the_exact_defect(seed):
    """Q^T Q - I by the symmetric split (H^T H exact) on near-orthonormal, column-scaled and tiny factors."""
    rng = np.random.default_rng(seed)
    q, _ = np.linalg.qr(rng.standard_normal((20, 6)))
    cases = [q, q * np.ldexp(1.0, rng.integers(-200, 200, size=6)), np.ldexp(q, -500), q + 1e-9]
    with flint_context():
        for factor in cases:
            exact_part, _, _ = gram_split_product(factor)
            bits = (53 - math.ceil(math.log2(factor.shape[0]))) // 2
            high, _, _ = split(factor, axis=0, bits=bits)
            assert exact(exact_part) == exact_product(high.T, high)
            bound, _ = orthogonality_bound(factor)
            gram = exact_product(factor.T, factor)
            squared = sum(
                ((gram[i][j] - (i == j)) ** 2 for i in range(len(gram)) for j in range(len(gram))),
                Fraction(0),
            )
            assert_at_most(squared, arb(bound) ** 2)


def test_residual_bound_covers_the_rounding_inside_the_split_product():
    """T = the float value of the split product's rest, whose high part cancels: the computed residual
    is 0 and the true one is the rest's own rounding error, far above u |rest| (cancellation)."""
    left = np.array([[1.0000000034397902, 1.0000000189561966]])
    right = np.array([[1.0000000246716516], [-1.0000000091564039]])
    with flint_context():
        exact_part, rest, _ = split_product(left, right)
        assert exact_part[0, 0] == 0
        bound, estimate = residual_bound(rest, left, right)
        assert estimate == 0
        computed = Fraction(float(rest[0, 0]))
        error = abs(computed - exact_product(left, right)[0][0])
        assert error > 10 * Fraction(U) * abs(computed)  # the premise: rounding well above u |rest|
        assert_at_most(error * error, arb(bound) ** 2)


def test_product_error_is_exact_or_refused():
    rng = np.random.default_rng(5)
    a, b = rng.standard_normal(200), np.ldexp(rng.standard_normal(200), rng.integers(-400, 400, size=200))
    b[:3] = 0.0
    error = product_error(a, b)
    assert error is not None
    for x, y, e in zip(a, b, error, strict=True):
        assert Fraction(float(x)) * Fraction(float(y)) == Fraction(float(x * y)) + Fraction(float(e))
    assert product_error(np.array([2.0**-600]), np.array([2.0**-400])) is None  # the error would underflow
    assert product_error(np.array([2.0**1000]), np.array([0.5])) is None  # the split would overflow


@pytest.mark.parametrize("two_product", [True, False], ids=["error-free", "bounded"])
def test_the_rounded_diagonal_product_is_accounted_for(two_product, monkeypatch):
    """W = fl(diag(s) V^T) with V^T two exactly orthonormal dyadic rows and U = I: the residual
    W - U fl(diag(s) V^T) is exactly 0, so only the exact error of fl(diag(s) V^T) (or its bound) covers
    the difference between s and the exact singular values of W (2 x 2 Gram matrix: closed form)."""
    if not two_product:  # as where TwoProduct could underflow: the rounding is bounded instead
        monkeypatch.setattr("numerics.certify.fast.product_error", lambda left, right: None)
    s = np.array([0.1, 0.07])
    vt = Q8[:2]
    w = s[:, None] * vt
    gram = exact_product(w, w.T)
    trace, det = gram[0][0] + gram[1][1], gram[0][0] * gram[1][1] - gram[0][1] * gram[1][0]
    with flint_context():
        root = ball(trace * trace - 4 * det).sqrt()
        truth = [((ball(trace) + root) / 2).sqrt(), ((ball(trace) - root) / 2).sqrt()]
        assert not any(t.contains(arb(float(v))) for t, v in zip(truth, s, strict=True))  # s is not exact
        enclosure = certify_dense_fast(w, (np.eye(2), s, vt)).enclosure
        for b, t in zip(enclosure.balls, truth, strict=True):
            assert b.contains(t), (b.str(20), t.str(20))


# --- dense and thin certificates on planted spectra --------------------------------------------------


SPECTRA = {
    "ill-conditioned": [1.0, 2.0**-16, 2.0**-32, 2.0**-38, 0.0, 0.0],
    "clustered": [1.0, 1.0 - 2.0**-30, 1.0 - 2.0**-31, 1.0 - 2.0**-32, 0.5, 0.5],
    "rank threshold": [1.0, 2.0**-29, 2.0**-30, 2.0**-31, 2.0**-32, 0.0],
    "tiny": [2.0**-30, 2.0**-31, 2.0**-33, 2.0**-34, 2.0**-35, 2.0**-36],
}


@pytest.mark.parametrize("name", list(SPECTRA))
@pytest.mark.parametrize("shape", [(8, 8), (8, 6), (6, 8)])
def test_planted_spectrum_is_enclosed_on_the_float_path(name, shape):
    values = SPECTRA[name]
    q_left = Q8 if shape[0] == 8 else Q6
    q_right = Q8 if shape[1] == 8 else Q6
    w = planted(q_left, q_right, values)
    certificate = certify_dense_fast(w)
    assert_encloses(certificate.enclosure.balls, values)
    # rank intervals contain the exact numerical rank (Fractions: #{s > 1e-10 count max(s_1, 1)})
    count = min(shape)
    tolerance = Fraction(RANK_TOLERANCE) * count * max(Fraction(max(values)), Fraction(1))
    truth = sum(Fraction(v) > tolerance for v in values)
    assert truth in certified_numerical_rank(certificate.enclosure)


@pytest.mark.parametrize("scale", [-1000, 1000, -1060])
def test_huge_and_subnormal_scalings_are_enclosed_exactly_scaled(scale):
    values = [12.0, 8.0, 3.0, 1.0, 0.5, 0.25]
    w = planted(Q8, Q6, values)
    scaled = np.ldexp(w, scale)
    assert (np.ldexp(scaled, -scale) == w).all(), "the scaling must be exact for the planted values"
    if scale == -1060:
        assert (np.abs(scaled[scaled != 0]) < 2.0**-1022).any()  # subnormal entries
    assert_encloses(certify_dense_fast(scaled).enclosure.balls, values, scale)
    # A B^T = Q8[:, :3] diag(values[:3]) Q6[:, :3]^T: singular values exactly values[:3]
    left = np.ldexp(Q8[:, :3] * np.array(values[:3]), scale // 2)
    thin = certify_product_fast(left, np.ldexp(Q6[:, :3], scale - scale // 2))
    assert_encloses(thin.enclosure.balls, values[:3], scale)


def test_a_huge_range_inside_one_matrix_falls_back_to_arb_and_is_enclosed():
    values = [2.0**900, 1.0, 2.0**-900, 2.0**-1070, 0.0]
    w = np.diag(values)[[2, 0, 4, 1, 3]]
    with pytest.raises(FastPathUnavailable):
        certify_dense_fast(w)
    certified = certify_matrix(NamedMatrix(0, -1, MatrixKind.M_IN, w))
    assert certified.path == ARB_PATH
    assert_encloses(certified.enclosure.balls, values)
    with pytest.raises(Exception, match="safe range"):
        certify_matrix(NamedMatrix(0, -1, MatrixKind.M_IN, w), path=FLOAT_PATH)


def test_an_undecided_or_loose_float_certificate_falls_back_to_arb(monkeypatch):
    """Policy: a float certificate leaving the numerical rank undecided, or loose, is replaced by arb's."""
    import numerics.certify.certified as certified

    values = [1.0, 2.0**-30, 0.5]  # 2^-30 ~ 9.3e-10 is above the threshold 1e-10 * 8 = 8e-10
    w = planted(Q8, Q8, values)
    u, s, vt = np.linalg.svd(w)
    wrong = s.copy()
    wrong[2] = 8e-10  # the corrupted certificate's residual (~9e-10) straddles the threshold
    corrupted = certify_dense_fast(w, (u, wrong, vt))
    assert not certified_numerical_rank(corrupted.enclosure).decided
    monkeypatch.setattr(certified, "certify_dense_fast", lambda matrix: corrupted)
    named = NamedMatrix(0, -1, MatrixKind.M_IN, w)
    fallback = certify_matrix(named)
    assert fallback.path == ARB_PATH and fallback.rank.decided and fallback.rank.lo == 3
    assert certify_matrix(named, path=FLOAT_PATH).path == FLOAT_PATH  # forced: no fallback
    clean = certify_dense_fast(w)
    monkeypatch.setattr(certified, "certify_dense_fast", lambda matrix: clean)
    assert certify_matrix(named).path == FLOAT_PATH
    monkeypatch.setattr(certified, "certify_dense_fast", lambda matrix: type(clean)(clean.enclosure, True))
    assert certify_matrix(named).path == ARB_PATH


@pytest.mark.parametrize("seed", range(3))
def test_row_dots_enclose_the_exact_dot_products_under_cancellation_and_range(seed):
    rng = np.random.default_rng(seed)
    x = np.ldexp(rng.standard_normal((6, 16)), rng.integers(-300, 300, size=(6, 1)))
    y = rng.standard_normal((6, 16))
    y[0] = -x[0] * (1 + 2.0**-40)  # near-total cancellation: the dot is -sum x^2 2^-40 - sum x^2
    y[1, :8], y[1, 8:] = x[1, 8:], -x[1, :8]  # exact cancellation to 0
    with flint_context():
        center, radius = row_dots(x, y)
        for j in range(6):
            truth = sum(
                (Fraction(float(a)) * Fraction(float(b)) for a, b in zip(x[j], y[j], strict=True)),
                Fraction(0),
            )
            assert abs(Fraction(float(center[j])) - truth) <= Fraction(float(radius[j])), j
        assert (radius <= 1e-12 * np.einsum("jk,jk->j", np.abs(x), np.abs(y))).all()  # and tight


# --- (2,1) norms ---------------------------------------------------------------------------------------


def exact_norm_21(columns: list[list[Fraction]]) -> arb:
    """sum_j sqrt(sum_i c_ij^2) as a 128-bit ball around the exact value."""
    with flint_context():
        return sum((ball(sum((x * x for x in col), Fraction(0))).sqrt() for col in columns), arb(0))


@pytest.mark.parametrize("scale", [0, -1000, 1000])
def test_norm_21_of_dense_and_thin_matrices_contains_the_exact_value(scale):
    rng = np.random.default_rng(3)
    w = np.ldexp(rng.standard_normal((7, 5)), scale)
    columns = [list(col) for col in zip(*exact(w), strict=True)]
    assert encloses(norm_21_dense_fast(w), exact_norm_21(columns))
    w32 = rng.standard_normal((7, 5)).astype(np.float32).astype(np.float64)  # the exact-squares path
    assert encloses(norm_21_dense_fast(w32), exact_norm_21([list(c) for c in zip(*exact(w32), strict=True)]))
    a, b = np.ldexp(rng.standard_normal((9, 3)), scale), rng.standard_normal((6, 3))
    product = exact_product(a, b.T)
    assert encloses(norm_21_product_fast(a, b), exact_norm_21([list(c) for c in zip(*product, strict=True)]))


def test_grid_schatten_sums_agree_with_the_sum_at_each_point():
    """The shared-root S_p of every grid point overlaps the per-point S_p (both rigorous), in grid order."""
    from numerics.bounds.schatten import schatten_power_sum
    from numerics.certify.certified import ArbSpectra, grid_schatten_sums
    from theory.proxy import grid

    values = [12.0, 8.0, 3.0, 1.0, 0.5, 0.25]
    certified = certify_matrix(NamedMatrix(0, -1, MatrixKind.M_IN, planted(Q8, Q6, values)))
    points = tuple(Fraction(int(p.p), int(p.q)) for p in grid(7))
    with flint_context():
        for p, shared in zip(points, grid_schatten_sums(certified, points), strict=True):
            single = schatten_power_sum(ArbSpectra(), certified, p)
            assert shared.overlaps(single) and float(shared.rad()) < 1e-12 * float(single.mid()), p
            assert shared.contains(ball(sum((Fraction(v) ** 2 for v in values), Fraction(0)))) or p != 2
