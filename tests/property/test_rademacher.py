"""Each covering lemma, through Dudley's integral, dominates a Rademacher complexity measured directly.

The class: scalar maps (x, v) -> x W v^T, i.e. X -> <W, X> on the data X_i = x_i^T v_i, with a Schatten-ball
constraint on W. Its empirical Rademacher complexity has a closed form through the dual norm,

    R_S(F) = (1/n) E_eps sup_W <W, M_eps>,   M_eps = sum_i eps_i X_i,

    sup over ||W||_{s,p} <= R  of <W, M> = R ||M||_{s,q}  (1/p + 1/q = 1)   for 1 <= p <= 2,
                                        = R sigma_1(M)                    for 0 < p <= 1
      (the quasi-ball lies in the nuclear ball and contains its extreme points R u v^T),
    sup over rank W <= k, ||W||_2 <= C  of <W, M> = C (sigma_1 + ... + sigma_k)(M)   (Ky Fan),

estimated here by Monte Carlo over eps. The lemmas' side is the theory's own expressions: Dudley's
bound (``theory.dudley``: 4a + 12/sqrt(n) int_a^1 sqrt(log N(u)) du, minimised over a grid of a) with
the Maurey covering (``theory.covering.maurey_entropy``; vec W in the l2 ball of radius R, since
||W||_F <= ||W||_{s,p} for p <= 2) or, at p = 0, the parametric rank-k covering
(``theory.covering.parametric_entropy``). All values lie in [-1, 1] (R b <= 1) and 0 is in the class.
"""

from __future__ import annotations

import numpy as np
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from numerics.formulas.evaluate import compiled
from theory import covering, dudley
from theory.formula import Formula

SIGN_DRAWS = 2000


def _dudley_bound() -> Formula:
    """Dudley's right-hand side with the entropy integral as a symbol I: 4a + 12 I / sqrt(n)."""
    rhs = dudley.dudley_lemma().statement[0].rhs
    integral = sp.Symbol("I", nonnegative=True)
    expr = rhs.replace(lambda e: isinstance(e, sp.Integral), lambda e: integral)
    return Formula("dudley_rhs", expr, (dudley.a, dudley.n, integral), dudley.dudley_lemma().tag, "Dudley")


_DUDLEY = compiled(_dudley_bound(), "numpy")


def _entropy(expr: sp.Expr, **values: float):
    """u -> the covering lemma's log N(u) with its other symbols fixed (numpy, vectorised over u)."""
    fixed = expr.subs({sp.Symbol(name, **_assumptions(expr, name)): value for name, value in values.items()})
    return compiled(Formula("entropy", fixed, (covering.eps,), dudley.dudley_lemma().tag, "log N"), "numpy")


def _assumptions(expr: sp.Expr, name: str) -> dict:
    (symbol,) = [s for s in expr.free_symbols if s.name == name]
    return symbol.assumptions0


def _dudley_with(entropy, n: int) -> float:
    """min over a log grid of a in [1e-7, 1] of 4a + 12/sqrt(n) int_a^1 sqrt(max(log N(u), 0)) du.

    The integrand decreases in u, so on each panel [u_j, u_{j+1}] it is at most its value at u_j: the
    sum of left values is an upper Riemann sum, so the bound computed is never below the true one.
    """
    grid = np.geomspace(1e-7, 1.0, 4001)
    heights = np.sqrt(np.maximum(np.asarray(entropy(grid), dtype=np.float64), 0.0))
    panels = heights[:-1] * np.diff(grid)  # left values: an upper Riemann sum of a decreasing integrand
    tail_integrals = np.concatenate([np.cumsum(panels[::-1])[::-1], [0.0]])
    return float(np.min(_DUDLEY(grid, n, tail_integrals)))


def _data(seed: int, n: int, d1: int, d2: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """x_i (norm <= 1), v_i (unit) and X_i = x_i^T v_i."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d1))
    x *= rng.uniform(0.3, 1.0, (n, 1)) / np.linalg.norm(x, axis=1, keepdims=True)
    v = rng.standard_normal((n, d2))
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    return x, v, x[:, :, None] * v[:, None, :]


def _sign_sums(data: np.ndarray, copies: int, seed: int) -> np.ndarray:
    """Singular values of M_eps = sum_i eps_i X_i for SIGN_DRAWS Rademacher vectors eps (descending), when
    the sample is each of the J matrices ``data`` repeated ``copies`` times (n = J copies).

    Grouping the sum by distinct point, M_eps = sum_j g_j X_j with g_j a sum of ``copies`` independent
    signs, i.e. g_j = 2 Binomial(copies, 1/2) - copies: exact in distribution, at a cost free of n.
    """
    rng = np.random.default_rng(seed + 1)
    g = 2.0 * rng.binomial(copies, 0.5, size=(SIGN_DRAWS, data.shape[0])) - copies
    return np.linalg.svd(np.einsum("rj,jkl->rkl", g, data), compute_uv=False)


def _schatten_norms(sigma: np.ndarray, q: float) -> np.ndarray:
    """(sum_i sigma_i^q)^{1/q} per row, scaled by sigma_1 so that large q neither overflows nor loses it."""
    top = sigma[:, :1]
    safe = np.where(top > 0, top, 1.0)
    with np.errstate(under="ignore"):
        return top[:, 0] * np.sum((sigma / safe) ** q, axis=1) ** (1 / q)


DIMS = st.integers(1, 6)
SEEDS = st.integers(0, 2**32 - 1)
DISTINCT = st.integers(5, 40)
COPIES = st.integers(10**6, 10**8)
"""n = J copies in [5e6, 4e9]: large n makes Dudley's bound non-trivial (below sup |f| <= 1)."""


@given(SEEDS, DISTINCT, COPIES, DIMS, DIMS, st.floats(0.01, 2.0), st.floats(0.2, 1.0))
def test_maurey_covering_through_dudley_dominates_the_schatten_ball_rademacher_complexity(
    seed, distinct, copies, d1, d2, p, r
):
    x, _, data = _data(seed, distinct, d1, d2)
    n = distinct * copies
    sigma = _sign_sums(data, copies, seed)
    # dual of the Schatten-p (quasi-)ball: sigma_1 for p <= 1, the Schatten-q norm for p > 1
    suprema = r * (sigma[:, 0] if p <= 1 else _schatten_norms(sigma, p / (p - 1)))
    measured = float(np.mean(suprema)) / n
    b = float(np.max(np.linalg.norm(x, axis=1)))  # ||x_i^T v_i||_F = ||x_i||
    bound = _dudley_with(_entropy(covering.maurey_entropy(), a=r, b=b, M=n), n)
    assert measured <= bound < 1.0  # the bound is below the trivial sup |f| <= 1: a real comparison


@given(SEEDS, DISTINCT, COPIES, DIMS, DIMS, st.data(), st.floats(0.2, 1.0))
def test_rank_k_covering_through_dudley_dominates_the_rank_ball_rademacher_complexity(
    seed, distinct, copies, d1, d2, data, c
):
    k = data.draw(st.integers(1, min(d1, d2)))
    x, _, matrices = _data(seed, distinct, d1, d2)
    n = distinct * copies
    measured = float(np.mean(c * np.sum(_sign_sums(matrices, copies, seed)[:, :k], axis=1))) / n
    b = float(np.max(np.linalg.norm(x, axis=1)))
    entropy = _entropy(covering.parametric_entropy(), d1=d1, d2=d2, k=k, b=b, C=c)
    assert measured <= _dudley_with(entropy, n) < 1.0


def test_the_closed_form_is_attained_by_an_extreme_point():
    # the dual-norm formula is a supremum: a rank-one W = R u v^T (in every Schatten ball of radius R)
    # attains R sigma_1(M), and no random W of Schatten-1/2 quasi-norm R exceeds it
    rng = np.random.default_rng(0)
    m = rng.standard_normal((4, 5))
    u, sigma, vt = np.linalg.svd(m)
    assert np.isclose(np.sum(np.outer(u[:, 0], vt[0]) * m), sigma[0])
    for _ in range(200):
        w = rng.standard_normal((4, 5)) * (rng.random((4, 5)) < 0.5)
        s = np.linalg.svd(w, compute_uv=False)
        if s[0] == 0:
            continue
        w /= np.sum(np.sqrt(s)) ** 2  # now ||W||_{s,1/2} = 1
        assert np.sum(w * m) <= sigma[0] * (1 + 1e-12)
