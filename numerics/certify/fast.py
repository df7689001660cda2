"""Certificates from rigorous floating-point error bounds: the default (fast) path of ``--certify``.

Same theorem as :mod:`numerics.certify.enclosure` and :mod:`numerics.certify.thin` (Weyl's inequality and
the multiplicative bound, provenance ``standard``); only the three certificate numbers (the residual
e >= ||W - U diag(s) V^T||_2 and the orthogonality defects f_u, f_v) are obtained differently: the products
are formed by BLAS and bounded by :mod:`numerics.certify.float_bounds` (error-free split products plus
Higham's gamma_k bounds, any summation order) instead of being formed in arb.

1. Scaling: W' = 2^t W with the largest |entry| in [1/2, 1) (exact, checked: an inexact scaling raises
   :class:`FastPathUnavailable`); sigma_i(W') = 2^t sigma_i(W), so the intervals are multiplied by 2^-t
   at the end (exact, or stepped outward where a value leaves float64's normal range).
2. The diagonal is multiplied into the k x n (or m x k) factor: X = fl(diag(s) V^T) and its exact
   error E = diag(s) V^T - X (:func:`numerics.certify.float_bounds.product_error`, Dekker's TwoProduct),
   so W' - U diag(s) V^T = (W' - U X) - U E: a split residual and a u-times smaller correction
   (:func:`numerics.certify.float_bounds.residual_bound`). Where TwoProduct is
   not certain to be exact (underflow), |X - diag(s) V^T| <= (u |X| + eta / 2) / (1 - u) entrywise
   (one rounding per entry, Higham Thm 2.2) instead, and ||W' - U diag(s) V^T||_2 <= ||W' - U X||_F +
   ||U||_2 ||X - diag(s) V^T||_F with ||U||_2 <= sqrt(1 + f_u) (step 1 of
   :mod:`numerics.certify.enclosure`); symmetrically for fl(U diag(s)).
3. ||W' - U X||_F, f_u >= ||U^T U - I||_F and f_v >= ||V^T V - I||_F from
   :func:`numerics.certify.float_bounds.residual_bound`; then steps 1-3 of
   :mod:`numerics.certify.enclosure` (:func:`numerics.certify.enclosure.scaled_and_widened`).
4. Thin products M = A B^T (each factor scaled as step 1 only when its largest |entry| is outside
   [2^-100, 2^100], :func:`range_scaled`): steps 1-5 of :mod:`numerics.certify.thin` with ||A - Q R||_F and
   ||Q^T Q - I||_F from :func:`residual_bound`, and the core C = R_A R_B^T, an exact product of floats
   that is never rounded: C - U X = [R_A, U] [R_B^T; -X], so its residual is one :func:`residual_bound`
   of the stacked factors.

5. Gram certificate of a dense matrix (:func:`certify_gram_fast`; fewer and smaller products than the
   SVD certificate of steps 2-3; W' = W unless its largest |entry| is outside [2^-100, 2^100], where the
   scaling of step 1 is applied): with T the tall orientation of W' (W' or W'^T, long x k), the exact
   Gram matrix G = T^T T (k x k) has eigenvalues sigma_i(W')^2, i <= k = min(m, n) (standard). G =
   H + R_exact from :func:`numerics.certify.float_bounds.gram_split_product` (H exact, ||R - R_exact||_F
   bounded); G~ = fl(H + R) is one rounding per entry, so ||G - G~||_F <= u ||G~||_F + that bound. A
   float64 eigendecomposition G~ ~ Q diag(l) Q^T is a decomposition Q diag(|l|) (Q S)^T, S = sign(l),
   whose residual against G (:func:`residual_bound` plus ||G - G~||_F) and defects
   ||Q^T Q - I||_F certify, by steps 1-3 of :mod:`numerics.certify.enclosure`, balls [a_i, b_i] for the
   singular values of G, which are its eigenvalues (G is positive semidefinite); sigma_i(W') lies in
   [sqrt(a_i), sqrt(b_i)] (x -> sqrt(x) is increasing). Valid for any Q and l.

(2,1) norms: column sums of squares with error-free split sums (:func:`nonnegative_column_sums`), and for
a thin product the quadratic forms b_j^T (A^T A) b_j with (B1) bounds; square roots and their sum by
:func:`sum_of_square_roots`.

Every scalar of these certificates is a float with each operation stepped outward
(:mod:`numerics.certify.directed`) and every result a float interval (the singular values'
:class:`~numerics.certify.enclosure.SingularValueEnclosure`, the (2,1) norms' (lo, hi)), so this module
imports no ball library: ``bound --certify`` loads python-flint only for the composition after the layers
(or when a matrix falls back to the arb path).

Fallback policy (a cost choice, not part of any proof): a certificate is *loose* when one of its bounds
exceeds twice the float value it bounds plus 8 u times that quantity's scale (then the arb path, which
computes the same quantities exactly, could be up to twice as tight);
:func:`numerics.certify.certified.certify_matrix` then certifies that matrix in arb. The Gram
certificate's radius on sigma_i is about sigma_1 / sigma_i times the SVD certificate's (a residual of
size u sigma_1^2 on sigma_i^2), so it is also called loose when the computed sigma_1 / sigma_k exceeds
:data:`GRAM_CONDITION_LIMIT`; ``certify_matrix`` then takes the SVD certificate.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from numerics.certify.apriori import (
    apriori_orthogonality,
    apriori_residual,
    column_norm_sum,
    rounded_gram,
    rounded_product,
)
from numerics.certify.directed import (
    ONE_MINUS_U,
    down,
    product_up,
    scaled_bounds,
    sqrt_up,
    sqrt_up_array,
    sum_up,
    up,
)
from numerics.certify.enclosure import SingularValueEnclosure, scaled_and_widened, sorted_decomposition
from numerics.certify.float_bounds import (
    ETA,
    FastPathUnavailable,
    at_exact_width,
    gamma,
    gram_split_product,
    nonnegative_column_sums,
    norm_upper,
    orthogonality_bound,
    product_error,
    residual_bound,
    row_dots,
    safe_upper,
    split_product,
    sum_of_square_roots,
    underflow_accounted,
)
from numerics.certify.norms import is_float32_exact
from numerics.certify.thin import Factorization, checked_factors
from numerics.spectra.gram import UNIT_ROUNDOFF
from theory.errors import CertificationFailed

LOOSENESS_FACTOR = 2
"""A bound more than this many times its computed float value (plus 8 u scale) is called loose."""

GRAM_CONDITION_LIMIT = 64
"""The Gram certificate is called loose above this computed sigma_1 / sigma_k (its radii are then more than
about this many times the SVD certificate's)."""

APRIORI_WIDTH_LIMIT = 2.0**-20
"""An a priori certificate (:data:`APRIORI_BOUNDS`) is called loose when an enclosure's relative width
(hi - lo) / hi exceeds this (fallback policy only)."""

Residual = Callable[[np.ndarray, np.ndarray, "tuple[np.ndarray, np.ndarray] | None"], tuple[float, float]]
Bounds = tuple[np.ndarray, np.ndarray]
"""Float arrays (lower, upper) of enclosures."""


def _split_gram(tall: np.ndarray) -> tuple[np.ndarray, float]:
    """(G~, bound >= ||G~ - T^T T||_F): G~ = fl(H + R) of :func:`gram_split_product`, one rounding per
    entry: ||G - G~||_F <= u ||G~||_F + the split's bound."""
    gram, rest, rest_bound = gram_split_product(np.asarray(tall, dtype=np.float64))
    gram += rest  # in place
    return gram, sum_up(rest_bound, product_up(UNIT_ROUNDOFF, norm_upper(gram)))


@dataclass(frozen=True)
class ProductBounds:
    """How a certificate bounds the float products it forms (every choice rigorous; they trade work
    for width)."""

    residual: Callable[..., tuple[float, float]]
    """(target, L, R, (C, D) or None) -> (bound >= ||target - L R - C D||_F, float estimate)."""
    orthogonality: Callable[[np.ndarray], tuple[float, float]]
    """Q -> (bound >= ||Q^T Q - I||_F, float estimate)."""
    gram: Callable[[np.ndarray], tuple[np.ndarray, float]]
    """T -> (a float G~, bound >= ||G~ - T^T T||_F)."""
    a_priori: bool
    """True: the bounds are a priori (a bound is not compared with its estimate, the diagonal of a
    decomposition is rounded, not split, and looseness is judged by the enclosures' widths)."""


SPLIT_BOUNDS = ProductBounds(residual_bound, orthogonality_bound, _split_gram, a_priori=False)
"""Error-free split products (:mod:`numerics.certify.float_bounds`): bounds about u, three products each."""
APRIORI_BOUNDS = ProductBounds(apriori_residual, apriori_orthogonality, rounded_gram, a_priori=True)
"""A priori gamma_k bounds (:mod:`numerics.certify.apriori`): bounds about k u, one product each."""


@dataclass(frozen=True, eq=False)
class FloatCertificate:
    """Singular-value enclosures from float error bounds; ``loose`` as in the module docstring."""

    enclosure: SingularValueEnclosure
    loose: bool


@underflow_accounted
def power_of_two_scaled(matrix: np.ndarray) -> tuple[np.ndarray, int]:
    """(2^t matrix, t) with the largest |entry| in [1/2, 1), exact (else FastPathUnavailable).

    >>> scaled, t = power_of_two_scaled(np.array([[3.0, -1e-3]]))
    >>> scaled.tolist(), t
    ([[0.75, -0.00025]], -2)
    """
    peak = float(np.max(np.abs(matrix))) if matrix.size else 0.0
    if peak == 0.0:
        return matrix, 0
    shift = -math.frexp(peak)[1]
    scaled = np.ldexp(matrix, shift)
    if shift < 0 and not np.array_equal(np.ldexp(scaled, -shift), matrix):
        raise FastPathUnavailable(
            "scaling the matrix into float64's safe range would round its small entries"
        )
    return scaled, shift


def _judged(enclosure: SingularValueEnclosure, loose: bool, bounds: ProductBounds) -> FloatCertificate:
    """The certificate with its ``loose`` flag; an a priori one is loose when an enclosure is wider than
    :data:`APRIORI_WIDTH_LIMIT` relative."""
    return FloatCertificate(
        enclosure, loose or (bounds.a_priori and enclosure.max_relative_width() > APRIORI_WIDTH_LIMIT)
    )


def range_scaled(values: np.ndarray) -> tuple[np.ndarray, int]:
    """(values, 0) when the largest |entry| is in [2^-100, 2^100] (or the matrix is 0), else
    :func:`power_of_two_scaled`: a power-of-2 scaling is exact but costs a copy, so it is taken only where
    products could overflow or their norms come near the absolute floor sqrt(n eta) ~ 2^-532 of (B1)."""
    peak = max(float(np.max(values)), -float(np.min(values))) if values.size else 0.0
    if peak == 0.0 or 2.0**-100 <= peak <= 2.0**100:
        return values, 0
    return power_of_two_scaled(np.asarray(values, dtype=np.float64))


def _loose(bound: float, estimate: float, scale: float) -> bool:
    """True when ``bound`` > LOOSENESS_FACTOR * estimate + 8 u scale (fallback policy only)."""
    return not bound <= LOOSENESS_FACTOR * estimate + 8 * UNIT_ROUNDOFF * scale


def _certify_decomposition(
    residual_of: Residual,
    u: np.ndarray,
    s: np.ndarray,
    vt: np.ndarray,
    count: int,
    *,
    bounds: ProductBounds,
    signed_copy: bool = False,
) -> tuple[Bounds, bool]:
    """Steps 2-3 of the module docstring for sorted U, s, V^T (:func:`sorted_decomposition`'s copies,
    overwritten here): ((lower, upper) of the ``count`` singular values, loose). ``residual_of(L, R, (C, D)
    or None)`` bounds ||target - L R - C D||_F for the exact products
    (:func:`numerics.certify.float_bounds.residual_bound`). ``signed_copy``: V = U S with S a
    diagonal of signs (a symmetric eigendecomposition), so ||V^T V - I|| = ||S (U^T U - I) S|| = f_u.
    ``bounds`` gives the defects; with a priori bounds the diagonal's product is rounded (its bound
    below), not split, and ``loose`` is left to the widths (:func:`_judged`)."""
    k = len(s)
    diagonal_left = u.shape[0] != k
    f_u, fu_estimate = bounds.orthogonality(u)
    f_v, fv_estimate = (f_u, fu_estimate) if signed_copy else bounds.orthogonality(vt.T)
    if bounds.a_priori:
        error = None
    else:
        error = product_error(u, s[None, :]) if diagonal_left else product_error(s[:, None], vt)
    # the diagonal multiplied into U or V^T in place (the callers' own copies, not used after this)
    if diagonal_left:
        left, right = np.multiply(u, s, out=u), vt
    else:
        left, right = u, np.multiply(s[:, None], vt, out=vt)
    rounded = left if diagonal_left else right
    correction = None
    if error is not None:  # U diag(s) V^T = (X + E) V^T or U (X + E) exactly: no rounding term
        correction = (error, right) if diagonal_left else (left, error)
        rounding = 0.0
    else:  # ||rounded - exact||_F <= (u ||rounded||_F + sqrt(cells) eta / 2) / (1 - u); eta / 2 is no float
        spread = sum_up(
            product_up(UNIT_ROUNDOFF, norm_upper(rounded)), product_up(sqrt_up(rounded.size), ETA)
        )
        rounding = up(spread / ONE_MINUS_U)
    main, main_estimate = residual_of(left, right, correction)
    other = f_v if diagonal_left else f_u
    residual = sum_up(main, product_up(sqrt_up(up(1 + other)), rounding))
    core = np.concatenate([s, np.zeros(count - k)])
    enclosures = scaled_and_widened(core, core, f_u, f_v, residual)
    scale = float(np.linalg.norm(s))
    loose = not bounds.a_priori and (
        _loose(residual, main_estimate, scale)
        or _loose(f_u, fu_estimate, math.sqrt(k))
        or _loose(f_v, fv_estimate, math.sqrt(k))
    )
    return enclosures, loose


def _checked_dense(matrix: np.ndarray, *, stored_width: bool = False) -> np.ndarray:
    """The dense matrix as a float64 array, or with ``stored_width`` as it is where float64 holds it
    exactly (:func:`numerics.certify.float_bounds.at_exact_width`), checked: 2-d, nonempty, finite (else
    CertificationFailed)."""
    values = at_exact_width(matrix) if stored_width else np.asarray(matrix, dtype=np.float64)
    if values.ndim != 2 or 0 in values.shape:
        raise CertificationFailed(f"certify_dense needs a nonempty 2-d matrix; got shape {values.shape}")
    if not np.isfinite(values).all():
        raise CertificationFailed("the matrix has NaN or infinite entries; its singular values are undefined")
    return values


@underflow_accounted
def certify_dense_fast(
    matrix: np.ndarray, decomposition: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
) -> FloatCertificate:
    """Certified enclosures of every singular value of the exact float64 ``matrix`` by float error bounds.

    ``decomposition`` (U, s, V^T) of ``matrix`` defaults to numpy's SVD of the scaled matrix; any other,
    even a wrong one, gives a valid, possibly wider, enclosure (as :func:`~.enclosure.certify_dense`).

    >>> enc = certify_dense_fast(np.diag([3.0, 1.0])).enclosure
    >>> [b.contains(v) for b, v in zip(enc.balls, (3, 1))]
    [True, True]
    """
    values = _checked_dense(matrix)
    scaled, shift = power_of_two_scaled(values)
    if decomposition is None and scaled.shape[0] < scaled.shape[1]:
        # the tall orientation (LAPACK's QR-first path, as numerics.spectra.spectrum): W^T = U' S V'^T gives
        # W = V' S U'^T, an SVD of W like any other (the certificate accepts every decomposition)
        u_t, s, vt_t = np.linalg.svd(scaled.T, full_matrices=False)
        u, vt = np.ascontiguousarray(vt_t.T), np.ascontiguousarray(u_t.T)
    elif decomposition is None:
        u, s, vt = np.linalg.svd(scaled, full_matrices=False)
    else:
        u, s, vt = (np.asarray(x, dtype=np.float64) for x in decomposition)
        s = np.ldexp(s, shift)  # U (2^t s) V^T approximates 2^t W (any s is allowed)
    u, s, vt = sorted_decomposition(values.shape, u, s, vt)
    (lower, upper), loose = _certify_decomposition(
        lambda left, right, small: residual_bound(scaled, left, right, small),
        u,
        s,
        vt,
        min(values.shape),
        bounds=SPLIT_BOUNDS,
    )
    return FloatCertificate(
        SingularValueEnclosure(
            values.shape[0],
            values.shape[1],
            *scaled_bounds(lower, upper, -shift),
            "float64 SVD + Weyl/multiplicative certificate, products bounded in floating point",
        ),
        loose,
    )


@underflow_accounted
def certify_gram_fast(
    matrix: np.ndarray,
    eigen: tuple[np.ndarray, np.ndarray] | None = None,
    *,
    bounds: ProductBounds = SPLIT_BOUNDS,
) -> FloatCertificate:
    """Certified enclosures of every singular value of the exact float64 ``matrix`` from its Gram matrix
    (step 5 of the module docstring): one symmetric error-free split product of the long side and k x k
    work, instead of an SVD with vectors and products of the full size.

    ``eigen`` (l, Q) of the Gram matrix G = T^T T defaults to numpy's ``eigh`` of the scaled one; any
    other, even a wrong one, gives a valid, possibly wider, enclosure. ``bounds``: how G~ and the
    certificate's products are bounded (:data:`SPLIT_BOUNDS` or :data:`APRIORI_BOUNDS`).

    >>> enc = certify_gram_fast(np.array([[3.0, 0.0, 0.0], [0.0, 1.0, 0.0]])).enclosure
    >>> [b.contains(v) for b, v in zip(enc.balls, (3, 1))]
    [True, True]
    """
    values = _checked_dense(matrix, stored_width=True)  # a float32 matrix stays float32: no float64 copy
    scaled, shift = range_scaled(values)
    tall = scaled if scaled.shape[0] >= scaled.shape[1] else scaled.T
    k = tall.shape[1]
    gram, gram_error = bounds.gram(tall)  # gram_error >= ||G - G~||_F
    if eigen is None:
        eigenvalues, q = np.linalg.eigh(gram)
    else:  # l of G is 2^(-2t) times the scaled Gram matrix's (any l is allowed)
        eigenvalues, q = np.ldexp(np.asarray(eigen[0], dtype=np.float64), 2 * shift), eigen[1]
        q = np.asarray(q, dtype=np.float64)
    u, s, vt = sorted_decomposition((k, k), q, eigenvalues, q.T)
    del q

    def residual_of(
        left: np.ndarray, right: np.ndarray, small: tuple[np.ndarray, np.ndarray] | None
    ) -> tuple[float, float]:
        bound, estimate = bounds.residual(gram, left, right, small)
        return sum_up(bound, gram_error), estimate

    (squares_lower, squares_upper), loose = _certify_decomposition(
        residual_of, u, s, vt, k, bounds=bounds, signed_copy=True
    )
    # sigma = sqrt(sigma^2), increasing; square roots are correctly rounded, so stepped outward
    lower = np.maximum(np.nextafter(np.sqrt(squares_lower), -np.inf), 0.0)
    upper = sqrt_up_array(squares_upper)
    conditioned = s[-1] > 0 and s[0] <= GRAM_CONDITION_LIMIT**2 * s[-1]
    return _judged(
        SingularValueEnclosure(
            values.shape[0],
            values.shape[1],
            *scaled_bounds(lower, upper, -shift),
            "float64 eigendecomposition of the Gram matrix + Weyl/multiplicative certificate, "
            f"products bounded in floating point ({'a priori' if bounds.a_priori else 'split'})",
        ),
        loose or not conditioned,
        bounds,
    )


def _qr_certificate(
    factor: np.ndarray, qr: Factorization, shift: int, bounds: ProductBounds
) -> tuple[np.ndarray, float, float, bool]:
    """(R of the scaled factor, bound of ||A' - Q R||_F, bound of ||Q^T Q - I||_F, loose) for A' = 2^t A."""
    q, r = (np.asarray(x, dtype=np.float64) for x in qr)
    if q.shape != factor.shape or r.shape != (factor.shape[1], factor.shape[1]):
        raise CertificationFailed(
            f"QR factors of shapes {q.shape}, {r.shape} do not fit a {factor.shape} factor"
        )
    r = np.ldexp(r, shift)
    if not (np.isfinite(q).all() and np.isfinite(r).all()):
        raise CertificationFailed("the QR factors have NaN or infinite entries; nothing can be certified")
    error, error_estimate = bounds.residual(factor, q, r)
    defect, defect_estimate = bounds.orthogonality(q)
    loose = not bounds.a_priori and (
        _loose(error, error_estimate, float(np.linalg.norm(factor)))
        or _loose(defect, defect_estimate, math.sqrt(q.shape[1]))
    )
    return r, error, defect, loose


@underflow_accounted
def certify_product_fast(
    left: np.ndarray,
    right: np.ndarray,
    factorizations: tuple[Factorization, Factorization] | None = None,
    *,
    bounds: ProductBounds = SPLIT_BOUNDS,
) -> FloatCertificate:
    """Certified enclosures of the singular values of M = left @ right.T by float error bounds (step 4 of
    the module docstring), never forming M. Arguments as :func:`numerics.certify.thin.certify_product`;
    ``bounds`` as :func:`certify_gram_fast` (a priori, the core's stacked product carries gamma_{2d}).

    >>> a = np.array([[2.0, 0.0], [0.0, 1.0], [0.0, 0.0]])
    >>> enc = certify_product_fast(a, a).enclosure   # M = diag(4, 1, 0)
    >>> [b.contains(v) for b, v in zip(enc.balls, (4, 1))], enc.structural_zeros
    ([True, True], 1)
    """
    a, b = checked_factors(left, right)
    (a_scaled, a_shift), (b_scaled, b_shift) = range_scaled(a), range_scaled(b)
    qr_a, qr_b = factorizations if factorizations is not None else (np.linalg.qr(a), np.linalg.qr(b))
    d = a.shape[1]
    r_a, e_a, f_a, loose_a = _qr_certificate(a_scaled, qr_a, a_shift, bounds)
    r_b, e_b, f_b, loose_b = _qr_certificate(b_scaled, qr_b, b_shift, bounds)
    u, s, vt = sorted_decomposition((d, d), *np.linalg.svd(r_a @ r_b.T))
    zeros = np.zeros((d, d))
    core, loose_core = _certify_decomposition(
        lambda x, y, small: bounds.residual(
            zeros,
            np.hstack([r_a, x]),
            np.vstack([r_b.T, -y]),
            None if small is None else (small[0], -small[1]),
        ),
        u,
        s,
        vt,
        d,
        bounds=bounds,
    )
    residual = sum_up(
        product_up(e_a, norm_upper(b_scaled)), product_up(sum_up(norm_upper(a_scaled), e_a), e_b)
    )
    lower, upper = scaled_and_widened(*core, f_a, f_b, residual)
    return _judged(
        SingularValueEnclosure(
            a.shape[0],
            b.shape[0],
            *scaled_bounds(lower, upper, -(a_shift + b_shift)),
            "float64 QR + core SVD, certified with products bounded in floating point "
            f"({'a priori' if bounds.a_priori else 'split'})",
        ),
        loose_a or loose_b or loose_core,
        bounds,
    )


NORM_BLOCK_CELLS = 2**15
"""Entries per block of :func:`norm_21_dense_fast` (256 KB of float64 per temporary: with 2 MB blocks its
temporaries set the high-water mark of ``bound --certify``'s layers)."""


@underflow_accounted
def norm_21_dense_fast(matrix: np.ndarray) -> tuple[float, float]:
    """Floats (lo, hi) around ||W||_{2,1} = sum_j ||W[:, j]||_2 from float column sums with rigorous bounds.

    Squares of float32 numbers are exact in float64 (:func:`numerics.certify.norms.norm_21_dense`);
    otherwise W is scaled by a power of 2 and each square is rounded once: |w^2 - fl(w^2)| <= u w^2 +
    eta / 2, so the column sums move by at most u (sum + radius)(1 + 2u) + m eta, covered by
    :func:`safe_upper`.

    >>> lo, hi = norm_21_dense_fast(np.array([[3.0, 0.0], [4.0, 1.0]]))
    >>> lo <= 6 <= hi
    True
    """
    values = at_exact_width(matrix)
    exact_squares = is_float32_exact(values)
    scaled, shift = (values, 0) if exact_squares else power_of_two_scaled(values)
    # column by column the same sums (the split of nonnegative_column_sums is per column), in blocks of
    # about NORM_BLOCK_CELLS entries: each of the split's temporaries is one block
    width = max(1, NORM_BLOCK_CELLS // max(scaled.shape[0], 1))
    blocks = [
        nonnegative_column_sums(np.square(scaled[:, start : start + width], dtype=np.float64))
        for start in range(0, scaled.shape[1], width)
    ]
    center, radius = (np.concatenate([block[i] for block in blocks], axis=-1) for i in (0, 1))
    if not exact_squares:
        radius = radius + safe_upper(UNIT_ROUNDOFF * (center + radius) + values.shape[0] * ETA, 4)
    return _scalar_scaled(sum_of_square_roots(center, radius), -shift)


def _scalar_scaled(bounds: tuple[float, float], exponent: int) -> tuple[float, float]:
    """(lo 2^e, hi 2^e) rounded outward (:func:`numerics.certify.directed.scaled_bounds`)."""
    lower, upper = scaled_bounds(np.array([bounds[0]]), np.array([bounds[1]]), exponent)
    return float(lower[0]), float(upper[0])


@underflow_accounted
def norm_21_product_fast(left: np.ndarray, right: np.ndarray) -> tuple[float, float]:
    """Floats (lo, hi) around ||A B^T||_{2,1} = sum_j sqrt(b_j^T G b_j), G = A^T A, b_j the rows of B.

    No intermediate is rounded to one float matrix (a rounded G or B G would cost u |b|^T |G| |b|, up to
    u cond(G) relative): G = G_1 + G_2 + E_G (:func:`split_product` of A^T, A; ||E_G||_F <= e_G) and
    B G_1 = Y_1 + Y_2 + E_1 (again; ||E_1||_F <= e_1), B G_2 = fl(B G_2) + E_2 with
    ||E_2||_F <= gamma_d ||B||_F ||G_2||_F + d eta sqrt(cells) (B1, B3). Then
    b_j^T G b_j = sum over Y in (Y_1, Y_2, fl(B G_2)) of y_j . b_j, each enclosed by :func:`row_dots`,
    within (e_1 + e_2) ||b_j|| + e_G ||b_j||^2 (Cauchy-Schwarz); the two additions of the three centers
    add u (|c_1 + c_2| + |center|), and the radii are summed by :func:`safe_upper` (a square root counts
    as one rounding).

    >>> a = np.array([[3.0], [4.0]]); b = np.array([[1.0], [-2.0]])
    >>> lo, hi = norm_21_product_fast(a, b)   # columns (3, 4) and (-6, -8)
    >>> lo <= 15 <= hi
    True
    """
    (a, a_shift), (b, b_shift) = (power_of_two_scaled(np.asarray(x, dtype=np.float64)) for x in (left, right))
    d = a.shape[1]
    g_exact, g_rest, e_g = split_product(a.T, a)
    y_exact, y_rest, y_bound = split_product(b, g_exact)
    y_small = b @ g_rest
    if not np.isfinite(y_small).all():
        raise FastPathUnavailable("a product overflows float64")
    small_bound = sum_up(
        product_up(gamma(d), norm_upper(b), norm_upper(g_rest)), product_up(d * ETA, sqrt_up(y_small.size))
    )
    e_y = sum_up(y_bound, small_bound)
    parts = [row_dots(y, b) for y in (y_exact, y_rest, y_small)]
    partial = parts[0][0] + parts[1][0]
    center = partial + parts[2][0]
    b_squares = np.einsum("jk,jk->j", b, b)
    radius = sum((r for _, r in parts), np.zeros_like(center)) + safe_upper(
        UNIT_ROUNDOFF * (np.abs(partial) + np.abs(center)) + e_g * b_squares + e_y * np.sqrt(b_squares),
        2 * d + 8,
    )
    return _scalar_scaled(sum_of_square_roots(center, radius), -(a_shift + b_shift))


@underflow_accounted
def norm_21_product_apriori(left: np.ndarray, right: np.ndarray) -> tuple[float, float]:
    """Floats (lo, hi) around ||A B^T||_{2,1} from the formed product: C~ = fl(A B^T) with
    ||C~ - A B^T||_F <= e (:func:`numerics.certify.apriori.rounded_product`); by the triangle inequality
    column by column and Cauchy-Schwarz over the n' columns, | ||C~||_{2,1} - ||A B^T||_{2,1} | <=
    sum_j ||c~_j - c_j||_2 <= sqrt(n') e, and ||C~||_{2,1} of the float matrix C~ is enclosed by
    :func:`numerics.certify.apriori.column_norm_sum`. One product of the thin factors instead of three
    split ones; about d u sqrt(n') relative wider than :func:`norm_21_product_fast`.

    >>> a = np.array([[3.0], [4.0]]); b = np.array([[1.0], [-2.0]])
    >>> lo, hi = norm_21_product_apriori(a, b)   # columns (3, 4) and (-6, -8)
    >>> lo <= 15 <= hi
    True
    """
    a, b = (np.asarray(x, dtype=np.float64) for x in (left, right))
    product, bound = rounded_product(a, b.T)
    spread = product_up(sqrt_up(product.shape[1]), bound)
    low, high = column_norm_sum(product)
    return max(down(low - spread), 0.0), up(high + spread)
