"""Exact LDL^T of a symmetric rational matrix, the step shared by the search's sums of squares
(:func:`theory.prover.factoring.squares` in the monomials (1, x_1, ..., x_n),
:func:`theory.prover.rewrites.sum_of_squares` in half-monomials): z^T Q z = sum_k d_k (l_k . z)^2 with
d_k > 0, l_kk = 1 and l_kj = 0 for j < k, which is a sum of squares exactly when every pivot d_k is
>= 0. The search proposes the written form; the kernel re-derives the identity.
Provenance: standard (Cholesky/LDL^T by Gaussian elimination on a positive semidefinite matrix).
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

Square = tuple[int, Fraction, list[Fraction]]
"""(k, d_k, l_k): one term d_k (l_k . z)^2, l_k[k] = 1 and l_k[j] = 0 for j < k."""


def gram(size: int, entries: Iterable[tuple[int, int, Fraction]]) -> list[list[Fraction]]:
    """The symmetric matrix Q with z^T Q z = sum c z_i z_j over the entries (i, j, c): c on the diagonal
    when i = j, c/2 at (i, j) and at (j, i) otherwise (entries at the same place add)."""
    matrix = [[Fraction(0)] * size for _ in range(size)]
    for i, j, c in entries:
        if i == j:
            matrix[i][i] += c
        else:
            matrix[i][j] += c / 2
            matrix[j][i] += c / 2
    return matrix


def ldl(matrix: list[list[Fraction]]) -> list[Square] | None:
    """The squares of z^T Q z with a positive pivot, in elimination order; None when Q is not positive
    semidefinite (a negative pivot, or a zero pivot whose remaining row is not zero). ``matrix`` is
    not modified."""
    size = len(matrix)
    rest = [row[:] for row in matrix]
    squares: list[Square] = []
    for k in range(size):
        pivot = rest[k][k]
        if pivot < 0 or (pivot == 0 and any(rest[k][j] for j in range(k + 1, size))):
            return None
        if pivot == 0:
            continue
        row = [Fraction(0)] * k + [rest[k][j] / pivot for j in range(k, size)]
        for i in range(k + 1, size):
            for j in range(k + 1, size):
                rest[i][j] -= pivot * row[i] * row[j]
        squares.append((k, pivot, row))
    return squares
