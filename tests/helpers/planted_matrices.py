"""Planted matrices with exactly known singular values, for the certified-enclosure tests.

W = Q1 diag(s) Q2^T with exactly orthogonal factors with dyadic entries (signed, permuted
Sylvester-Hadamard matrices H_n / sqrt(n), n = 4^k), so W is exactly representable in float64 (checked with
Fractions) and its singular values are exactly the dyadic s: containment is decided exactly by arb
comparisons, not up to a tolerance."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from flint import arb


def hadamard_orthogonal(n: int, rng: np.random.Generator) -> np.ndarray:
    """P D H_n / sqrt(n): exactly orthogonal, entries +-1/sqrt(n) (dyadic for n = 4^k)."""
    h = np.array([[1.0]])
    while h.shape[0] < n:
        h = np.block([[h, h], [h, -h]])
    root = round(float(np.sqrt(n)))
    assert root * root == n and root & (root - 1) == 0, "n must be a power of 4"
    signs = rng.choice([-1.0, 1.0], size=n)
    return (signs[:, None] * h[rng.permutation(n)]) / root


def _integers_over(entries: list[float]) -> tuple[list[int], int]:
    """Each float as an exact Fraction, written as integer numerators over their common denominator."""
    fractions = [Fraction(entry) for entry in entries]
    denominator = math.lcm(*(f.denominator for f in fractions))
    return [f.numerator * (denominator // f.denominator) for f in fractions], denominator


def planted(m: int, n: int, values: list[float], seed: int = 0) -> np.ndarray:
    """Q1[:, :k] diag(values) Q2[:, :k]^T with exact dyadic arithmetic, checked exact against the product
    of the factors' exact values (integer numerators over one common denominator each)."""
    rng = np.random.default_rng(seed)
    q1, q2 = hadamard_orthogonal(m, rng), hadamard_orthogonal(n, rng)
    k = len(values)
    w = (q1[:, :k] * np.array(values)) @ q2[:, :k].T
    left, left_denominator = _integers_over(q1[:, :k].ravel().tolist())
    middle, middle_denominator = _integers_over(list(values))
    right, right_denominator = _integers_over(q2[:, :k].ravel().tolist())
    denominator = left_denominator * middle_denominator * right_denominator
    scaled_left = [[left[i * k + t] * middle[t] for t in range(k)] for i in range(m)]
    right_rows = [right[j * k : (j + 1) * k] for j in range(n)]
    exact = [
        [sum(a * b for a, b in zip(row, column, strict=True)) for column in right_rows] for row in scaled_left
    ]
    assert all(Fraction(w[i, j]) == Fraction(exact[i][j], denominator) for i in range(m) for j in range(n)), (
        "planted W is not exact"
    )
    return w


def assert_contains(balls, exact: list[float]) -> None:
    """The i-th ball contains the i-th largest of the exact singular values ``exact``."""
    assert len(balls) == len(exact)
    for i, (ball, value) in enumerate(zip(balls, sorted(exact, reverse=True), strict=True)):
        assert ball.contains(arb(value)), f"sigma_{i + 1} = {value} not in {ball.str(20)}"


VALUES_16 = [
    float(v)
    for v in (
        13.5,
        9.25,
        7.0,
        5.125,
        3.0,
        2.5,
        2.0,
        1.5,
        1.0,
        0.75,
        0.5,
        0.375,
        0.25,
        0.125,
        0.0625,
        2.0**-10,
    )
]
"""Sixteen dyadic singular values from 13.5 down to 2^-10 (condition number 13824)."""
