"""Small mistakes the rest of the suite did not see, each planted where only the right code passes.

One test per mistake (benchmarks/mutation.py carries each as a mutant):
- the rotary measure pairs query head h with key/value head h // (H/K), not h % K;
- the SwiGLU reach uses the largest row norm |(W x)_i| <= ||row_i|| ||x||, not the largest column norm;
- num_heads must be a multiple of num_key_value_heads (whole groups of query heads);
- a certified split-product remainder carries gamma_k for an inner dimension k (Higham (3.13)), not
  gamma_{k-1};
- a certified square sum keeps its underflow term n eta (squares below 2^-1074 vanish in float64);
- the lower end of a certified sum of square roots is rounded down (divided by (1 + u)^{3/2});
- Kendall pairs whose gap intervals only touch (|g_i - g_j| = h_i + h_j) are not distinguishable;
- the default bootstrap interval is the 95 % percentile interval, not the 90 % one.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from flint import arb, ctx

from numerics.bounds.reach import gate_prime_bound, largest_row_norm, swiglu_lipschitz
from numerics.certify.float_bounds import UNIT_ROUNDOFF, split, split_product, square_sum, sum_of_square_roots
from numerics.loading.families.llama import rotary_horn_bound
from numerics.loading.weights import LayerWeights, ModelShape, TransformerWeights
from numerics.ranking.statistics import bootstrap, kendall_tau
from theory.errors import InvalidArgument

U = Fraction(UNIT_ROUNDOFF)


def _block(scales: list[float], width: int) -> np.ndarray:
    """Rows of d_h = 2 per scale: scale times two rows of the identity (sigma_1 of block i = scales[i])."""
    rows = []
    for i, scale in enumerate(scales):
        rows.append(scale * np.eye(width)[2 * i : 2 * i + 2])
    return np.vstack(rows)


def test_rotary_measure_pairs_query_head_h_with_key_value_head_h_over_group_size():
    # H = 4 query heads, K = 2 key/value heads (groups {0, 1} -> 0, {2, 3} -> 1), d_h = 2, N = 8
    wq = _block([1.0, 1.0, 10.0, 1.0], 8)  # query head 2 is large
    wk = _block([1.0, 5.0], 8)  # key/value head 1 is large
    eye = np.eye(8)
    layer = LayerWeights(wq, wk, wk.copy(), eye, np.eye(4, 8), np.eye(8, 4), np.eye(4, 8))
    measure = rotary_horn_bound(layer, num_heads=4, kv_heads=2)
    assert measure == pytest.approx(10.0 * 5.0)  # head 2 reads key/value head 2 // 2 = 1; h % K gives 10


def test_swiglu_reach_uses_the_largest_row_norm():
    gate = np.array([[3.0, 4.0], [0.0, 0.0]])  # row norms 5, 0; column norms 3, 4; sigma_1 = 5
    up = np.array([[1.0, 0.0], [1.0, 0.0]])  # row norms 1, 1; column norms sqrt 2, 0; sigma_1 = sqrt 2
    assert largest_row_norm(gate) == 5.0 and largest_row_norm(up) == 1.0
    layer = LayerWeights(*(np.eye(2),) * 4, up, np.eye(2), gate)
    s = float(gate_prime_bound("silu"))
    # ||W_down|| b (s r(W_up) ||W_gate|| + r(W_gate) ||W_up||) with b = 1, by hand
    assert float(swiglu_lipschitz(layer)) == pytest.approx(
        1.0 * (s * 1.0 * 5.0 + 5.0 * math.sqrt(2)), rel=1e-12
    )


def test_num_heads_must_be_a_multiple_of_num_key_value_heads():
    n, heads, kv_heads, dh = 8, 4, 3, 2
    layer = LayerWeights(
        np.eye(n), np.zeros((kv_heads * dh, n)), np.zeros((kv_heads * dh, n)), np.eye(n), np.eye(16, n),
        np.eye(n, 16),
    )  # fmt: skip
    with pytest.raises(InvalidArgument, match="num_heads=4 is not a multiple of num_kv_heads=3"):
        TransformerWeights((layer,), ModelShape(n, heads, kv_heads, 16), "planted")


def _frobenius_lower(matrix: np.ndarray) -> Fraction:
    """A rational <= ||matrix||_F: the exact square sum's float square root, lowered by 2 u."""
    squares = sum(Fraction(float(x)) ** 2 for x in matrix.ravel())
    return Fraction(math.sqrt(float(squares))) * (1 - 2 * U)


def test_split_product_remainder_carries_gamma_of_the_inner_dimension():
    # k = 2 terms per entry whose remainders cancel: rest ~ 0, so u ||rest|| cannot stand in for gamma_k
    left = np.array([[1.0 + 2.0**-30, 1.0 + 2.0**-30]] * 4)
    right = np.array([[1.0 + 2.0**-29] * 4, [-(1.0 + 2.0**-29)] * 4])
    k = left.shape[1]
    bits = (53 - math.ceil(math.log2(k))) // 2
    l_hi, l_lo, _ = split(left, axis=1, bits=bits)
    _, r_lo, _ = split(right, axis=0, bits=bits)
    _, rest, bound = split_product(left, right)
    assert float(np.max(np.abs(rest))) == 0.0
    gamma_k = k * U / (1 - k * U)  # Higham Lemma 3.1, the inner dimension k
    required = gamma_k * (
        _frobenius_lower(l_lo) * _frobenius_lower(right) + _frobenius_lower(l_hi) * _frobenius_lower(r_lo)
    )
    assert Fraction(bound) >= required


def test_certified_square_sum_keeps_its_underflow_term():
    values = np.full(1000, 1e-170)  # every square (1e-340) underflows to 0 in float64
    with np.errstate(under="ignore"):
        assert float(np.dot(values, values)) == 0.0
    exact = sum(Fraction(1e-170) ** 2 for _ in range(1000))
    with ctx.workprec(2000):
        reference = arb(exact.numerator) / arb(exact.denominator)
        assert arb(square_sum(values)[1]) >= reference


def test_lower_end_of_a_certified_sum_of_square_roots_is_rounded_down():
    # fl(sqrt c) exceeds sqrt c by 0.98 u relative (c near the bottom of a binade): the lower end must come
    # down by (1 + u)^{3/2}; raised by (1 - u)^{-3/2} it lands above the exact value despite the sum's slack
    center = 1.0189553356722334
    with ctx.workprec(300):
        exact = arb(Fraction(center).numerator).sqrt() / arb(Fraction(center).denominator).sqrt()
        assert arb(float(np.sqrt(center))) > exact * (1 + arb(0.9) * arb(UNIT_ROUNDOFF))
    low, high = sum_of_square_roots(np.array([center]), np.zeros(1))
    with ctx.workprec(300):
        assert arb(low) <= exact and arb(high) >= exact


def test_pairs_whose_gap_intervals_only_touch_are_not_distinguishable():
    gaps, half_widths = [0.0, 0.5], [0.25, 0.25]  # |0.5 - 0| = 0.25 + 0.25 exactly in binary
    assert kendall_tau([1.0, 2.0], gaps, half_widths) is None
    assert kendall_tau([1.0, 2.0], gaps, [0.25, 0.2499]) == 1.0


def test_default_bootstrap_interval_is_the_95_percent_percentile_interval():
    calls = iter(range(10**6))

    def statistic(_indices: np.ndarray) -> float:  # the k-th call returns k: replicates are 1, ..., 1000
        return float(next(calls))

    interval = bootstrap(statistic, 10, resamples=1000)
    with mpmath.workdps(30):  # linear interpolation of the sorted replicates at 2.5 % and 97.5 %
        low, high = 1 + 0.025 * 999, 1 + 0.975 * 999
    assert interval.low == pytest.approx(low) and interval.high == pytest.approx(high)


def test_silu_prime_constant_is_rounded_up_from_the_supremum():
    from theory.gated import PRIME_SUP_DIGITS, silu_prime_sup

    with mpmath.workdps(40):  # the supremum located independently: mpmath's root of silu'' near 2.4

        def silu(t):
            return t / (1 + mpmath.exp(-t))

        root = mpmath.findroot(lambda x: mpmath.diff(silu, x, 2), 2.4)
        located = mpmath.diff(silu, root)
        constant = silu_prime_sup()
        assert constant.q == 10**PRIME_SUP_DIGITS
        assert mpmath.mpf(constant.p) / constant.q >= located
        assert mpmath.mpf(constant.p) / constant.q - located < mpmath.mpf(10) ** -PRIME_SUP_DIGITS
        assert gate_prime_bound("silu") >= mpmath.mpf(constant.p) / constant.q
