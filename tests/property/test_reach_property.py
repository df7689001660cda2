"""The coverage numbers hold on sampled inputs: Horn's bound for rotary bilinear forms, SwiGLU on a ball.

- For random A (N x d), B (d x N) and a rotary rotation R_t at a random offset and base (or a Haar-random
  orthogonal R), the Schatten power sum of A R B never exceeds sum_i (sigma_i(A) sigma_i(B))^p, its
  largest singular value never exceeds sigma_1(A) sigma_1(B), and its rank is at most d.
- A planted false variant (the singular values paired in opposite orders) is violated on an explicit
  example, so the comparison can fail.
- For a random SwiGLU layer and x, y in the ball of radius b, ||f(x) - f(y)|| <= Lip_b ||x - y||.
- sup |silu'| derived by sympy is the maximum of |silu'| on a fine grid (to 1e-9) and not below it.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from numerics.bounds.reach import (
    gate_prime_bound,
    horn_schatten_bound,
    horn_singular_values,
    rotary_rotation,
    swiglu_lipschitz,
)
from numerics.loading.weights import LayerWeights
from numerics.strategies import haar_orthogonal

SLACK = 1e-9
P_VALUES = st.floats(min_value=0.05, max_value=2.0, allow_nan=False)


def schatten(matrix: np.ndarray, p: float) -> float:
    values = np.linalg.svd(matrix, compute_uv=False)
    return float(np.sum(values[values > 1e-12 * max(values[0], 1e-300)] ** p))


@given(
    n=st.integers(4, 24),
    half=st.integers(1, 4),
    seed=st.integers(0, 2**32 - 1),
    offset=st.floats(-4096, 4096, allow_nan=False),
    theta=st.floats(2.0, 1e6),
    p=P_VALUES,
    haar=st.booleans(),
)
def test_horn_bounds_every_rotated_bilinear_form(n, half, seed, offset, theta, p, haar):
    rng = np.random.default_rng(seed)
    d = 2 * half
    a = rng.standard_normal((n, d)) * rng.uniform(0.1, 3.0, size=d)
    b = rng.standard_normal((d, n))
    with np.errstate(under="ignore"):  # sin of a tiny angle is subnormal; harmless here
        rotation = haar_orthogonal(d, rng) if haar else rotary_rotation(offset, d, theta)
        assert np.allclose(rotation.T @ rotation, np.eye(d), atol=1e-12)
        product = a @ rotation @ b
    assert schatten(product, p) <= horn_schatten_bound(a, b, p) * (1 + SLACK)
    assert np.linalg.norm(product, 2) <= horn_singular_values(a, b)[0] * (1 + SLACK)
    assert np.linalg.matrix_rank(product) <= d


def test_the_bound_with_singular_values_paired_the_wrong_way_is_false():
    a = b = np.diag([2.0, 1.0])
    wrong = float(np.sum(np.linalg.svd(a, compute_uv=False) * np.linalg.svd(b, compute_uv=False)[::-1]))
    assert schatten(a @ np.eye(2) @ b, 1.0) == 5.0 > wrong == 4.0
    assert horn_schatten_bound(a, b, 1.0) == 5.0


def _tanh_gelu(g: np.ndarray) -> np.ndarray:
    return g / 2 * (1 + np.tanh(np.sqrt(2 / np.pi) * (g + 0.044715 * g**3)))


GATES = {"silu": lambda g: g / (1 + np.exp(-g)), "tanh": _tanh_gelu}


@given(
    seed=st.integers(0, 2**32 - 1),
    radius=st.floats(0.1, 10.0),
    n=st.integers(2, 12),
    f=st.integers(2, 16),
    kind=st.sampled_from(sorted(GATES)),
)
def test_gated_lipschitz_constant_holds_on_the_ball(seed, radius, n, f, kind):
    """SwiGLU (silu gate) and Gemma's GeGLU (tanh-GELU gate): the mean-value bound holds on sampled pairs."""
    rng = np.random.default_rng(seed)
    gate, up, down = rng.standard_normal((f, n)), rng.standard_normal((f, n)), rng.standard_normal((n, f))
    layer = LayerWeights(*(np.zeros((n, n)),) * 4, w_in=up, w_out=down, w_gate=gate)
    constant = float(swiglu_lipschitz(layer, radius, gate=kind))

    def block(x: np.ndarray) -> np.ndarray:
        return down @ (GATES[kind](gate @ x) * (up @ x))

    for _ in range(20):
        x, y = (v / np.linalg.norm(v) * radius * rng.uniform() for v in rng.standard_normal((2, n)))
        assert np.linalg.norm(block(x) - block(y)) <= constant * np.linalg.norm(x - y) * (1 + SLACK)


def test_derived_sup_of_the_silu_derivative_matches_a_fine_grid():
    u = np.linspace(-20.0, 20.0, 400_001)
    sigmoid = 1 / (1 + np.exp(-u))
    derivative = sigmoid * (1 + u * (1 - sigmoid))
    bound = float(gate_prime_bound())
    assert np.max(np.abs(derivative)) <= bound <= np.max(np.abs(derivative)) + 1e-9
    assert abs(bound - 1.0998393201) < 1e-9


def test_located_sup_of_the_tanh_gelu_derivative_matches_a_fine_grid_and_stays_below_l_phi():
    from theory.gated import gelu_tanh_prime_sup

    u = np.linspace(-20.0, 20.0, 400_001)
    inner = np.sqrt(2 / np.pi) * (u + 0.044715 * u**3)
    derivative = 0.5 * (1 + np.tanh(inner)) + 0.5 * u * (1 - np.tanh(inner) ** 2) * np.sqrt(2 / np.pi) * (
        1 + 3 * 0.044715 * u**2
    )
    located = float(gelu_tanh_prime_sup())
    assert np.max(np.abs(derivative)) <= located + 1e-12 and located - np.max(np.abs(derivative)) < 1e-9
    assert located < 1.13
