"""Theorem 4.1 (reconstructed): the parametric-interpolation covering bound, DERIVED by sympy.

Cover a matrix W (spectral norm <= C, Schatten power sum S = sum_i sigma_i^p <= S) as W = W_k + R_k:
the top-k part W_k parametrically (entropy ~ A k, step 2: A ~ N up to a log) and the tail R_k with
Maurey's method (entropy ~ B k^{-2/p}, step 3: sigma_{k+1} <= (S/k)^{1/p}, so
B ~ (N (S)^{1/p} s / eps)^2 up to a log). Balancing the two in k is done here, by the computer:

    f(k) = A k + B k^{-2/p};  f'(k*) = 0;  f(k*) = c_p A^{2/(p+2)} B^{p/(p+2)}

with the exponents of A and B and the constant c_p read off the simplified f(k*) (nothing typed).
Substituting A = N, B = N^2 S^{2/p} (s/eps)^2 gives the reconstructed Theorem 4.1:

    log N(eps) <~ c_p N^{2(p+1)/(p+2)} S^{2/(p+2)} (s/eps)^{2p/(p+2)},

whose square root at eps = 1 is c_p^{1/2} times the exact proxy summand C_p of theory.proxy.
Provenance: derived (the algebra), under the reconstructed reading of Theorem 4.1 (Ledent et al. 2025
style interpolation; Sakai and Imaizumi 2026, Thm 4.1, not read).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import sympy as sp

from theory import _sympy_tools as tools
from theory.lemma import Check, Lemma
from theory.provenance import Derivation, Provenance, Tagged
from theory.proxy import SUMMAND

p = sp.Symbol("p", positive=True)
"""The Schatten index on (0, 2] (positive here: the p = 0 case is the rank bound, handled as a limit)."""
k = sp.Symbol("k", positive=True)
A_head, B_tail = sp.symbols("A B", positive=True)
N, S, s = sp.symbols("N S s", positive=True)
eps = sp.Symbol("epsilon", positive=True)

SOURCE = (
    "Sakai & Imaizumi 2026, Thm 4.1 (reconstructed; not read); Ledent, Alves & Lei 2025 (interpolation idea)"
)


def split_monomial(expr: sp.Expr, bases: tuple[sp.Symbol, ...]) -> tuple[sp.Expr, dict[sp.Symbol, sp.Expr]]:
    """Write a product of powers as coefficient * prod(base^exponent); exponents simplified one by one.

    >>> x, y = sp.symbols("x y", positive=True)
    >>> split_monomial(3 * (2 * x / y) ** p * x, (x, y))
    (3*2**p, {x: p + 1, y: -p})
    """
    expanded = sp.expand_power_base(sp.powdenest(expr, force=True), force=True)
    exponents: dict[sp.Symbol, sp.Expr] = {b: sp.Integer(0) for b in bases}
    coefficient: list[sp.Expr] = []
    for factor in sp.Mul.make_args(expanded):
        base, exponent = factor.as_base_exp()
        if base in exponents:
            exponents[base] += exponent
        else:
            coefficient.append(factor)
    return sp.simplify(sp.Mul(*coefficient)), {b: sp.simplify(e) for b, e in exponents.items()}


@dataclass(frozen=True)
class BalanceDerivation:
    """The result of balancing A k + B k^{-2/p} over k > 0 (every field computed by sympy)."""

    objective: sp.Expr
    k_star: sp.Expr
    second_derivative_at_k_star: sp.Expr
    value: sp.Expr
    exponent_A: sp.Expr
    exponent_B: sp.Expr
    c_p: sp.Expr

    def closed_form(self, head: sp.Expr, tail: sp.Expr) -> sp.Expr:
        """c_p head^{exponent_A} tail^{exponent_B}: the balanced entropy for given A (head) and B (tail)."""
        return self.c_p * head**self.exponent_A * tail**self.exponent_B


@functools.cache
def derive_balance() -> BalanceDerivation:
    """Solve d/dk (A k + B k^{-2/p}) = 0, substitute, and read off exponents and the constant c_p.

    >>> d = derive_balance()
    >>> d.exponent_A, d.exponent_B
    (2/(p + 2), p/(p + 2))
    """
    objective = A_head * k + B_tail * k ** (-2 / p)
    (k_star,) = sp.solve(sp.diff(objective, k), k)
    second = sp.simplify(sp.diff(objective, k, 2).subs(k, k_star))
    value = objective.subs(k, k_star)
    coefficients, exponent_sets = [], []
    for term in sp.Add.make_args(sp.expand(value)):
        coefficient, exponents = split_monomial(term, (A_head, B_tail))
        coefficients.append(coefficient)
        exponent_sets.append(exponents)
    first = exponent_sets[0]
    if any(any(sp.simplify(e[b] - first[b]) != 0 for b in first) for e in exponent_sets[1:]):
        raise ArithmeticError(f"the balanced value {value} is not a monomial in A and B")
    c_p = sp.simplify(sp.Add(*coefficients))
    return BalanceDerivation(objective, k_star, second, value, first[A_head], first[B_tail], c_p)


@functools.cache
def theorem_4_1() -> sp.Expr:
    """The derived entropy bound at the proxy normalisation A = N, B = N^2 S^{2/p} (s/eps)^2 (a monomial)."""
    d = derive_balance()
    raw = d.closed_form(N, N**2 * S ** (2 / p) * (s / eps) ** 2)
    coefficient, exponents = split_monomial(raw, (N, S, s, eps))
    return coefficient * sp.Mul(*(b**e for b, e in exponents.items()))


def theorem_exponents() -> dict[sp.Symbol, sp.Expr]:
    """The exponents of N, S, s and eps in the derived Theorem 4.1 (read off, not typed)."""
    return split_monomial(theorem_4_1(), (N, S, s, eps))[1]


def _summand_squared() -> sp.Expr:
    return SUMMAND.expr.subs(SUMMAND.args[0], p) ** 2


def _check_equals_proxy() -> tuple[bool, object]:
    d = derive_balance()
    at_one = theorem_4_1().subs(eps, 1) / d.c_p
    coefficient_derived, exponents_derived = split_monomial(at_one, (N, S, s))
    coefficient_proxy, exponents_proxy = split_monomial(_summand_squared(), (N, S, s))
    decisions = [
        (f"exponent of {b}", tools.equal(exponents_derived[b], exponents_proxy[b])) for b in (N, S, s)
    ]
    decisions.append(("coefficient", tools.equal(coefficient_derived, coefficient_proxy)))
    return tools.all_of(decisions)


def _check_minimum() -> tuple[bool, object]:
    return tools.is_positive(derive_balance().second_derivative_at_k_star)


def _check_limit_zero() -> tuple[bool, object]:
    rank = sp.Symbol("r", positive=True)
    # S_p -> rank as p -> 0+ (step 1); with S = r the bound must tend to the rank count r N.
    return tools.limit_equals(theorem_4_1().subs(S, rank), p, 0, rank * N)


def _check_at_two() -> tuple[bool, object]:
    d = derive_balance()
    at_two = d.closed_form(A_head, B_tail).subs(p, 2)
    return tools.equal(at_two, 2 * sp.sqrt(A_head * B_tail))


def _check_c_p_range() -> tuple[bool, object]:
    c_p = derive_balance().c_p
    low = tools.limit_equals(c_p, p, 0, sp.Integer(1))
    high = tools.equal(c_p.subs(p, 2), sp.Integer(2))
    slope = sp.simplify(sp.diff(sp.expand_log(sp.log(c_p), force=True), p))
    increasing = tools.sign_on_open_range(slope, p, positive=True)
    return tools.all_of([("c_0+ = 1", low), ("c_2 = 2", high), ("c_p increasing on (0,2)", increasing)])


def _check_entropy_exponent() -> tuple[bool, object]:
    q = -theorem_exponents()[eps]
    below_two = tools.sign_on_open_range(2 - q, p, positive=True)
    at_two = tools.equal(q.subs(p, 2), sp.Integer(1))
    return tools.all_of([("2 - q > 0 on (0,2)", below_two), ("q(2) = 1 < 2", at_two)])


def _check_exponent_monotonicity() -> tuple[bool, object]:
    exponents = theorem_exponents()
    return tools.all_of(
        [
            ("N exponent increasing", tools.sign_on_open_range(sp.diff(exponents[N], p), p, positive=True)),
            ("S exponent decreasing", tools.sign_on_open_range(sp.diff(exponents[S], p), p, positive=False)),
            ("s exponent increasing", tools.sign_on_open_range(sp.diff(exponents[s], p), p, positive=True)),
        ]
    )


def _check_positive_and_homogeneous() -> tuple[bool, object]:
    # W -> c W multiplies S by c^p; covering c W at radius eps is covering W at eps / c.
    c = sp.Symbol("c", positive=True)
    bound = theorem_4_1()
    scaled = bound.subs(S, S * c**p)
    return tools.all_of(
        [
            ("positive", tools.is_positive(bound)),
            ("homogeneous", tools.equal(scaled, bound.subs(eps, eps / c))),
        ]
    )


def _rederive() -> tuple[sp.Basic, ...]:
    derive_balance.cache_clear()
    theorem_4_1.cache_clear()
    return lemma.__wrapped__().statement


@functools.cache
def lemma() -> Lemma:
    """Step 4: the interpolation covering bound, with its derivation as self-checks."""
    d = derive_balance()
    entropy = sp.Function("logN")(eps)
    return Lemma(
        step=4,
        name="interpolation_covering",
        title="Theorem 4.1: parametric interpolation covering bound",
        statement=(
            sp.Eq(sp.Symbol("k^*"), d.k_star, evaluate=False),
            sp.Eq(sp.Function("min_k")(d.objective), d.closed_form(A_head, B_tail), evaluate=False),
            sp.Le(entropy, theorem_4_1(), evaluate=False),
        ),
        assumptions=(
            "W has spectral norm <= C, S = sum_i sigma_i(W)^p, p in (0, 2]; inputs with row norm <= b (in s)",
            "A k: the rank-k parametric head entropy (step 2), B k^{-2/p}: the Maurey tail entropy (step 3)",
            "proxy normalisation A = N, B = N^2 S^{2/p} (s/eps)^2; the common log factor is omitted",
            "p = 0 (rank r): no tail, entropy r N (the p -> 0+ limit)",
        ),
        tag=Tagged(Provenance.DERIVED, SOURCE, Derivation("sp.solve, sp.simplify (balance in k)", _rederive)),
        checks=(
            Check(
                "balance_equals_proxy_squared",
                "derived bound at eps = 1 equals c_p SUMMAND^2",
                _check_equals_proxy,
            ),
            Check("k_star_is_minimum", "f''(k*) > 0", _check_minimum),
            Check("limit_p_to_0_is_rank_bound", "p -> 0+ with S = rank r gives r N", _check_limit_zero),
            Check("p_equals_2_is_frobenius_maurey", "at p = 2 the value is 2 sqrt(A B)", _check_at_two),
            Check("c_p_range", "c_p rises from 1 (p -> 0+) to 2 (p = 2)", _check_c_p_range),
            Check("entropy_exponent_below_2", "2p/(p+2) <= 1 < 2 on (0, 2]", _check_entropy_exponent),
            Check(
                "exponent_monotonicity",
                "N, s exponents increase and S decreases on (0, 2)",
                _check_exponent_monotonicity,
            ),
            Check(
                "positive_homogeneous",
                "positive; scaling W by c = shrinking eps by c",
                _check_positive_and_homogeneous,
            ),
        ),
        notes=f"c_p = {d.c_p}; exponents of N, S, s, eps: {theorem_exponents()}",
        derived={"c_p": d.c_p, "k_star": d.k_star},
    )
