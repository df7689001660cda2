"""Steps 2 and 3: the two covering lemmas the interpolation bound balances (standard).

Step 2, parametric (Candes & Plan 2011, Lemma 3.1, stated for the unit Frobenius sphere; the same proof
covers the ball): {W in R^{d1 x d2} : rank W <= k, ||W||_F <= rho} has an eps-net in Frobenius norm of
size (9 rho / eps)^{(d1 + d2 + 1) k} (eps <= rho; for eps > rho the single point 0 is a net). A rank-k
matrix with spectral norm <= C has ||W||_F <= sqrt(k) C, and max_t ||x_t (W - W')|| <= b ||W - W'||_2 <=
b ||W - W'||_F on inputs with ||x_t|| <= b, so in the sup-over-tokens metric:
log N(eps) <= (d1 + d2 + 1) k log(9 b sqrt(k) C / eps) <= 3 N k log(...), N = max(d1, d2).

Step 3, Maurey (Zhang 2002, Thm 4, l2 case): scalar linear maps x -> w.x with ||w||_2 <= a on M points
with ||x_i|| <= b satisfy log N_inf(eps) <= 36 (a b / eps)^2 log(2 ceil(4 a b / eps + 2) M + 1).
Matrix case (the reduction is derived here by substitution): for R in R^{d1 x d2} acting as x -> x R,
||x R||_2 <= sqrt(d2) max_j |<vec R, x (x) e_j>| and ||x (x) e_j|| = ||x|| <= b, so an eps/sqrt(d2)-cover
of vec R in the sup metric over the M d2 points x_i (x) e_j is an eps-cover of R in the metric
max_i ||x_i (R - R')||_2. The radius is the FROBENIUS norm, ||vec R||_2 = ||R||_F <= a, and

    log N_inf(eps) <= 36 d2 (a b / eps)^2 log(2 ceil(4 sqrt(d2) a b / eps + 2) M d2 + 1),

the log counting the M d2 points of the reduction. The (2,1) norm enters only through
||R||_{2,1} <= sqrt(d2) ||R||_F (Cauchy-Schwarz over the d2 columns): sqrt(d2) ||R||_F is an upper bound
of the (2,1) norm, never the other way round. For a tail R_k = W - W_k: ||R_k||_F^2 = sum_{i>k} sigma_i^2
<= min(d1, d2) sigma_{k+1}^2 and sigma_{k+1} <= min(C, (S/k)^{1/p}) (step 1).
Provenance: standard (cited); the matrix reduction is derived (sympy substitution) and checked here.
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
    """36 (a b / eps)^2 log(2 ceil(4 a b / eps + 2) M + 1): Zhang's scalar l2 covering bound (standard)."""
    return 36 * (a * b / eps) ** 2 * sp.log(2 * sp.ceiling(4 * a * b / eps + 2) * M + 1)


def maurey_matrix_entropy() -> sp.Expr:
    """Zhang's bound for a d1 x d2 matrix of Frobenius norm <= a: the scalar bound at radius eps/sqrt(d2)
    on the M d2 points x_i (x) e_j (derived by substitution, module docstring).

    >>> d2 in maurey_matrix_entropy().free_symbols
    True
    """
    return maurey_entropy().subs({eps: eps / sp.sqrt(d2), M: M * d2}, simultaneous=True)


def _check_head_dimension() -> tuple[bool, object]:
    # d1 + d2 + 1 <= 3 max(d1, d2) in both orders: the smaller dimension 1 + f, the larger 1 + f + e
    # (e, f >= 0), Max evaluated by sympy on the expression itself; the slack is f + 2e >= 0 in each order.
    e, f = sp.symbols("e f", nonnegative=True, integer=True)
    d1, d2 = sp.symbols("d1 d2", positive=True, integer=True)
    slack = 3 * sp.Max(d1, d2) - (d1 + d2 + 1)
    small, large = 1 + f, 1 + f + e
    orders = [slack.subs({d1: small, d2: large}), slack.subs({d1: large, d2: small})]
    decisions = [tools.is_nonnegative(sp.expand(order)) for order in orders]
    return all(ok for ok, _ in decisions), [detail for _, detail in decisions]


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


def _check_norm_21_direction() -> tuple[bool, object]:
    # ||R||_{2,1}^2 = (sum_j c_j)^2 <= d2 sum_j c_j^2 = d2 ||R||_F^2 (column norms c_j, d2 = 3): the slack
    # is the sum of (c_i - c_j)^2; the reverse, d2 ||R||_F^2 <= ||R||_{2,1}^2, fails at c = (1, 0, 0).
    c = sp.symbols("c1:4", nonnegative=True)
    slack = sp.expand(3 * sum(ci**2 for ci in c) - sum(c) ** 2)
    squares = sp.expand(sum((c[i] - c[j]) ** 2 for i in range(3) for j in range(i + 1, 3)))
    reverse_at = {c[0]: 1, c[1]: 0, c[2]: 0}
    reverse_fails = bool(sp.sympify(-slack).subs(reverse_at) < 0)
    return tools.all_of(
        [
            ("d2 ||R||_F^2 - ||R||_{2,1}^2 = sum of squares", tools.equal(slack, squares)),
            ("reverse direction fails at c = (1,0,0)", (reverse_fails, f"{-slack.subs(reverse_at)} < 0")),
        ]
    )


def _check_matrix_reduction() -> tuple[bool, object]:
    # The matrix bound is Zhang's scalar bound at eps/sqrt(d2) on M d2 points: prefactor 36 d2 (ab/eps)^2
    # and the log's point count M d2 (not M).
    bound = maurey_matrix_entropy()
    log_part = sp.log(2 * sp.ceiling(4 * sp.sqrt(d2) * a * b / eps + 2) * M * d2 + 1)
    return tools.equal(bound, 36 * d2 * (a * b / eps) ** 2 * log_part)


def tail_prefactor(sigma: sp.Expr, e: sp.Expr, f: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """(prefactor, bound): the Maurey prefactor of the tail R_k (||R_k||_F <= sqrt(min(d1, d2)) sigma,
    sigma = sigma_{k+1}) at radius eps/2 with d2 = N - e and min(d1, d2) = N - f, and the bound
    144 N^2 sigma^2 (b/eps)^2 it is claimed to stay below for 0 <= e, f <= N (reconstructed); the self-check
    and the prover's statement (theory.paper_proofs.inequalities, tail_prefactor_below_144) use it."""
    prefactor = (maurey_matrix_entropy() / log_factor_of(maurey_matrix_entropy())).subs(
        {eps: eps / 2, a: sp.sqrt(N - f) * sigma}, simultaneous=True
    )
    return prefactor.subs(d2, N - e), 144 * N**2 * sigma**2 * (b / eps) ** 2


def _check_tail_radius() -> tuple[bool, object]:
    # Tail R_k with ||R_k||_F <= sqrt(min(d1, d2)) sigma, sigma = sigma_{k+1}, d2 <= N, min(d1, d2) <= N:
    # at radius eps/2 the prefactor is <= 144 N^2 sigma^2 (b/eps)^2 (d2 = N - e, min = N - f).
    sigma = sp.Symbol("sigma", positive=True)
    e, f = sp.symbols("e f", nonnegative=True)
    prefactor, bound = tail_prefactor(sigma, e, f)
    slack = bound - prefactor
    # slack = 144 sigma^2 b^2/eps^2 (N^2 - (N - e)(N - f)), and N^2 - (N-e)(N-f) = N(e + f) - e f >= 0
    # because e, f <= N; written with N = e + f + g, g >= 0:
    g = sp.Symbol("g", nonnegative=True)
    return tools.is_nonnegative(sp.expand(slack.subs(N, e + f + g)))


def log_factor_of(expr: sp.Expr) -> sp.Expr:
    """The log factor of a product ``prefactor * log(...)`` (the single log in ``expr``)."""
    (log_factor,) = expr.atoms(sp.log)
    return log_factor


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
    """Step 3: Maurey / empirical-method covering of a Frobenius ball of matrices, sup-over-tokens metric."""
    entropy = sp.Function("logN_inf")(eps)
    return Lemma(
        step=3,
        name="maurey_covering",
        title="Maurey covering of Frobenius-bounded linear maps, sup-over-tokens metric",
        statement=(
            sp.Le(entropy, maurey_matrix_entropy(), evaluate=False),
            sp.Le(sp.Symbol("||R||_{2,1}"), sp.sqrt(d2) * sp.Symbol("||R||_F"), evaluate=False),
        ),
        assumptions=(
            "R in R^{d1 x d2} with ||R||_F <= a (Frobenius radius); metric max_i ||x_i (R - R')||_2 over "
            "M input points (all n T tokens) with ||x_i|| <= b",
            "derived reduction to Zhang's scalar l2 case: radius eps/sqrt(d2) on the M d2 points x_i (x) e_j",
            "constants as in Zhang 2002 Thm 4 (log base cancels); we did not re-derive them",
        ),
        tag=Tagged(Provenance.STANDARD, MAUREY_SOURCE + "; matrix reduction derived here (substitution)"),
        checks=(
            Check("vector_norm_reduction", "||v||_2 <= sqrt(d2) ||v||_inf (d2 = 3)", _check_vector_norm),
            Check(
                "norm_21_below_sqrt_d2_frobenius",
                "||R||_{2,1} <= sqrt(d2) ||R||_F (d2 = 3), and the reverse fails",
                _check_norm_21_direction,
            ),
            Check(
                "matrix_reduction_counts_M_d2_points",
                "matrix bound = scalar bound at eps/sqrt(d2) on M d2 points",
                _check_matrix_reduction,
            ),
            Check(
                "tail_radius_and_count",
                "tail radius sqrt(min(d1,d2)) sigma_{k+1}: prefactor <= 144 N^2 sigma^2 (b/eps)^2 at eps/2",
                _check_tail_radius,
            ),
        ),
    )
