"""Step 1: Schatten facts (standard). sigma_k <= (S_p/k)^{1/p}; ||.||_{s,q} <= ||.||_{s,p} for p <= q;
S_p -> rank as p -> 0+; the p-triangle inequality S_p(A + B) <= S_p(A) + S_p(B) for 0 < p <= 1.

Sources: Bhatia, *Matrix Analysis* (1997), IV.2 (Schatten norms, monotonicity in p) and the
Rotfel'd / McCarthy inequality (p-triangle for 0 < p <= 1); the tail bound is Markov's inequality on the
sorted singular values. Provenance: standard; the self-checks verify the scalar cores symbolically.
"""

from __future__ import annotations

import functools

import sympy as sp

from theory import _sympy_tools as tools
from theory.lemma import Check, Lemma
from theory.provenance import Provenance, Tagged

p, q = sp.symbols("p q", positive=True)
k = sp.Symbol("k", positive=True, integer=True)
sigma_k, S_p = sp.symbols("sigma_k S_p", positive=True)
SOURCE = "Bhatia, Matrix Analysis (1997) IV.2; Rotfel'd (1969) / McCarthy (1967) for 0 < p <= 1"


def _check_tail() -> tuple[bool, object]:
    # sigma_i = sigma_k (1 + d_i), d_i >= 0 for i <= k: S_p >= sum_{i<=k} sigma_i^p >= k sigma_k^p.
    d = sp.symbols("d1:4", nonnegative=True)
    excess = [sp.expand_log(sp.log((1 + di) ** p), force=True) for di in d]
    each = [(f"log((1+d{i + 1})^p) >= 0", tools.is_nonnegative(e)) for i, e in enumerate(excess)]
    three = sp.Integer(3)
    bound_form = tools.equal(((three * sigma_k**p) / three) ** (1 / p), sigma_k)
    return tools.all_of([*each, ("(k sigma_k^p / k)^{1/p} = sigma_k", bound_form)])


def _check_monotone() -> tuple[bool, object]:
    # normalised so that ||sigma||_p = 1, every sigma_i = 1/(1 + a) <= 1 and sigma^q <= sigma^p for q = p + e.
    a, e = sp.symbols("a e", positive=True)
    log_ratio = sp.expand_log(sp.log((1 / (1 + a)) ** (p + e) / (1 / (1 + a)) ** p), force=True)
    return tools.all_of(
        [("log(sigma^q / sigma^p) <= 0", (bool(sp.simplify(log_ratio).is_nonpositive), log_ratio))]
    )


def _check_rank_limit() -> tuple[bool, object]:
    sigmas = sp.symbols("s1:4", positive=True)
    return tools.limit_equals(sum(x**p for x in sigmas), p, 0, sp.Integer(3))


def _check_p_triangle_core() -> tuple[bool, object]:
    # scalar core at p = 1/2: sqrt(1 + x) <= 1 + sqrt(x), i.e. (1 + sqrt x)^2 - (1 + x) = 2 sqrt x >= 0;
    # at p = 1 it is the triangle inequality with equality for the scalars.
    x = sp.Symbol("x", nonnegative=True)
    half = tools.is_nonnegative(sp.expand((1 + sp.sqrt(x)) ** 2 - (1 + x)))
    one = tools.equal((1 + x) ** 1, 1 + x**1)
    return tools.all_of([("p = 1/2", half), ("p = 1", one)])


@functools.cache
def lemma() -> Lemma:
    """Step 1: Schatten facts."""
    big_s_q = sp.Function("S")
    w = sp.Symbol("W")
    return Lemma(
        step=1,
        name="schatten_facts",
        title="Schatten facts",
        statement=(
            sp.Le(sigma_k, (S_p / k) ** (1 / p), evaluate=False),
            sp.Le(big_s_q(w, q) ** (1 / q), big_s_q(w, p) ** (1 / p), evaluate=False),
            sp.Eq(sp.Limit(big_s_q(w, p), p, 0, "+"), sp.Function("rank")(w), evaluate=False),
            sp.Le(
                big_s_q(sp.Symbol("A") + sp.Symbol("B"), p),
                big_s_q(sp.Symbol("A"), p) + big_s_q(sp.Symbol("B"), p),
            ),
        ),
        assumptions=(
            "singular values sorted sigma_1 >= sigma_2 >= ...; S_p(W) = sum_i sigma_i^p over nonzero sigma_i",
            "monotonicity: 0 < p <= q; p-triangle: 0 < p <= 1",
        ),
        tag=Tagged(Provenance.STANDARD, SOURCE),
        checks=(
            Check("tail_bound", "k sigma_k^p <= S_p (Markov on sorted singular values)", _check_tail),
            Check("monotone_in_p", "l_q <= l_p on the unit l_p sphere for q >= p", _check_monotone),
            Check("rank_limit", "sum of three sigma_i^p -> 3 as p -> 0+", _check_rank_limit),
            Check(
                "p_triangle_scalar_core", "(1 + x)^p <= 1 + x^p at p = 1/2 and p = 1", _check_p_triangle_core
            ),
        ),
        notes="The matrix p-triangle inequality itself is cited (Rotfel'd), only its scalar core is checked.",
    )
