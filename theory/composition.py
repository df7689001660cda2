"""Step 6: depth factors and the allocation of the covering radius over the matrices.

Composition (standard: Bartlett, Foster & Telgarsky 2017, Lemma A.7-style telescoping): with covers
taken layer by layer (upstream matrices replaced by cover elements inside the class, downstream ones
kept), a perturbation eps_i of
matrix i in its sup-over-tokens metric moves the output by at most c_i eps_i, c_i = gamma_i alpha_i:
gamma_i the sensitivity of its own layer's output, alpha_l = prod_{k>l} Lip(layer k) (alpha_{L-1} = 1),
Lip(layer) = L_phi C2(M_in) C2(M_out) sum_h head_h (theory.proxy.LAYER_LIPSCHITZ), with the head factor
head_h = C2(Vt_h)(1 + 4 C2(QK_h)) in the exact proxy (the authors' softmax constant 2) and
C2(Vt_h)(1 + 2 C2(QK_h)) in the assembled bound (the derived softmax constant 1, theory.lipschitz).
The read-out w (f = w . x_L[0], ||w|| <= 1) is the last matrix: c_w = 1, and it multiplies every upstream
perturbation by ||w|| <= 1, so the alphas need no extra factor.

Allocation of a total radius eps with sum_i c_i eps_i <= eps, entropy A_i eps_i^{-q} per matrix:
- equal split eps_i = eps / (K c_i): entropy sum_i A_i (K c_i)^q eps^{-q}; after Dudley, sqrt of a sum:
  the l2 aggregation sqrt(sum_i C_i^2) (what theory.assembled uses), bounded by the l1 sum sum_i C_i that
  the proxy B_ours uses (sqrt(sum a_i) <= sum sqrt(a_i));
- optimal split (Lagrange): entropy (sum_i (A_i c_i^q)^{1/(q+1)})^{q+1} eps^{-q} <= the equal split's
  (Hoelder); at q = 2 (pure Maurey, p -> oo shape) this is (sum_i (A_i c_i^2)^{1/3})^3, the
  Bartlett et al. / Edelman et al. (sum alpha^{2/3} kappa^{2/3})^3 form.
Provenance: standard (the telescoping argument); the allocation formulas are typed, not derived, and
only checked (KKT point, Hoelder at q = 1).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import sympy as sp

from theory import _sympy_tools as tools
from theory.lemma import Check, Lemma
from theory.provenance import Provenance, Tagged
from theory.proxy import LAYER_LIPSCHITZ

eps = sp.Symbol("epsilon", positive=True)
q = sp.Symbol("q", positive=True)
K = sp.Symbol("K", positive=True, integer=True)
A1, A2, c1, c2 = sp.symbols("A_1 A_2 c_1 c_2", positive=True)
SOURCE = (
    "Bartlett, Foster & Telgarsky 2017, Lemma A.7 (telescoping covers); the allocations are typed here "
    "(equal split; Lagrange/Hoelder optimal split), their algebra checked"
)


def optimal_allocation_value(weights: tuple[tuple[sp.Expr, sp.Expr], ...]) -> sp.Expr:
    """(sum_i (A_i c_i^q)^{1/(q+1)})^{q+1} eps^{-q} for pairs (A_i, c_i): the optimal-split entropy."""
    return sp.Add(*((a * c**q) ** (1 / (q + 1)) for a, c in weights)) ** (q + 1) * eps ** (-q)


def _optimal_point() -> tuple[sp.Expr, sp.Expr]:
    z = sp.Add(*(c * (a / c) ** (1 / (q + 1)) for a, c in ((A1, c1), (A2, c2))))
    return eps * (A1 / c1) ** (1 / (q + 1)) / z, eps * (A2 / c2) ** (1 / (q + 1)) / z


def _check_kkt() -> tuple[bool, object]:
    x1, x2 = _optimal_point()
    budget = tools.equal(c1 * x1 + c2 * x2, eps)
    multiplier_1 = q * A1 * x1 ** (-q - 1) / c1
    multiplier_2 = q * A2 * x2 ** (-q - 1) / c2
    stationary = tools.equal(
        sp.powsimp(sp.expand_power_base(multiplier_1 / multiplier_2, force=True), force=True), 1
    )
    value = A1 * x1 ** (-q) + A2 * x2 ** (-q)
    closed = optimal_allocation_value(((A1, c1), (A2, c2)))
    at_q1 = tools.equal(sp.simplify(value.subs(q, 1)), sp.simplify(closed.subs(q, 1)))
    at_q2 = tools.equal(sp.simplify(value.subs(q, 2)), sp.simplify(closed.subs(q, 2)))
    return tools.all_of(
        [("budget", budget), ("equal multipliers", stationary), ("value q=1", at_q1), ("q=2", at_q2)]
    )


def optimal_below_equal_sides(x: sp.Expr, y: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """(optimal, equal): q = 1, K = 2, the optimal allocation's entropy (sqrt x + sqrt y)^2 and the equal
    split's 2 (x + y), x, y >= 0 (optimal <= equal; the self-check and the prover's statement use it)."""
    return (sp.sqrt(x) + sp.sqrt(y)) ** 2, 2 * (x + y)


def l2_below_l1_sides(values: tuple[sp.Expr, ...]) -> tuple[sp.Expr, sp.Expr]:
    """(sum a_i, (sum sqrt a_i)^2): sqrt(sum C_i^2) <= sum C_i squared, with a_i = C_i^2 >= 0."""
    return sum(values, sp.Integer(0)), sum((sp.sqrt(a) for a in values), sp.Integer(0)) ** 2


def _check_optimal_below_equal() -> tuple[bool, object]:
    # q = 1, K = 2: (sqrt(x) + sqrt(y))^2 <= 2 (x + y) since the gap is (sqrt x - sqrt y)^2.
    x, y = sp.symbols("x y", positive=True)
    optimal, equal_split = optimal_below_equal_sides(x, y)
    gap = sp.expand(equal_split - optimal)
    return tools.equal(gap, sp.expand((sp.sqrt(x) - sp.sqrt(y)) ** 2))


def _check_l2_below_l1() -> tuple[bool, object]:
    l2_squared, l1_squared = l2_below_l1_sides(sp.symbols("a1:4", positive=True))
    return tools.is_nonnegative(sp.expand(l1_squared - l2_squared))


def _check_equal_split_budget() -> tuple[bool, object]:
    c = sp.symbols("c1:4", positive=True)
    return tools.equal(sum(ci * eps / (3 * ci) for ci in c), eps)


_LAYER_NORMS = ((2, 3, 5, 7), (11, 13, 17, 19), (23, 29, 31, 37))
"""(C_in, C_out, A, L_phi) of three layers: distinct primes, so a wrong layer index changes the product."""


def _layer_factors() -> list[sp.Expr]:
    """LAYER_LIPSCHITZ evaluated on each of the three layers (the object this lemma composes)."""
    names = [str(a) for a in LAYER_LIPSCHITZ.args]
    return [
        LAYER_LIPSCHITZ.subs(**dict(zip(("C_in", "C_out", "A", "L_phi"), values, strict=True)))
        if names == ["L_phi", "C_in", "C_out", "A"]
        else sp.nan
        for values in _LAYER_NORMS
    ]


def _telescoping_gap(alpha_of: Callable[[list[sp.Expr], int], sp.Expr]) -> tuple[bool, str]:
    # layers x -> lambda_k x attain their Lipschitz constants lambda_k = LAYER_LIPSCHITZ(layer k); moving the
    # output of layer k by e (as a perturbation of matrix k does) moves the network output by alpha_k e
    lams = _layer_factors()
    e = sp.Symbol("e", positive=True)
    decisions = []
    for k in range(3):
        out = sp.Integer(1)
        for j in range(3):
            out = lams[j] * out + (e if j == k else 0)
        decisions.append((f"layer {k}", tools.equal(out - sp.Mul(*lams), alpha_of(lams, k) * e)))
    return tools.all_of(decisions)


def _check_depth_recursion() -> tuple[bool, object]:
    return _telescoping_gap(lambda lams, k: sp.Mul(*lams[k + 1 :]))  # alpha_k = prod_{j > k} Lip_j


def _control_depth_recursion() -> tuple[bool, object]:
    return _telescoping_gap(lambda lams, k: sp.Mul(*lams[k:]))  # planted off-by-one: prod_{j >= k}


def _check_q2_is_edelman_shape() -> tuple[bool, object]:
    alpha, kappa = sp.symbols("alpha kappa", positive=True)
    closed = optimal_allocation_value(((kappa**2, alpha), (kappa**2, alpha))).subs(q, 2)
    edelman = (2 * alpha ** sp.Rational(2, 3) * kappa ** sp.Rational(2, 3)) ** 3 * eps ** (-2)
    return tools.equal(sp.simplify(closed), sp.simplify(edelman))


@functools.cache
def lemma() -> Lemma:
    """Step 6: depth factors, composition and the eps allocation (equal, l1/l2 aggregation, optimal)."""
    f_w, f_hat = sp.symbols("f_W f_What")
    sens = sp.Symbol("gamma_i alpha_i")
    return Lemma(
        step=6,
        name="depth_factors_and_allocation",
        title="Depth factors, composition and the allocation of the covering radius",
        statement=(
            sp.Le(
                sp.Abs(f_w - f_hat),
                sp.Sum(sens * sp.Symbol("epsilon_i"), (sp.Symbol("i"), 1, K)),
                evaluate=False,
            ),
            sp.Eq(sp.Symbol("epsilon_i^equal"), eps / (K * sp.Symbol("c_i")), evaluate=False),
            sp.Eq(sp.Symbol("H_opt"), optimal_allocation_value(((A1, c1), (A2, c2))), evaluate=False),
        ),
        assumptions=(
            "layerwise covers, upstream replaced by in-class cover elements, downstream kept (telescoping)",
            "entropy of matrix i at radius eps_i is A_i eps_i^{-q}, q = 2p/(p+2) in [0, 1]",
        ),
        tag=Tagged(Provenance.STANDARD, SOURCE),
        checks=(
            Check(
                "depth_recursion",
                "on three layers x -> LAYER_LIPSCHITZ x, a unit move of layer k's output moves the output by "
                "alpha_k = prod_{j > k} Lip_j (planted off-by-one prod_{j >= k} rejected)",
                _check_depth_recursion,
                _control_depth_recursion,
            ),
            Check("equal_split_budget", "sum_i c_i eps/(K c_i) = eps (K = 3)", _check_equal_split_budget),
            Check("l2_below_l1", "sqrt(sum a_i) <= sum sqrt(a_i)", _check_l2_below_l1),
            Check(
                "optimal_split_kkt",
                "Lagrange point: budget, equal multipliers, closed-form value",
                _check_kkt,
            ),
            Check("optimal_below_equal", "Hoelder at q = 1, K = 2", _check_optimal_below_equal),
            Check(
                "q2_is_edelman_shape",
                "q = 2 optimal split = (sum (alpha kappa)^{2/3})^3 / eps^2",
                _check_q2_is_edelman_shape,
            ),
        ),
    )
