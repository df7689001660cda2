"""MATRIX_TERM dominates the head + tail entropy it summarises, for every integer rank split k."""

from __future__ import annotations

import mpmath
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from theory.assembled import MATRIX_TERM

_TERM = sp.lambdify(MATRIX_TERM.args, MATRIX_TERM.expr, "mpmath")


@given(
    p=st.integers(min_value=1, max_value=100).map(lambda i: mpmath.mpf(i) / 50),
    big_s=st.floats(min_value=1e-3, max_value=1e4),
    scale=st.floats(min_value=1e-3, max_value=1e6),
    n_dim=st.integers(min_value=2, max_value=400),
)
def test_matrix_term_dominates_best_integer_split(p, big_s, scale, n_dim):
    def count(k: int) -> mpmath.mpf:
        tail = (
            0 if k >= n_dim else 144 * n_dim**2 * (mpmath.mpf(big_s) / k) ** (2 / p) * mpmath.mpf(scale) ** 2
        )
        return 3 * n_dim * k + tail

    best = min(count(k) for k in range(1, n_dim + 1))
    assert best <= _TERM(p, big_s, scale, n_dim) * (1 + mpmath.mpf("1e-12"))
