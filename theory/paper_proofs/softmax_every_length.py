"""The softmax Jacobian bound for every sequence length T, reduced to one variable by checked steps.

The lemma (:func:`theory.lipschitz.softmax_constant`): for a = softmax(u) in the simplex of R^T and
||h||_inf <= 1, ||J h||_1 <= kappa with J = diag(a) - a a^T. A box prover decides it for T = 2 directly;
for T = 3 it is already undecided after a minute (five variables). For every T the reduction is:

1. J = diag(a) - a a^T entrywise, for every T: sympy differentiates a_i = e^{u_i} / (e^{u_i} + e^{u_j} + R)
   (i != j) and a_i = e^{u_i} / (e^{u_i} + R) (i = j), R the other T - 2 (T - 1) terms, free of u_i, u_j
   (:func:`jacobian_entries_hold`). Hence (J h)_i = a_i (h_i - a.h), and since a_i >= 0,
   ||J h||_1 = sum_{i=1}^T a_i |h_i - a.h| (:func:`jacobian_l1_every_length`, a sympy Sum over symbolic T);
2. that Sum is a nonnegative combination of absolute values of *linear* forms in h: checked structurally
   on the sympy expression for symbolic T (:func:`is_nonnegative_combination_of_absolute_linear_forms`:
   every coefficient is nonnegative by sympy's assumptions, d L / d h_k is free of h for a generic index
   k, and L(0) = 0). So it is convex and positively homogeneous in h (standard);
3. a convex function attains its maximum over the cube ||h||_inf <= 1 (a polytope) at a vertex h in
   {-1, 1}^T (standard: Rockafellar 1970, *Convex Analysis*, Corollary 32.3.2);
4. at the vertex h_i = 2 e_i - 1, e_i in {0, 1}, with q = sum_i a_i e_i (the mass on +1) and
   sum_i a_i = 1, the Sum equals q |2 - 2q| + 2 (1 - q) |q| for every T (:func:`vertex_value_every_length`:
   each summand is split into its two cases e_i = 0, 1 (sympy checks both), the Sum expanded and the sums
   over the two index classes named), which is 4 q (1 - q) on [0, 1] (:func:`vertex_value_matches`, a
   sympy identity under q = Q / (Q + R), Q, R >= 0);
5. the prover decides 4 q (1 - q) <= kappa on q in [0, 1].

Provenance: derived (sympy on symbolic T and the prover), resting on the two standard facts of steps 2
and 3, which are cited here, not re-proved (the Coq export, :mod:`theory.paper_proofs.coq_softmax`, proves the
bound for every length without them).
"""

from __future__ import annotations

import functools

import sympy as sp

T = sp.Symbol("T", integer=True, positive=True)
"""The sequence length (number of tokens), symbolic."""
INDEX, _j, _k = sp.symbols("i j k", integer=True, positive=True)
WEIGHTS = sp.IndexedBase("a", nonnegative=True)
VALUES = sp.IndexedBase("h", real=True)
INDICATOR = sp.IndexedBase("e")
q = sp.Symbol("q", real=True)
"""The softmax mass on the coordinates where the vertex h is +1."""


def jacobian_entries_hold() -> bool:
    """d a_i / d u_j = a_i (delta_ij - a_j) for every T: the generic entries i != j and i = j, with R the sum
    of the other exponentials (free of u_i and u_j), simplify to 0."""
    u_i, u_j = sp.symbols("u_i u_j", real=True)
    rest = sp.Symbol("R", positive=True)
    off_denominator = sp.exp(u_i) + sp.exp(u_j) + rest
    off = sp.exp(u_i) / off_denominator
    a_j = sp.exp(u_j) / off_denominator
    diagonal = sp.exp(u_i) / (sp.exp(u_i) + rest)
    return (
        sp.simplify(sp.diff(off, u_j) + off * a_j) == 0
        and sp.simplify(sp.diff(diagonal, u_i) - diagonal * (1 - diagonal)) == 0
    )


@functools.cache
def jacobian_l1_every_length() -> sp.Expr:
    """||J h||_1 = sum_{i=1}^T |a_i (h_i - a.h)| as a sympy Sum over symbolic T (sympy takes a_i >= 0 out of
    the absolute value)."""
    mean = sp.Sum(WEIGHTS[_j] * VALUES[_j], (_j, 1, T))
    return sp.Sum(sp.Abs(WEIGHTS[INDEX] * (VALUES[INDEX] - mean)), (INDEX, 1, T))


def _is_linear_in(form: sp.Expr, base: sp.IndexedBase) -> bool:
    """form is linear in the entries of ``base``: d form / d base[k] is free of base for a generic index k,
    and form vanishes when every entry is 0."""
    slope = sp.diff(form, base[_k])
    at_zero = form.replace(lambda e: isinstance(e, sp.Indexed) and e.base == base, lambda e: sp.Integer(0))
    return not slope.has(base) and sp.simplify(at_zero.doit()) == 0


def is_nonnegative_combination_of_absolute_linear_forms(expr: sp.Expr, base: sp.IndexedBase) -> bool:
    """expr is built from terms c |L| by sums (Add and sympy Sum), c >= 0 by sympy's assumptions and free of
    ``base``, L linear in ``base``'s entries: a convex, positively homogeneous function of them."""
    if isinstance(expr, sp.Sum):
        return is_nonnegative_combination_of_absolute_linear_forms(expr.function, base)
    if isinstance(expr, sp.Add):
        return all(is_nonnegative_combination_of_absolute_linear_forms(t, base) for t in expr.args)
    factors = sp.Mul.make_args(expr)
    absolute = [f for f in factors if f.has(base)]
    if len(absolute) != 1 or not isinstance(absolute[0], sp.Abs):
        return False
    coefficient = sp.Mul(*(f for f in factors if not f.has(base)))
    return bool(coefficient.is_nonnegative) and _is_linear_in(absolute[0].args[0], base)


def _name_class_sums(expr: sp.Expr) -> sp.Expr:
    """Sum_i a_i e_i -> q (mass on the +1 class) and Sum_i a_i -> 1 (the simplex), whatever the dummy."""

    def name(total: sp.Sum) -> sp.Expr:
        (index, lower, upper) = total.limits[0]
        if len(total.limits) != 1 or (lower, upper) != (1, T):
            return total
        term = total.function.subs(index, _k)
        if term == WEIGHTS[_k] * INDICATOR[_k]:
            return q
        if term == WEIGHTS[_k]:
            return sp.Integer(1)
        return total

    return expr.replace(lambda e: isinstance(e, sp.Sum), name)


@functools.cache
def vertex_value_every_length() -> sp.Expr | None:
    """||J h||_1 at the vertex h_i = 2 e_i - 1 (e_i in {0, 1}) as a function of q, for every T; None when a
    step of the derivation fails (a summand's two cases do not match, or a sum is left unnamed)."""
    vertex = jacobian_l1_every_length().replace(
        lambda e: isinstance(e, sp.Indexed) and e.base == VALUES, lambda e: 2 * INDICATOR[e.indices[0]] - 1
    )
    summand = vertex.function
    (index, _, _) = vertex.limits[0]
    mean = sp.Sum(WEIGHTS[_j] * (2 * INDICATOR[_j] - 1), (_j, 1, T))
    by_class = WEIGHTS[index] * (
        INDICATOR[index] * sp.Abs(1 - mean) + (1 - INDICATOR[index]) * sp.Abs(-1 - mean)
    )
    for case in (0, 1):
        if sp.simplify(summand.subs(INDICATOR[index], case) - by_class.subs(INDICATOR[index], case)) != 0:
            return None
    value = _name_class_sums(sp.factor_terms(sp.expand(sp.Sum(by_class, *vertex.limits))))
    if value.has(sp.Sum, WEIGHTS, INDICATOR):
        return None
    return value


def vertex_value_matches(claimed: sp.Expr) -> bool:
    """The derived vertex value equals ``claimed`` (an expression in q) for every q in [0, 1]: sympy
    simplifies their difference at q = Q / (Q + R), Q, R >= 0 (every q in [0, 1] is such a ratio) to 0."""
    derived = vertex_value_every_length()
    if derived is None:
        return False
    big_q, big_r = sp.symbols("Q R", nonnegative=True)
    ratio = big_q / (big_q + big_r)
    claimed_q = claimed.xreplace({s: q for s in claimed.free_symbols if s.name == "q"})
    return sp.simplify((derived - claimed_q).subs(q, ratio)) == 0
