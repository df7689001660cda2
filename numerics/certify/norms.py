"""Certified (2,1) norms: the sum of the column 2-norms of W (row-vector orientation, docs: notation).

Each column norm is sqrt(sum_i W_ij^2) with every square and sum taken in arb (exact inputs, rigorous
rounding; provenance ``standard``). For a thin product M = A B^T the column j is A b_j (b_j the j-th row
of B), so ||M e_j||^2 = b_j^T (A^T A) b_j and M is never formed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from numerics.certify.balls import arb_mat_type, arb_matrix, arb_type, flint_context

if TYPE_CHECKING:
    from flint import arb


ROW_BLOCK_CELLS = 2**15
"""Entries per block of rows :func:`is_float32_exact` rounds at a time (its temporaries are one block)."""


def is_float32_exact(matrix: np.ndarray) -> bool:
    """True when every entry is a float32 number (its float64 square is then exact, see norm_21_dense)."""
    if matrix.ndim != 2:
        return is_float32_exact(matrix.reshape(1, -1))
    rows = max(1, ROW_BLOCK_CELLS // max(matrix.shape[1], 1))
    with np.errstate(over="ignore", under="ignore"):
        return all(  # compared as float64, exactly
            np.array_equal(matrix[start : start + rows].astype(np.float32), matrix[start : start + rows])
            for start in range(0, matrix.shape[0], rows)
        )


def norm_21_dense(matrix: np.ndarray) -> arb:
    """A ball containing ||W||_{2,1} = sum_j ||W[:, j]||_2 of the exact float64 matrix W.

    Fast path (exact): a float32 number has a 24-bit significand and exponent >= -149, so its square has
    at most 48 significant bits and exponent >= -298 (and <= 256): the float64 square is exact; the
    column sums of the squares are then one exact-input arb product ones^T (W o W). Otherwise the
    squares are formed in arb entry by entry.

    >>> import numpy as np
    >>> norm_21_dense(np.array([[3.0, 0.0], [4.0, 1.0]])).contains(6)
    True
    """
    arb, arb_mat = arb_type(), arb_mat_type()

    values = np.asarray(matrix, dtype=np.float64)
    with flint_context():
        if is_float32_exact(values):
            sums = (arb_mat([[1.0] * values.shape[0]]) * arb_matrix(values * values)).entries()
        else:
            ball = arb_matrix(values)
            sums = [
                sum((ball[i, j] ** 2 for i in range(values.shape[0])), arb(0)) for j in range(values.shape[1])
            ]
        return sum((s.nonnegative_part().sqrt() for s in sums), arb(0))


def norm_21_product(left: np.ndarray, right: np.ndarray) -> arb:
    """A ball containing ||A B^T||_{2,1} = sum_j sqrt(b_j^T (A^T A) b_j), b_j the rows of B.

    >>> import numpy as np
    >>> a = np.array([[3.0], [4.0]]); b = np.array([[1.0], [-2.0]])
    >>> norm_21_product(a, b).contains(15)   # columns (3, 4) and (-6, -8)
    True
    """
    arb = arb_type()

    with flint_context():
        a, b = arb_matrix(left), arb_matrix(right)
        weighted = b * (a.transpose() * a)
        d = b.ncols()
        total = arb(0)
        for j in range(b.nrows()):
            square = sum((weighted[j, k] * b[j, k] for k in range(d)), arb(0))
            total += square.nonnegative_part().sqrt()
        return total
