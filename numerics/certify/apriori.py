"""A priori rounding-error bounds of float64 products: one BLAS product per certified quantity.

The cheap counterpart of the error-free split products of :mod:`numerics.certify.float_bounds` (same model,
provenance ``standard``): a product is formed once by BLAS in any summation order and its rounding error is
bounded a priori, never computed.

(A1) For P = fl(L R) with inner dimension k (Higham, *Accuracy and Stability of Numerical Algorithms*,
     2nd ed., eq. (3.13), with the underflow term of (B1) in :mod:`numerics.certify.float_bounds`):
     |P - L R| <= gamma_k |L| |R| + k eta entrywise, so, by || |L| |R| ||_F <= ||L||_F ||R||_F (B3),
     ||P - L R||_F <= gamma_k ||L||_F ||R||_F + k eta sqrt(cells).
(A2) The Gram matrix G = T^T T of an n x k matrix T: ||fl(T^T T) - G||_F <= gamma_n ||T||_F^2 + n eta k
     (A1 with L = T^T, R = T).
(A3) Blocked accumulation (Higham, §3.1, blocked inner products): with the inner dimension cut into blocks
     of b, P = fl(L_1 R_1) and then P = fl(P + fl(L_j R_j)) for j = 2, ..., c, each term passes through at
     most b roundings in its block's product and c - 1 in the additions, so (A1) and (A2) hold with
     gamma_{b + c - 1} and (b + c - 1) eta in place of gamma_k and k eta. With b the power of 2 >= sqrt(k)
     that is about 3 sqrt(k) instead of k: 87 for k = 1536 (18 times tighter), the same flops.

The bounds are about k u relative to ||L||_F ||R||_F instead of about u: enclosures built on them are
wider (about 1e-13 to 1e-10 relative on the feed-forward matrices of a BERT-base layer) but cost one
product where the split costs three. Frobenius norms come from
:func:`numerics.certify.float_bounds.norm_upper`; every scalar is a float with each operation rounded
outward (:mod:`numerics.certify.directed`), so no ball library is imported.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from numerics.certify.directed import ABOVE_ONE_PLUS_U, ONE_MINUS_U, down, product_up, sqrt_up, sum_up, up
from numerics.certify.float_bounds import (
    ETA,
    FastPathUnavailable,
    gamma,
    norm_upper,
    residual_of_product,
    underflow_accounted,
)
from numerics.spectra.blas import upper_gram


@underflow_accounted
def rounded_product(left: np.ndarray, right: np.ndarray) -> tuple[np.ndarray, float]:
    """(P, bound): P = fl(left @ right) and a float >= ||P - left @ right||_F (A1).

    >>> from fractions import Fraction
    >>> p, bound = rounded_product(np.array([[0.1, 0.2]]), np.array([[0.3], [0.7]]))
    >>> exact = Fraction(0.1) * Fraction(0.3) + Fraction(0.2) * Fraction(0.7)
    >>> abs(Fraction(p[0, 0]) - exact) <= Fraction(bound)
    True
    """
    product, roundings = _accumulated(left.shape[1], lambda inner: left[:, inner] @ right[inner])
    if not np.isfinite(product).all():
        raise FastPathUnavailable("a product overflows float64")
    bound = sum_up(
        product_up(gamma(roundings), norm_upper(left), norm_upper(right)),
        product_up(roundings * ETA, sqrt_up(product.size)),
    )
    return product, bound


@underflow_accounted
def rounded_gram(tall: np.ndarray) -> tuple[np.ndarray, float]:
    """(G~, bound): G~ = fl(T^T T) (numpy's symmetric product) and a float >= ||G~ - T^T T||_F (A2).

    >>> g, bound = rounded_gram(np.array([[0.1], [0.3]]))
    >>> from fractions import Fraction
    >>> abs(Fraction(g[0, 0]) - (Fraction(0.1) ** 2 + Fraction(0.3) ** 2)) <= Fraction(bound)
    True
    """
    n, k = tall.shape
    blocks = _GramBlocks(tall)
    gram, roundings = _accumulated(n, blocks)
    blocks.mirrored(gram)
    if not np.isfinite(gram).all():
        raise FastPathUnavailable("a Gram matrix overflows float64")
    squares = norm_upper(tall)
    return gram, sum_up(product_up(gamma(roundings), squares, squares), product_up(roundings * ETA, k))


class _GramBlocks:
    """rows -> B^T B for the float64 block B of T's ``rows`` (a narrower T upcast one block at a time,
    exactly), for :func:`_accumulated`, each product a new uninitialised array as numpy's ``B.T @ B`` is (a
    reused one left certify's BERT-base peak resident set 10 MB higher in 3 of 5 runs: the heap's layout).

    For k >= :data:`UPPER_ONLY_FROM`, where :func:`numerics.spectra.blas.upper_gram` applies, only a
    block's upper triangle is formed (the numbers numpy's ``B.T @ B`` has there: the same BLAS call),
    elsewhere numpy's whole product; then :meth:`mirrored` copies the sum's upper triangle into its lower
    one, once, overwriting whatever the lower triangles held (an overflow or NaN there is never read: the
    sum's finiteness is checked after the mirror). Each entry (i, j), i > j, of the sum is then the
    computed sum of the block products' entries (j, i): a float approximation of G_ji = G_ij with the
    bound (A3) of that entry, so the bounds of :func:`rounded_gram` hold as before (and numpy's symmetric
    products, mirrored by numpy itself, add up to the same numbers), without numpy's mirror copy of
    every block's product."""

    def __init__(self, tall: np.ndarray) -> None:
        self.tall = tall
        self.upper = tall.shape[1] >= UPPER_ONLY_FROM

    def __call__(self, rows: slice) -> np.ndarray:
        block = np.asarray(self.tall[rows], dtype=np.float64)
        if not self.upper:
            return block.T @ block
        out = np.empty((block.shape[1],) * 2)  # its strict lower triangle: any bits until mirrored
        return out if upper_gram(block, out) else np.matmul(block.T, block, out=out)

    def mirrored(self, gram: np.ndarray) -> None:
        """Copy ``gram``'s strict upper triangle into its strict lower one (where only upper triangles may
        have been formed), :data:`MIRROR_ROWS` rows at a time (temporaries of one band, not of the
        triangle)."""
        if not self.upper:
            return
        for start in range(0, gram.shape[0], MIRROR_ROWS):
            band = gram[start : start + MIRROR_ROWS]
            band[:, :start] = gram[:start, start : start + MIRROR_ROWS].T
            square = band[:, start : start + MIRROR_ROWS]
            lower = np.tril_indices(square.shape[0], -1)
            square[lower] = square.T[lower]


MIRROR_ROWS = 64
"""Rows per band of :meth:`_GramBlocks.mirrored`."""
UPPER_ONLY_FROM = 128
"""Gram matrices from this order on take :func:`numerics.spectra.blas.upper_gram` (below it numpy's mirror
copy is cheaper than the ctypes call and the final mirroring)."""


def _accumulated(inner: int, block_product: Callable[[slice], np.ndarray]) -> tuple[np.ndarray, int]:
    """(P, r): the sum of ``block_product(s)`` over the blocks s of range(inner) (A3), accumulated in place,
    and r, the most roundings a term passes through (gamma_r, r eta bound the result as (A1))."""
    block = max(32, 1 << math.ceil(math.log2(max(math.isqrt(inner - 1) + 1, 1)))) if inner > 0 else 1
    total = block_product(slice(0, block))
    for start in range(block, inner, block):
        total += block_product(slice(start, start + block))
    blocks = max(1, -(-inner // block))
    return total, min(block, max(inner, 1)) + blocks - 1


def apriori_residual(
    target: np.ndarray,
    left: np.ndarray,
    right: np.ndarray,
    small: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[float, float]:
    """(bound, estimate) of ||T - L R - C D||_F as :func:`numerics.certify.float_bounds.residual_bound`,
    with L R formed once and bounded by (A1) instead of split."""
    product, bound = rounded_product(left, right)
    return residual_of_product(target, product, None, bound, small)


def apriori_orthogonality(q: np.ndarray) -> tuple[float, float]:
    """(bound, estimate) of ||Q^T Q - I||_F from fl(Q^T Q) and (A2).

    >>> q = np.array([[0.6, -0.8], [0.8, 0.6]])
    >>> bound, estimate = apriori_orthogonality(q)
    >>> 0 <= estimate <= bound < 1e-14
    True
    """
    gram, bound = rounded_gram(q)
    return residual_of_product(np.eye(q.shape[1]), gram, None, bound)


@underflow_accounted
def column_norm_sum(matrix: np.ndarray) -> tuple[float, float]:
    """Floats (lo, hi) around ||C||_{2,1} = sum_j ||c_j||_2 of the exact float matrix C (n x n'), from float
    sums of squares, square roots and their sum, each bounded a priori ((B1) without cancellation):

    s_j = fl(sum_i fl(c_ij^2)) has n + 1 roundings per term, so (1 - g) ||c_j||^2 - (n + 1) eta <= s_j <=
    (1 + g) ||c_j||^2 + (n + 1) eta with g = gamma_{n+1}; with sqrt(a +- b) within sqrt(a) +- sqrt(b),
    sum_j ||c_j|| lies within [(R - z) / sqrt(1 + g), (R + z) / sqrt(1 - g)], z = n' sqrt((n + 1) eta),
    R = sum_j sqrt(s_j). The computed T = fl(sum_j fl(sqrt(s_j))) (n' roundings of a nonnegative sum,
    one of each root) has T / ((1 + u)(1 + g')) <= R <= T / ((1 - u)(1 - g')), g' = gamma_{n'}. Each of
    these operations is stepped outward (:mod:`numerics.certify.directed`).

    >>> lo, hi = column_norm_sum(np.array([[3.0, 0.0], [4.0, 1.0]]))
    >>> lo <= 6 <= hi
    True
    """
    n, columns = matrix.shape
    total = float(np.sqrt(np.einsum("ij,ij->j", matrix, matrix)).sum())
    if not np.isfinite(total):
        raise FastPathUnavailable("a (2,1) norm overflows float64")
    g, g_sum = gamma(n + 1), gamma(max(columns, 1))
    floor = product_up(columns, sqrt_up((n + 1) * ETA))  # (n + 1) eta is exact
    low = down(down(down(total / product_up(ABOVE_ONE_PLUS_U, up(1 + g_sum))) - floor) / sqrt_up(up(1 + g)))
    high = up(up(up(total / down(ONE_MINUS_U * down(1 - g_sum))) + floor) / down(math.sqrt(down(1 - g))))
    return max(low, 0.0), high
