"""Steps 2 and 3: the two covering lemmas the interpolation bound balances (standard).

Step 2, parametric (Candes & Plan 2011, Lemma 3.1, stated for the unit Frobenius sphere; the same proof
covers the ball): {W in R^{d1 x d2} : rank W <= k, ||W||_F <= rho} has an eps-net in Frobenius norm of
size (9 rho / eps)^{(d1 + d2 + 1) k}. A rank-k matrix with spectral norm <= C has ||W||_F <= sqrt(k) C,
and max_t ||x_t (W - W')|| <= b ||W - W'||_2 <= b ||W - W'||_F on inputs with ||x_t|| <= b, so in the
sup-over-tokens metric: log N(eps) <= (d1 + d2 + 1) k log(9 b sqrt(k) C / eps) <= 3 N k log(...).

Step 3, Maurey (Zhang 2002, Thm 4, l2 case): scalar linear maps x -> w.x with ||w||_2 <= a on M points
with ||x_i|| <= b satisfy log N_inf(eps) <= 36 (a b / eps)^2 log(2 ceil(4 a b / eps + 2) M + 1). For a
matrix R acting as x -> x R, ||x R||_2 <= sqrt(d2) max_j |<vec R, x (x) e_j>|, so covering vec(R) on the
M d2 points x_i (x) e_j at radius eps / sqrt(d2) covers R in the sup metric; the radius is
a = sqrt(d2) ||R||_F <= sqrt(d2 min(d1, d2)) sigma_1(R) <= N sigma_1(R) (this is the (2,1)-type radius
the reconstruction uses: ||R||_{2,1} <= sqrt(d2) ||R||_F). For the tail R_k = W - W_k, sigma_1(R_k) =
sigma_{k+1}(W) <= (S/k)^{1/p} (step 1), which gives the Maurey tail 36 (N (S/k)^{1/p} b / eps)^2.
Provenance: standard (cited); the reductions are derived and checked here.
"""

from __future__ import annotations

import functools

import sympy as sp

from theory import _sympy_tools as tools
from theory.lemma import Check, Lemma
from theory.provenance import Provenance, Tagged

d1, d2, k = sp.symbols("d1 d2 k", positive=True, integer=True)
C, b, eps, rho, a, S = sp.symbols("C b epsilon rho a S", positive=True)
p = sp.Symbol("p", positive=True)
M = sp.Symbol("M", positive=True, integer=True)
N = sp.Symbol("N", positive=True)

PARAMETRIC_SOURCE = "Candes & Plan 2011 (IEEE Trans. Inf. Theory 57(4)), Lemma 3.1"
MAUREY_SOURCE = "Zhang 2002 (JMLR 2), Theorem 4 (l2 case); cf. Bartlett, Foster & Telgarsky 2017, Lemma 3.2"


def parametric_entropy() -> sp.Expr:
    """(d1 + d2 + 1) k log(9 b sqrt(k) C / eps): the rank-k head in the sup-over-tokens metric."""
    return (d1 + d2 + 1) * k * sp.log(9 * b * sp.sqrt(k) * C / eps)


def maurey_entropy() -> sp.Expr:
    """36 (a b / eps)^2 log(2 ceil(4 a b / eps + 2) M + 1): Zhang's l2 covering bound."""
    return 36 * (a * b / eps) ** 2 * sp.log(2 * sp.ceiling(4 * a * b / eps + 2) * M + 1)


def _check_head_dimension() -> tuple[bool, object]:
    # d1 + d2 + 1 <= 3 max(d1, d2): with d1 = 1 + f, d2 = d1 + e (e, f >= 0), the slack is f + 2e >= 0.
    e, f = sp.symbols("e f", nonnegative=True, integer=True)
    small = 1 + f
    slack = sp.expand(3 * (small + e) - (small + (small + e) + 1))
    return tools.is_nonnegative(slack)


def _check_frobenius_radius() -> tuple[bool, object]:
    # sum_{i<=k} sigma_i^2 <= k C^2 when every sigma_i <= C: with sigma_i = C / (1 + t_i).
    t = sp.symbols("t1:4", nonnegative=True)
    slack = 3 * C**2 - sum((C / (1 + ti)) ** 2 for ti in t)
    return tools.is_nonnegative(sp.factor(sp.together(slack)))


def _check_vector_norm() -> tuple[bool, object]:
    # ||v||_2^2 <= d2 ||v||_inf^2 for d2 = 3: v_j = V / (1 + t_j), V = max |v_j|.
    t = sp.symbols("t1:4", nonnegative=True)
    big_v = sp.Symbol("V", positive=True)
    slack = 3 * big_v**2 - sum((big_v / (1 + ti)) ** 2 for ti in t)
    return tools.is_nonnegative(sp.factor(sp.together(slack)))


def _check_tail_radius() -> tuple[bool, object]:
    # sqrt(d2 min(d1, d2)) <= max(d1, d2) = N; the tail count at eps/2 is 144 N^2 (S/k)^{2/p} (b/eps)^2.
    e = sp.Symbol("e", nonnegative=True)
    ratio_ok = tools.is_nonnegative(sp.expand(N**2 - (N - e) * N))  # d2 = N = max, d1 = N - e = min
    tail = maurey_entropy().subs({a: N * (S / k) ** (1 / p), eps: eps / 2}) / sp.log(sp.Symbol("Lam"))
    count = sp.simplify(
        tail.subs(sp.log(2 * sp.ceiling(8 * N * (S / k) ** (1 / p) * b / eps + 2) * M + 1), 1)
    )
    expected = 144 * N**2 * (S / k) ** (2 / p) * (b / eps) ** 2 / sp.log(sp.Symbol("Lam"))
    return tools.all_of(
        [("d2 min(d1,d2) <= N^2", ratio_ok), ("count at eps/2", tools.equal(count, expected))]
    )


@functools.cache
def parametric_lemma() -> Lemma:
    """Step 2: the rank-k parametric covering (Candes-Plan)."""
    entropy = sp.Function("logN")(eps)
    return Lemma(
        step=2,
        name="rank_k_parametric_covering",
        title="Parametric covering of rank-k matrices",
        statement=(
            sp.Le(entropy, (d1 + d2 + 1) * k * sp.log(9 * rho / eps), evaluate=False),
            sp.Le(entropy, parametric_entropy(), evaluate=False),
        ),
        assumptions=(
            "first line: Frobenius ball of radius rho, rank <= k, eps <= rho (Candes-Plan)",
            "second line: spectral norm <= C (rho = sqrt(k) C), metric max_t ||x_t (W - W')||, ||x_t|| <= b",
        ),
        tag=Tagged(Provenance.STANDARD, PARAMETRIC_SOURCE),
        checks=(
            Check("head_dimension", "d1 + d2 + 1 <= 3 max(d1, d2)", _check_head_dimension),
            Check(
                "frobenius_radius", "rank-3 with sigma_i <= C has ||W||_F^2 <= 3 C^2", _check_frobenius_radius
            ),
        ),
    )


@functools.cache
def maurey_lemma() -> Lemma:
    """Step 3: Maurey / empirical-method covering in the sup-over-tokens metric (Zhang 2002)."""
    entropy = sp.Function("logN_inf")(eps)
    return Lemma(
        step=3,
        name="maurey_covering",
        title="Maurey covering of (2,1)-bounded linear maps, sup-over-tokens metric",
        statement=(
            sp.Le(entropy, maurey_entropy(), evaluate=False),
            sp.Le(a, sp.sqrt(d2) * sp.Symbol("||R||_F"), evaluate=False),
        ),
        assumptions=(
            "M input points (all n T tokens), ||x_i|| <= b; radius a = sqrt(d2) ||R||_F ((2,1)-type)",
            "the matrix case reduces to Zhang's scalar l2 case on the M d2 points x_i (x) e_j",
            "constants as in Zhang 2002 Thm 4 (log base cancels); we did not re-derive them",
        ),
        tag=Tagged(Provenance.STANDARD, MAUREY_SOURCE),
        checks=(
            Check("vector_norm_reduction", "||v||_2 <= sqrt(d2) ||v||_inf (d2 = 3)", _check_vector_norm),
            Check(
                "tail_radius_and_count",
                "tail radius <= N sigma_{k+1}; count 144 at eps/2",
                _check_tail_radius,
            ),
        ),
    )
