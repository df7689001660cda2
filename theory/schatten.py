"""Step 1: Schatten facts (standard). sigma_k <= (S_p/k)^{1/p}; ||.||_{s,q} <= ||.||_{s,p} for p <= q;
S_p -> rank as p -> 0+; the p-triangle inequality S_p(A + B) <= S_p(A) + S_p(B) for 0 < p <= 1.

Sources: Bhatia, *Matrix Analysis* (1997), IV.2 (Schatten norms, monotonicity in p) and the
Rotfel'd / McCarthy inequality (p-triangle for 0 < p <= 1); the tail bound is Markov's inequality on the
sorted singular values. Provenance: standard; the self-checks verify the scalar cores symbolically.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import sympy as sp

from theory import _sympy_tools as tools
from theory.lemma import Check, Lemma
from theory.provenance import Provenance, Tagged

p, q = sp.symbols("p q", positive=True)
k = sp.Symbol("k", positive=True, integer=True)
sigma_k, S_p = sp.symbols("sigma_k S_p", positive=True)
SOURCE = "Bhatia, Matrix Analysis (1997) IV.2; Rotfel'd (1969) / McCarthy (1967) for 0 < p <= 1"


SCHATTEN = sp.Function("S")
RANK = sp.Function("rank")
W, A, B = sp.symbols("W A B")
SAMPLE = (sp.Integer(3), sp.Integer(1), sp.Rational(1, 2), sp.Rational(1, 2))
"""Singular values of an instance (sorted, exact), used to evaluate the statement parts."""


def _power_sum(values: tuple[sp.Expr, ...], index: sp.Expr) -> sp.Expr:
    return sp.Add(*(v**index for v in values))


def _on_sides(part: sp.Basic, change: Callable[[sp.Expr], sp.Expr]) -> sp.Basic:
    """The relation with ``change`` applied to each side, left unevaluated (so it can be decided)."""
    return type(part)(change(part.lhs), change(part.rhs), evaluate=False)


def _instantiate(part: sp.Basic, sigma: dict[sp.Basic, tuple[sp.Expr, ...]]) -> sp.Basic:
    """The statement part with S(M, q) -> sum_i sigma_i(M)^q and rank(M) -> #sigma_i(M), for the given
    matrices' singular values (A + B: diagonal A and B with nonnegative entries add entrywise)."""
    values = dict(sigma)
    if A in values and B in values:
        values[A + B] = tuple(a + b for a, b in zip(values[A], values[B], strict=True))

    def change(side: sp.Expr) -> sp.Expr:
        replaced = side.replace(SCHATTEN, lambda m, q: _power_sum(values[m], q))
        return replaced.replace(RANK, lambda m: sp.Integer(sum(1 for v in values[m] if v != 0)))

    return _on_sides(part, change)


def _holds(relation: sp.Basic) -> tuple[bool, str]:
    """Decide an instantiated inequality lhs <= rhs (rhs - lhs >= 0) or equation (rhs = lhs)."""
    if isinstance(relation, sp.Eq):
        return tools.equal(sp.sympify(relation.lhs).doit(), relation.rhs)
    return tools.is_nonnegative(relation.rhs - relation.lhs)


def _tail_part(k_value: int, p_value: sp.Expr) -> sp.Basic:
    part = lemma().statement[0]
    values = {k: k_value, p: p_value, S_p: _power_sum(SAMPLE, p_value), sigma_k: SAMPLE[k_value - 1]}
    return _on_sides(part, lambda side: side.subs(values))


def _check_tail() -> tuple[bool, object]:
    cases = [(kk, pp) for kk in (1, 2, 4) for pp in (sp.Rational(1, 2), 1, 2)]
    return tools.all_of((f"k={kk}, p={pp}", _holds(_tail_part(kk, pp))) for kk, pp in cases)


def _control_tail() -> tuple[bool, object]:
    # planted false: the reversed inequality sigma_k >= (S_p/k)^{1/p}, strict on this instance
    part = _tail_part(2, sp.Integer(1))
    return tools.is_nonnegative(part.lhs - part.rhs)


def _monotone_part(p_value: sp.Expr, q_value: sp.Expr) -> sp.Basic:
    at = _on_sides(lemma().statement[1], lambda side: side.subs({p: p_value, q: q_value}))
    return _instantiate(at, {W: SAMPLE})


def _check_monotone() -> tuple[bool, object]:
    cases = ((sp.Rational(1, 2), 1), (1, 2), (sp.Rational(1, 3), sp.Rational(3, 2)))
    return tools.all_of((f"p={pp}, q={qq}", _holds(_monotone_part(pp, qq))) for pp, qq in cases)


def _control_monotone() -> tuple[bool, object]:
    return _holds(_monotone_part(sp.Integer(2), sp.Integer(1)))  # planted false: p > q


def _rank_part(values: tuple[sp.Expr, ...]) -> sp.Basic:
    return _instantiate(lemma().statement[2], {W: values})


def _check_rank_limit() -> tuple[bool, object]:
    sigmas = sp.symbols("s1:4", positive=True)
    return _holds(_rank_part(sigmas))


def _control_rank_limit() -> tuple[bool, object]:
    sigmas = sp.symbols("s1:4", positive=True)
    part = _rank_part(sigmas)
    return tools.equal(sp.sympify(part.lhs).doit(), part.rhs - 1)  # planted false: rank - 1


_DIAGONALS = {A: (sp.Integer(1), sp.Integer(4)), B: (sp.Integer(4), sp.Integer(1))}


def _triangle_at(p_value: sp.Expr) -> sp.Basic:
    at = _on_sides(lemma().statement[3], lambda side: side.subs(p, p_value))
    return _instantiate(at, _DIAGONALS)


def _check_p_triangle() -> tuple[bool, object]:
    cases = (sp.Rational(1, 2), sp.Rational(1, 3), sp.Integer(1))
    return tools.all_of((f"p={pp}", _holds(_triangle_at(pp))) for pp in cases)


def _control_p_triangle() -> tuple[bool, object]:
    # planted false: the p-triangle inequality at p = 2 (outside 0 < p <= 1): 50 > 17 + 17
    return _holds(_triangle_at(sp.Integer(2)))


@functools.cache
def lemma() -> Lemma:
    """Step 1: Schatten facts."""
    big_s_q, w = SCHATTEN, W
    return Lemma(
        step=1,
        name="schatten_facts",
        title="Schatten facts",
        statement=(
            sp.Le(sigma_k, (S_p / k) ** (1 / p), evaluate=False),
            sp.Le(big_s_q(w, q) ** (1 / q), big_s_q(w, p) ** (1 / p), evaluate=False),
            sp.Eq(sp.Limit(big_s_q(w, p), p, 0, "+"), RANK(w), evaluate=False),
            sp.Le(big_s_q(A + B, p), big_s_q(A, p) + big_s_q(B, p), evaluate=False),
        ),
        assumptions=(
            "singular values sorted sigma_1 >= sigma_2 >= ...; S_p(W) = sum_i sigma_i^p over nonzero sigma_i",
            "monotonicity: 0 < p <= q; p-triangle: 0 < p <= 1",
        ),
        tag=Tagged(Provenance.STANDARD, SOURCE),
        checks=(
            Check(
                "tail_bound",
                "statement 1 on sigma = (3, 1, 1/2, 1/2), k in {1, 2, 4}, p in {1/2, 1, 2}",
                _check_tail,
                _control_tail,
            ),
            Check(
                "monotone_in_p",
                "statement 2 on the same spectrum for three (p, q) with p <= q",
                _check_monotone,
                _control_monotone,
            ),
            Check(
                "rank_limit",
                "statement 3 with three positive singular values: the limit is the rank 3",
                _check_rank_limit,
                _control_rank_limit,
            ),
            Check(
                "p_triangle",
                "statement 4 on diagonal A = diag(1, 4), B = diag(4, 1) at p in {1/3, 1/2, 1}",
                _check_p_triangle,
                _control_p_triangle,
            ),
        ),
        notes="Each check evaluates the stated part on an exact instance, with a planted false variant "
        "(reversed, p > q, rank - 1, p = 2) that must be rejected; the general statements are cited.",
    )
