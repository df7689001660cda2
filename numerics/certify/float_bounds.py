"""Rigorous bounds on floating-point matrix products: what a certificate needs, at BLAS speed.

Model (provenance ``standard``): IEEE 754 binary64, round to nearest, gradual underflow; a BLAS or numpy
reduction evaluates every entry of a product or sum with +, x and fused multiply-add in *some* order (the
order is not known, so only order-independent bounds are used). With u = 2^-53 and eta = 2^-1074 (the
smallest subnormal), every rounding satisfies fl(z) = z (1 + d) + h, |d| <= u, |h| <= eta / 2, and an
addition or subtraction that underflows is exact (Higham, *Accuracy and Stability of Numerical
Algorithms*, 2nd ed., Thm 2.2 and §2.1).

(B1) Dot products and sums, any order, with or without FMA: each term passes through at most n roundings
     (Higham, Lemma 3.1 and eq. (3.5) with gamma_n = n u / (1 - n u), n u < 1; Rump, "Error estimation
     of floating-point summation and dot product", BIT 52 (2012) for the order independence), and the
     at most n underflow terms eta / 2 are amplified by at most (1 + u)^n <= 2 (n u <= 1/2), so
     |fl(x^T y) - x^T y| <= gamma_n |x|^T |y| + n eta.  For a matrix product: |fl(AB) - AB| <=
     gamma_k |A| |B| + k eta entrywise (Higham eq. (3.13)), k the inner dimension.
(B2) Error-free splitting (Ozaki, Ogita, Oishi, Rump, "Error-free transformations of matrix
     multiplication by using fast routines of matrix multiplication and its applications", Numer.
     Algorithms 59 (2012)): cut each row of A to its leading b bits below 2^{e_i} > max_j |A_ij| and each
     column of B likewise below 2^{g_l}. The cut parts are integers below 2^b times 2^{e_i - b} and
     2^{g_l - b}, so every partial sum of A_hi B_hi, in any order, is an integer below k 2^{2b} <= 2^53
     times 2^{e_i + g_l - 2b}: representable, hence computed exactly, as long as that unit is >= eta and
     k 2^{e_i + g_l} < 2^1023 (checked; otherwise :class:`FastPathUnavailable`). The remainders A - A_hi,
     B - B_hi are exact too (the bits of A below the cut) and 2^b times smaller, so the two products that
     carry them contribute bounds (B1) about 2^-20 of the a priori bound of AB itself.
(B3) Frobenius norms: ||C||_F^2 = sum c_ij^2 is a dot product, so (B1) encloses it; the triangle
     inequality and || |X| |Y| ||_F <= ||X||_F ||Y||_F (Horn & Johnson, *Matrix Analysis*, 2nd ed., §5.6)
     turn entrywise bounds into norm bounds.

Every scalar bound is a float, each operation rounded outward (:mod:`numerics.certify.directed`): no ball
library is needed here.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np

from numerics.certify.directed import (
    ABOVE_ONE_PLUS_U,
    ETA,
    ONE_MINUS_U,
    down,
    product_up,
    sqrt_up,
    sum_up,
    up,
)
from numerics.spectra.gram import UNIT_ROUNDOFF
from theory.errors import CertificationFailed

SIGNIFICAND_BITS = 53


F = TypeVar("F", bound=Callable[..., Any])


def underflow_accounted(function: F) -> F:
    """Run ``function`` with numpy's underflow, overflow and invalid signals off: the bounds account for
    gradual underflow (the eta terms), and every result is checked finite (else FastPathUnavailable)."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with np.errstate(under="ignore", over="ignore", invalid="ignore"):
            return function(*args, **kwargs)

    return cast(F, wrapper)


class FastPathUnavailable(CertificationFailed):
    """The float-bound certificate does not apply to this input (exponent range, non-finite values);
    the caller certifies the matrix in arb instead."""


def gamma(n: int) -> float:
    """A float >= gamma_n = n u / (1 - n u) (Higham, Lemma 3.1; provenance ``standard``), n u <= 1/2: n u and
    1 - n u are exact (multiples of u = 2^-53 in [1/2, 1]), so only the quotient rounds (stepped up).

    >>> from fractions import Fraction
    >>> Fraction(gamma(3)) >= Fraction(3, 2**53) / (1 - Fraction(3, 2**53))
    True
    """
    if not 2 * n * UNIT_ROUNDOFF <= 1:
        raise FastPathUnavailable(f"gamma_{n} needs n u <= 1/2; {n} terms are too many")
    nu = n * UNIT_ROUNDOFF
    return up(nu / (1 - nu))


EXACT_WIDTHS = frozenset(np.dtype(kind) for kind in (np.float16, np.float32, np.float64))
"""Array dtypes whose every value float64 holds exactly (a stored layer's widths)."""


def at_exact_width(values: np.ndarray) -> np.ndarray:
    """``values`` as they are when float64 holds every entry exactly (:data:`EXACT_WIDTHS`), else their
    float64 upcast. The callers form products and sums from it in float64 block by block (or in numpy's
    small casting buffers), so a float32 matrix is certified without a whole float64 copy of it."""
    array = np.asarray(values)
    return array if array.dtype in EXACT_WIDTHS else array.astype(np.float64)


@underflow_accounted
def square_sum(values: np.ndarray) -> tuple[float, float]:
    """Floats (lo, hi) with lo <= sum_i x_i^2 <= hi over every entry of ``values`` ((B1) with x = y, (B3)).

    >>> square_sum(np.array([3.0, 4.0]))[0] <= 25 <= square_sum(np.array([3.0, 4.0]))[1]
    True
    """
    array = at_exact_width(values)
    # the sum is order-independent (B1): a Fortran-ordered view is read as its contiguous transpose
    flat = np.ascontiguousarray(array.T if array.flags.f_contiguous else array).ravel()
    if not flat.size:
        return 0.0, 0.0
    # a narrower array's entries are upcast by einsum in small buffers (exactly), never as a whole copy
    wide = flat.dtype == np.float64
    computed = float(np.dot(flat, flat) if wide else np.einsum("i,i->", flat, flat, dtype=np.float64))
    if not math.isfinite(computed):
        raise FastPathUnavailable("a sum of squares overflows float64")
    g, n = gamma(flat.size), flat.size
    # |computed - s| <= g s + n eta, s >= 0: s in [(computed - n eta) / (1 + g), (computed + n eta) / (1 - g)]
    # (n eta is exact: a multiple of eta below 2^-1022)
    low = down(down(computed - n * ETA) / up(1 + g))
    high = up(up(computed + n * ETA) / down(1 - g))
    return max(low, 0.0), high


def norm_upper(values: np.ndarray) -> float:
    """A float >= ||values||_F (square root of :func:`square_sum`'s upper end, stepped up)."""
    return sqrt_up(square_sum(values)[1])


@underflow_accounted
def split(
    matrix: np.ndarray, axis: int, bits: int, exponent: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(high, low, e): ``matrix`` = high + low exactly, high cut to ``bits`` bits below 2^e (e per row for
    axis=1, per column for axis=0, 2^e > the row's / column's largest |entry|; e = 0 for a zero line).
    ``exponent`` (default: computed so) may be given, e.g. a whole matrix's for a block of its rows:
    any e with 2^e > every |entry| of its line keeps the cut exact.

    The cut is trunc(x 2^{bits - e}) 2^{e - bits} (scalings by powers of 2, exact where they matter: an
    entry below the unit 2^{e - bits} truncates to 0 whatever its scaled rounding); low = x - high
    consists of the bits of x below the cut, representable, so computed exactly (step (B2)).

    >>> high, low, e = split(np.array([[1.75, 0.3]]), axis=1, bits=2)
    >>> high.tolist(), bool((high + low == [[1.75, 0.3]]).all()), e.ravel().tolist()
    ([[1.5, 0.0]], True, [1])
    """
    if exponent is None:
        exponent = line_exponents(matrix, axis)
    shift = bits - exponent
    if shift.size and shift.min() >= -1022 and shift.max() <= 1022:
        # the same correctly rounded values as ldexp (x 2^shift is one real number), by a faster multiply
        up, down = np.ldexp(1.0, shift), np.ldexp(1.0, -shift)
        high = np.multiply(matrix, up)
        np.trunc(high, out=high)
        high *= down
    else:
        high = np.ldexp(np.trunc(np.ldexp(matrix, shift)), -shift)
    return high, matrix - high, exponent


def line_exponents(matrix: np.ndarray, axis: int) -> np.ndarray:
    """The least e with 2^e > |x| for the largest |entry| x of each row (axis=1) or column (axis=0), kept
    as a 1 x n or m x 1 array (0 for a zero line); no temporary of the matrix's size."""
    peak = np.maximum(np.max(matrix, axis=axis, keepdims=True), -np.min(matrix, axis=axis, keepdims=True))
    return np.frexp(peak)[1]


def _exponent_range(exponents: np.ndarray, matrix: np.ndarray, axis: int) -> tuple[int, int]:
    """(min, max) of the exponents over the nonzero lines of ``matrix`` ((0, 0) when all are zero)."""
    nonzero = np.any(matrix != 0, axis=axis, keepdims=True)
    used = exponents[nonzero]
    return (int(used.min()), int(used.max())) if used.size else (0, 0)


@underflow_accounted
def split_product(left: np.ndarray, right: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """(exact, rest, bound) with left @ right = exact + rest_exact, ``exact`` computed without error
    (B2), ``rest`` the float value of left_lo @ right + left_hi @ right_lo (one rounding to combine) and
    ``bound`` >= ||rest - rest_exact||_F (B1, B3). Raises FastPathUnavailable outside (B2)'s range.
    """
    k = left.shape[1]
    bits = (SIGNIFICAND_BITS - math.ceil(math.log2(max(k, 2)))) // 2
    l_hi, l_lo, e = split(left, axis=1, bits=bits)
    r_hi, r_lo, g = split(right, axis=0, bits=bits)
    e_min, e_max = _exponent_range(e, l_hi, axis=1)
    g_min, g_max = _exponent_range(g, r_hi, axis=0)
    if e_min + g_min - 2 * bits < -1074 or e_max + g_max + math.ceil(math.log2(max(k, 2))) >= 1023:
        raise FastPathUnavailable(
            "the entries span too many binary orders for an error-free split product (underflow or overflow)"
        )
    exact = l_hi @ r_hi
    lower_part, upper_part = l_lo @ right, l_hi @ r_lo
    rest = lower_part + upper_part
    if not (np.isfinite(exact).all() and np.isfinite(rest).all()):
        raise FastPathUnavailable("a split product overflows float64")
    # (B1) on both products, u |rest| for their sum, (B3) for the norms
    bound = sum_up(
        product_up(
            gamma(k),
            sum_up(
                product_up(norm_upper(l_lo), norm_upper(right)),
                product_up(norm_upper(l_hi), norm_upper(r_lo)),
            ),
        ),
        product_up(2 * k * ETA, sqrt_up(rest.size)),
        product_up(UNIT_ROUNDOFF, norm_upper(rest)),
    )
    return exact, rest, bound


@underflow_accounted
def gram_split_product(q: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """:func:`split_product` of (Q^T, Q) with symmetric work: Q = H + L (column split), so
    Q^T Q = H^T H + S + S^T - L^T L with S = L^T Q; H^T H is exact (B2) and both H^T H and L^T L are
    symmetric rank-k updates (half the flops of a general product). ``bound`` >= ||rest - rest_exact||_F
    by (B1, B3): 2 gamma_n ||L||_F ||Q||_F + gamma_n ||L||_F^2 + 3 n eta k + u (||S + S^T||_F + ||rest||_F).

    Memory: the rows are taken in blocks of :data:`GRAM_ROWS` with the whole columns' exponents, and the
    blocks' products summed. The exact part stays exact (every partial sum is still an integer below
    n 2^{2b} times the unit of (B2)); in S and L^T L a term passes through at most (rows per block) +
    (blocks - 1) <= n roundings, so (B1) with gamma_n holds as for one product.
    """
    n, k = q.shape
    bits = (SIGNIFICAND_BITS - math.ceil(math.log2(max(n, 2)))) // 2
    e = line_exponents(q, axis=0)
    used = e[np.any(q != 0, axis=0, keepdims=True)]  # the columns whose high part is nonzero
    e_min, e_max = (int(used.min()), int(used.max())) if used.size else (0, 0)
    if 2 * e_min - 2 * bits < -1074 or 2 * e_max + math.ceil(math.log2(max(n, 2))) >= 1023:
        raise FastPathUnavailable(
            "the entries span too many binary orders for an error-free split product (underflow or overflow)"
        )
    exact, cross, low_gram = (np.zeros((k, k)) for _ in range(3))
    low_squares = 0.0
    for start in range(0, n, GRAM_ROWS):
        rows = q[start : start + GRAM_ROWS]
        high, low, _ = split(rows, axis=0, bits=bits, exponent=e)
        exact += high.T @ high  # adding to 0 is exact: the first block's product itself
        cross += low.T @ rows
        low_gram += low.T @ low
        low_squares = sum_up(low_squares, square_sum(low)[1])
        del high, low
    symmetric = cross + cross.T
    del cross
    rest = np.subtract(symmetric, low_gram, out=low_gram)
    if not (np.isfinite(exact).all() and np.isfinite(rest).all()):
        raise FastPathUnavailable("a split product overflows float64")
    low_norm = sqrt_up(low_squares)
    bound = sum_up(
        product_up(
            gamma(n), sum_up(product_up(2.0, low_norm, norm_upper(q)), product_up(low_norm, low_norm))
        ),
        product_up(3 * n * ETA, k),
        product_up(UNIT_ROUNDOFF, sum_up(norm_upper(symmetric), norm_upper(rest))),
    )
    return exact, rest, bound


def residual_of_product(
    target: np.ndarray,
    exact: np.ndarray,
    rest: np.ndarray | None,
    rest_bound: float,
    small: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[float, float]:
    """(bound, estimate) of ||T - (exact + rest_exact) - C D||_F (see :func:`residual_bound`), for float
    matrices exact, rest (None: 0) and ``rest_bound`` >= ||rest - rest_exact||_F; with rest = None,
    ``exact`` may be any float matrix P and ``rest_bound`` >= ||P - L R||_F bounds the product L R it stands
    for (:mod:`numerics.certify.apriori`). ``exact`` is overwritten (every caller's own temporary).
    The bound is a float, each operation stepped up (:mod:`numerics.certify.directed`)."""
    first = np.subtract(target, exact, out=exact)
    residual = first if rest is None else first - rest
    first_norm = norm_upper(first)
    terms = [product_up(UNIT_ROUNDOFF, first_norm), rest_bound]
    if small is not None:
        c, d = small
        second, product = residual, c @ d
        residual = second - product
        k = c.shape[1]
        terms += [
            product_up(UNIT_ROUNDOFF, norm_upper(second)),
            product_up(gamma(k), norm_upper(c), norm_upper(d)),
            product_up(k * ETA, sqrt_up(product.size)),
        ]
    if not np.isfinite(residual).all():
        raise FastPathUnavailable("a residual overflows float64")
    terms.append(product_up(ABOVE_ONE_PLUS_U, first_norm if residual is first else norm_upper(residual)))
    return sum_up(*terms), float(np.linalg.norm(residual))


@underflow_accounted
def residual_bound(
    target: np.ndarray,
    left: np.ndarray,
    right: np.ndarray,
    small: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[float, float]:
    """(bound, estimate): a float >= ||T - L R - C D||_F for the float matrices T, L, R and
    optional ``small`` = (C, D) (exact products), and the float norm of the computed residual it came
    from (for the fallback policy only).

    T - L R = (T - exact) - rest_exact with exact and rest from :func:`split_product`; each subtraction
    is rounded once (|error| <= u |result|), so ||T - L R||_F <= (1 + u) ||R^||_F + u ||T - exact||_F +
    ||rest - rest_exact||_F, R^ the computed residual. A small correction C D (e.g. the exact rounding
    error of a factor, u times smaller) is formed without a split: its (B1) error
    gamma_k ||C||_F ||D||_F + k eta sqrt(cells) (B3) and one more subtraction are added.

    Memory: a right factor wider than :data:`COLUMN_BLOCK` is taken in column blocks b (with the same
    columns of T and D): ||T - L R - C D||_F^2 = sum_b ||T_b - L R_b - C D_b||_F^2, so the square root of the
    sum of the blocks' squared bounds (stepped up) bounds the whole; the temporaries are those of one block.

    >>> q = np.array([[0.6, -0.8], [0.8, 0.6]])
    >>> bound, estimate = residual_bound(np.eye(2), q.T, q)   # ||I - Q^T Q||_F: tiny but rigorous
    >>> 0 <= estimate <= float(bound) < 1e-14
    True
    """
    if right.shape[1] <= COLUMN_BLOCK:
        return residual_of_product(target, *split_product(left, right), small)
    total, squares = 0.0, 0.0
    for start in range(0, right.shape[1], COLUMN_BLOCK):
        columns = slice(start, start + COLUMN_BLOCK)
        part = None if small is None else (small[0], small[1][:, columns])
        bound, estimate = residual_of_product(
            target[:, columns], *split_product(left, right[:, columns]), part
        )
        total = sum_up(total, product_up(bound, bound))
        squares += estimate * estimate
    return sqrt_up(total), math.sqrt(squares)


GRAM_ROWS = 512
"""Rows per block of :func:`gram_split_product` (its temporaries are a few arrays of that many rows)."""
COLUMN_BLOCK = 512
"""Columns per block of :func:`residual_bound` (its temporaries are a few arrays of that many columns)."""
BLOCK_CELLS = 2**18
"""Entries per block of the elementwise :func:`product_error` (2 MB of float64 per temporary)."""


@underflow_accounted
def orthogonality_bound(q: np.ndarray) -> tuple[float, float]:
    """(bound, estimate) of ||Q^T Q - I||_F as :func:`residual_bound` (I, Q^T, Q), by
    :func:`gram_split_product` (the same bound, fewer flops).

    >>> q = np.array([[0.6, -0.8], [0.8, 0.6]])
    >>> bound, estimate = orthogonality_bound(q)
    >>> 0 <= estimate <= float(bound) < 1e-14
    True
    """
    return residual_of_product(np.eye(q.shape[1]), *gram_split_product(q))


SPLITTER = 2.0**27 + 1
"""Veltkamp's splitting constant for binary64 (Dekker 1971)."""


@underflow_accounted
def product_error(left: np.ndarray, right: np.ndarray) -> np.ndarray | None:
    """E with left * right = fl(left * right) + E exactly (elementwise, broadcasting), or None.

    Dekker's TwoProduct with Veltkamp's split (Dekker, "A floating-point technique for extending the
    available precision", Numer. Math. 18 (1971); Ogita, Rump, Oishi, "Accurate sum and dot product",
    SIAM J. Sci. Comput. 26 (2005), Algorithm 3.3 and Theorem 3.4: error-free unless underflow or
    overflow occurs). Returned only where that is certain: every nonzero product has |fl(ab)| >= 2^-968
    with both factors normal (then ulp(a) ulp(b) >= 2^-1074, so no partial product underflows) and both
    factors below 2^995 (the split does not overflow); otherwise None (the caller bounds the rounding).

    >>> from fractions import Fraction
    >>> error = product_error(np.array([0.1]), np.array([0.7]))
    >>> Fraction(0.1) * Fraction(0.7) == Fraction(0.1 * 0.7) + Fraction(float(error[0]))
    True
    """
    a, b = np.broadcast_arrays(left, right)
    rows_per_block = max(1, BLOCK_CELLS // max(a.shape[-1], 1))
    if a.ndim == 2 and a.shape[0] > rows_per_block:  # elementwise: the same result, block of rows by block
        out = np.empty(a.shape)
        for start in range(0, a.shape[0], rows_per_block):
            rows = slice(start, start + rows_per_block)
            block = product_error(a[rows], b[rows])
            if block is None:
                return None
            out[rows] = block
        return out
    product = a * b
    nonzero = (a != 0) & (b != 0)
    tiny = 2.0**-1022
    safe = (
        (np.abs(product) >= 2.0**-968)
        & (np.abs(a) >= tiny)
        & (np.abs(b) >= tiny)
        & (np.abs(a) < 2.0**995)
        & (np.abs(b) < 2.0**995)
    )
    if not (safe | ~nonzero).all():
        return None
    a_hi, a_lo = _veltkamp(a)
    b_hi, b_lo = _veltkamp(b)
    error = a_lo * b_lo - (((product - a_hi * b_hi) - a_lo * b_hi) - a_hi * b_lo)
    return np.where(nonzero, error, 0.0)


def _veltkamp(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(high, low) with values = high + low exactly, each with at most 26 significant bits."""
    scaled = SPLITTER * values
    high = scaled - (scaled - values)
    return high, values - high


@underflow_accounted
def safe_upper(computed: np.ndarray, roundings: int) -> np.ndarray:
    """Floats >= the exact values of nonnegative quantities that were computed from exact nonnegative
    inputs by + and x with at most ``roundings`` roundings per term: 2 computed + 2 roundings eta.

    By (B1) without cancellation, exact <= (computed + K eta) / (1 - gamma_K) <= (computed + K eta)
    (1 + 2 gamma_K) for gamma_K <= 1/2; the float 2 c + 2 K eta is exact up to one rounding, so it is
    >= (c + K eta) 2 (1 - u) - eta / 2 >= (c + K eta)(1 + 2 gamma_K) whenever gamma_K <= 1/5 (checked).
    Used for radii only: a factor 2 on an error term is harmless.
    """
    if not 5 * gamma(roundings) <= 1:
        raise FastPathUnavailable(f"{roundings} roundings are too many for a safe upper bound")
    return 2 * computed + 2 * roundings * ETA


@underflow_accounted
def sum_of_square_roots(center: np.ndarray, radius: np.ndarray) -> tuple[float, float]:
    """Floats (lo, hi) with lo <= sum_j sqrt(q_j) <= hi for all reals q_j >= 0 with
    |q_j - center_j| <= radius_j.

    Vectorised in floats: a subtraction/addition and a square root (correctly rounded; square roots never
    underflow) each change a value by a factor within [1 - u, 1 + u], so sqrt(max(c - r, 0)) >=
    fl(sqrt(fl(c - r))) / (1 + u)^{3/2} and sqrt(c + r) <= fl(sqrt(fl(c + r))) / (1 - u)^{3/2}; the sums of
    these nonnegative terms are enclosed by :func:`nonnegative_column_sums` (error-free split sums: an
    a priori gamma_n bound would cost n u relative, 3e-13 for n = 3072); the final corrections are stepped
    outward (:mod:`numerics.certify.directed`).

    >>> lo, hi = sum_of_square_roots(np.array([9.0, 16.0]), np.zeros(2))
    >>> lo <= 7 <= hi
    True
    """
    if radius.shape != center.shape:
        raise FastPathUnavailable("centers and radii of different shapes")
    terms = np.stack([np.sqrt(np.maximum(center - radius, 0.0)), np.sqrt(center + radius)], axis=1)
    if not np.isfinite(terms).all():
        raise FastPathUnavailable("a sum of square roots overflows float64")
    sums, errors = nonnegative_column_sums(terms)
    # (1 + u)^{3/2} from above and (1 - u)^{3/2} from below (1 +- u are exact)
    grown = product_up(ABOVE_ONE_PLUS_U, sqrt_up(ABOVE_ONE_PLUS_U))
    shrunk = down(ONE_MINUS_U * down(math.sqrt(ONE_MINUS_U)))
    lower = down(down(float(sums[0]) - float(errors[0])) / grown)
    upper = up(up(float(sums[1]) + float(errors[1])) / shrunk)
    return max(lower, 0.0), upper


@underflow_accounted
def row_dots(left: np.ndarray, right: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(center, radius): floats with |sum_k x_jk y_jk - center_j| <= radius_j for every row j of two
    float matrices of the same shape ((B2) split of each row pair, as :func:`split_product` for a
    1 x d times d x 1 product: the high parts' dot is exact in any order; the two remainder dots carry
    (B1): gamma_d (|x_lo| . |y| + |x_hi| . |y_lo|) + 2 d eta; the two additions u (|rest| + |center|)).

    >>> from fractions import Fraction
    >>> center, radius = row_dots(np.array([[0.1, 3.0]]), np.array([[10.0, -1.0]]))
    >>> abs(Fraction(center[0]) - (Fraction(0.1) * 10 - 3)) <= Fraction(radius[0]) < 1e-15
    True
    """
    d = left.shape[1]
    bits = (SIGNIFICAND_BITS - math.ceil(math.log2(max(d, 2)))) // 2
    x_hi, x_lo, e = split(left, axis=1, bits=bits)
    y_hi, y_lo, g = split(right, axis=1, bits=bits)
    used = np.any(x_hi != 0, axis=1, keepdims=True) & np.any(y_hi != 0, axis=1, keepdims=True)
    units = (e + g)[used]
    if units.size and (
        units.min() - 2 * bits < -1074 or units.max() + math.ceil(math.log2(max(d, 2))) >= 1023
    ):
        raise FastPathUnavailable("a row's entries span too many binary orders for an error-free split dot")
    exact = np.einsum("jk,jk->j", x_hi, y_hi)
    rest = np.einsum("jk,jk->j", x_lo, right) + np.einsum("jk,jk->j", x_hi, y_lo)
    center = exact + rest
    if not np.isfinite(center).all():
        raise FastPathUnavailable("a row dot product overflows float64")
    g_d = gamma(d)
    absolute = np.einsum("jk,jk->j", np.abs(x_lo), np.abs(right)) + np.einsum(
        "jk,jk->j", np.abs(x_hi), np.abs(y_lo)
    )
    return center, safe_upper(
        UNIT_ROUNDOFF * (np.abs(rest) + np.abs(center)) + g_d * absolute + 2 * d * ETA, d + 8
    )


@underflow_accounted
def nonnegative_column_sums(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(center, radius): floats with |sum_i x_ij - center_j| <= radius_j for every column j of a
    nonnegative float matrix. (B2) split of the columns: the high parts sum exactly in any order; the low
    parts with (B1) and no cancellation; one rounding adds the two: radius = u |center| + safe gamma
    sum_i low_ij (:func:`safe_upper`).

    >>> center, radius = nonnegative_column_sums(np.array([[1.0, 0.5], [2.0, 0.25]]))
    >>> center.tolist(), bool((radius < 1e-15).all())
    ([3.0, 0.75], True)
    """
    rows = values.shape[0]
    bits = SIGNIFICAND_BITS - math.ceil(math.log2(max(rows, 2)))
    high, low, g = split(values, axis=0, bits=bits)
    g_min, _ = _exponent_range(g, high, axis=0)
    if g_min - bits < -1074:
        raise FastPathUnavailable("a column's entries underflow the error-free split")
    exact, rest = high.sum(axis=0), low.sum(axis=0)
    center = exact + rest
    if not np.isfinite(center).all():
        raise FastPathUnavailable("a column sum overflows float64")
    g_m = gamma(max(rows, 2))
    return center, safe_upper(UNIT_ROUNDOFF * center + g_m * rest, rows + 4)
