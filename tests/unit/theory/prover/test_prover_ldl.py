"""The search's exact LDL^T (theory/prover/ldl.py) against independent references: the squares it
returns add up to the matrix, and it declines exactly the matrices with a negative principal minor
(positive semidefinite iff every principal minor is >= 0)."""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.helpers import fraction_strategies
from theory.prover import ldl

small = fraction_strategies.fractions(-3, 3, max_denominator=4)


@st.composite
def symmetric(draw: st.DrawFn) -> list[list[Fraction]]:
    """A symmetric rational matrix, half of them A^T A (positive semidefinite, often singular)."""
    size = draw(st.integers(1, 4))
    if draw(st.booleans()):
        rows = draw(st.integers(1, size))
        a = [[draw(small) for _ in range(size)] for _ in range(rows)]
        return [
            [sum((a[r][i] * a[r][j] for r in range(rows)), Fraction(0)) for j in range(size)]
            for i in range(size)
        ]
    entries = [(i, j, draw(small)) for i in range(size) for j in range(i, size)]
    return ldl.gram(size, entries)


def _determinant(m: list[list[Fraction]]) -> Fraction:
    """Leibniz's formula: the sum over permutations of sign * product."""
    total = Fraction(0)
    for perm in itertools.permutations(range(len(m))):
        inversions = sum(perm[i] > perm[j] for i in range(len(perm)) for j in range(i + 1, len(perm)))
        product = Fraction(1)
        for i, j in enumerate(perm):
            product *= m[i][j]
        total += -product if inversions % 2 else product
    return total


def _semidefinite(m: list[list[Fraction]]) -> bool:
    indices = range(len(m))
    subsets = (s for r in indices for s in itertools.combinations(indices, r + 1))
    return all(_determinant([[m[i][j] for j in s] for i in s]) >= 0 for s in subsets)


@settings(max_examples=60, deadline=None)
@given(symmetric())
@example([[Fraction(0), Fraction(1)], [Fraction(1), Fraction(0)]])  # a zero pivot, its row not zero
@example([[Fraction(v) for v in row] for row in ((1, 1, 0), (1, 1, 1), (0, 1, 1))])  # one after a step
def test_the_squares_add_up_to_the_matrix_and_none_means_not_semidefinite(matrix):
    size = len(matrix)
    found = ldl.ldl(matrix)
    assert (found is not None) == _semidefinite(matrix)
    if found is None:
        return
    total = [[Fraction(0)] * size for _ in range(size)]
    for k, pivot, row in found:
        assert pivot > 0 and row[k] == 1 and not any(row[:k])
        for i in range(size):
            for j in range(size):
                total[i][j] += pivot * row[i] * row[j]
    assert total == matrix


def test_gram_halves_the_cross_terms_and_leaves_its_input_alone():
    matrix = ldl.gram(2, [(0, 0, Fraction(1)), (0, 1, Fraction(-2)), (1, 1, Fraction(1))])
    assert matrix == [[1, -1], [-1, 1]]
    copy = [row[:] for row in matrix]
    assert ldl.ldl(matrix) == [(0, Fraction(1), [Fraction(1), Fraction(-1)])]
    assert matrix == copy
