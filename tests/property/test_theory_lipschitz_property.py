"""Numerical spot checks, independent of the symbolic proofs: softmax, GELU and the rounding lemma."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from theory.proxy import L_PHI_VALUE

floats = st.floats(min_value=-30, max_value=30, allow_nan=False)


def _softmax(v: np.ndarray) -> np.ndarray:
    e = np.exp(v - v.max())
    return e / e.sum()


@given(st.lists(st.tuples(floats, floats), min_size=1, max_size=12))
def test_softmax_l_inf_to_l1_constant_two(pairs):
    u = np.array([a for a, _ in pairs])
    v = np.array([b for _, b in pairs])
    lhs = np.abs(_softmax(u) - _softmax(v)).sum()
    assert lhs <= 2 * np.abs(u - v).max() + 1e-12


@given(st.floats(min_value=-20, max_value=20, allow_nan=False))
def test_gelu_derivative_below_l_phi(x):
    derivative = 0.5 * (1 + math.erf(x / math.sqrt(2))) + x * math.exp(-x * x / 2) / math.sqrt(2 * math.pi)
    assert abs(derivative) <= float(L_PHI_VALUE)


@given(
    st.lists(st.floats(min_value=1e-6, max_value=1e3), min_size=1, max_size=20),
    st.floats(min_value=1e-3, max_value=1e3),
    st.integers(min_value=2, max_value=1024),
    st.integers(min_value=1, max_value=30),
    st.floats(min_value=0, max_value=1),
)
def test_rounding_p_up_costs_at_most_the_stated_factor(sigmas, scale, width, m, position):
    def summand(p: float) -> float:
        tau = [math.sqrt(width) * scale * s for s in sigmas]
        return math.sqrt(width) * sum(t**p for t in tau) ** (1 / (p + 2))

    p_star = 2 * position
    p_up = min(2.0, math.ceil(p_star * m - 1e-12) / m)
    factor = max(1.0, math.sqrt(width) * scale * max(sigmas)) ** ((p_up - p_star) / 2)
    assert summand(p_up) <= summand(p_star) * factor * (1 + 1e-9)
