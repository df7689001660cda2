"""Numbers the theory's coverage statements compute from weights: SwiGLU on a ball, rotary attention.

- :func:`swiglu_lipschitz`: the Lipschitz constant of x -> W_down (act(W_gate x) * W_up x) on
  ||x||_2 <= b (act = silu for SwiGLU, tanh-GELU or GELU for GeGLU), the formula
  :data:`theory.gated.SWIGLU_LIPSCHITZ` (reconstructed) evaluated on the layer's spectral norms and largest
  row norms, sup |act'| located by :func:`theory.gated.activation_prime_sup`.
- Rotary embeddings make the bilinear form of head h position dependent: logits x Wq_h^T R_t Wk_h x'^T
  with R_t an orthogonal d_h x d_h rotation (t the relative offset). With A = Wq_h^T (N x d_h) and
  B = Wk_h (d_h x N), sigma_i(R_t B) = sigma_i(B), and Horn's multiplicative inequality
  prod_{i<=k} sigma_i(A C) <= prod_{i<=k} sigma_i(A) sigma_i(C) (log-majorisation; Horn 1950, Horn &
  Johnson, Topics in Matrix Analysis, Thm 3.3.4) gives, for every t and every p > 0 (its consequence
  for p-th powers, Thm 3.3.14 there),
  sum_i sigma_i(A R_t B)^p <= sum_i (sigma_i(A) sigma_i(B))^p, sigma_1(A R_t B) <= sigma_1(A) sigma_1(B),
  and rank(A R_t B) <= d_h: :func:`horn_singular_values` is that position-free majorant (standard).
- :func:`rotary_rotation`: R_t in the ``rotate_half`` convention of transformers (dimension i pairs with
  i + d_h/2, frequency theta^(-2i/d_h)), for tests of the position-free bound at sampled offsets.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

import mpmath
import numpy as np

from numerics.formulas.evaluate import evaluate
from numerics.loading.weights import FeedForward, LayerWeights
from theory.errors import InvalidArgument
from theory.gated import SWIGLU_LIPSCHITZ, activation_prime_sup


@functools.cache
def gate_prime_bound(kind: str = "silu") -> mpmath.mpf:
    """sup |act'| (silu: 1.0998..., tanh-GELU: 1.1290...) as an mpmath number >= the decimal
    :func:`theory.gated.activation_prime_sup` (itself rounded up from the located supremum): the division is
    rounded up too."""
    value = activation_prime_sup(kind)
    return mpmath.fdiv(int(value.p), int(value.q), rounding="u")


ROW_BLOCK_ENTRIES = 2**20
""":func:`largest_row_norm` upcasts this many entries (8 MiB of float64) at a time, whole rows."""


def largest_row_norm(matrix: np.ndarray) -> float:
    """max_i ||row_i||_2 = ||W||_{2 -> inf}: the largest |(W x)_i| over ||x||_2 <= 1 (in float64; the
    squares are summed after dividing by max |w_ij|, so entries up to float64's maximum do not overflow).

    A matrix at its stored width (float16: a quarter of float64) is upcast a block of rows at a time
    (:data:`ROW_BLOCK_ENTRIES`), never whole: each row's sum is the same reduction of the same row, so the
    result is that of the whole float64 matrix bit for bit; max |w_ij| = max(max w, -min w) is exact at
    any width."""
    if matrix.size == 0:
        return 0.0
    scale = float(max(np.max(matrix), -np.min(matrix)))
    if scale == 0.0:
        return 0.0
    step = max(1, ROW_BLOCK_ENTRIES // max(1, matrix.shape[1]))
    largest = 0.0
    for start in range(0, matrix.shape[0], step):
        unit = np.asarray(matrix[start : start + step], dtype=np.float64) / scale
        largest = max(largest, float(np.max(np.sum(unit * unit, axis=1))))
    return scale * float(np.sqrt(largest))


def spectral_norm(matrix: np.ndarray) -> float:
    """sigma_1(W) in float64 (a layer read at its stored width is upcast here, one matrix at a time)."""
    return float(np.linalg.norm(np.asarray(matrix, dtype=np.float64), ord=2))


def swiglu_lipschitz(
    layer: LayerWeights | FeedForward,
    radius: float = 1.0,
    gate: str = "silu",
    norms: Mapping[str, float] | None = None,
) -> mpmath.mpf:
    """The Lipschitz constant of the layer's gated block on ||x||_2 <= ``radius`` (module docstring), its
    gate activation ``gate`` one of silu, tanh (tanh-GELU), gelu.

    ``norms`` may hold the spectral norms of ``w_out``, ``w_gate`` and ``w_in`` already computed (by the
    spectra, from the same read); they are computed here otherwise.
    """
    if layer.w_gate is None:
        raise InvalidArgument("swiglu_lipschitz needs a gated feed-forward (a layer with w_gate)")
    known = norms or {}

    def norm(name: str, matrix: np.ndarray) -> float:
        return known[name] if name in known else spectral_norm(matrix)

    return evaluate(
        SWIGLU_LIPSCHITZ,
        C_down=norm("w_out", layer.w_out),
        C_gate=norm("w_gate", layer.w_gate),
        C_up=norm("w_in", layer.w_in),
        r_gate=largest_row_norm(layer.w_gate),
        r_up=largest_row_norm(layer.w_in),
        b=radius,
        s_prime=gate_prime_bound(gate),
    )


def horn_singular_values(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """sigma_i(A) sigma_i(B), descending, A (N x d), B (d x N): it majorises sigma(A R B), R orthogonal."""
    a = np.linalg.svd(np.asarray(left, dtype=np.float64), compute_uv=False)
    b = np.linalg.svd(np.asarray(right, dtype=np.float64), compute_uv=False)
    count = min(a.size, b.size)
    return a[:count] * b[:count]


def horn_top_singular_value(left: np.ndarray, right: np.ndarray) -> mpmath.mpf:
    """sigma_1(A) sigma_1(B) (the first of :func:`horn_singular_values`), multiplied in mpmath: exact to
    float64 rounding of each factor, and finite where the float64 product would overflow."""
    return mpmath.mpf(spectral_norm(left)) * mpmath.mpf(spectral_norm(right))


def horn_schatten_bound(left: np.ndarray, right: np.ndarray, p: float) -> float:
    """sum_i (sigma_i(A) sigma_i(B))^p >= sum_i sigma_i(A R B)^p for every orthogonal R and p > 0."""
    if not p > 0:
        raise InvalidArgument(f"p={p} must be positive")
    values = horn_singular_values(left, right)
    return float(np.sum(values[values > 0] ** p))


def rotary_rotation(offset: float, head_dim: int, theta: float = 10000.0) -> np.ndarray:
    """R_t with q_rot = R_t q in the rotate_half convention: q cos(t f) + rotate_half(q) sin(t f)."""
    half = head_dim // 2
    angles = offset * theta ** (-np.arange(half) * 2.0 / head_dim)
    cos, sin = np.cos(angles), np.sin(angles)
    rotation = np.zeros((head_dim, head_dim))
    index = np.arange(half)
    rotation[index, index] = cos
    rotation[index + half, index + half] = cos
    rotation[index, index + half] = -sin
    rotation[index + half, index] = sin
    return rotation
