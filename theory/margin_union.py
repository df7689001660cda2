"""The margin chosen after training: the assembled bound at every margin at once, by a union over
dyadic margins (derived; the device of Bartlett, Foster & Telgarsky 2017's Theorem 1.1 proof).

theory.assembled's statement holds for a margin gamma_m fixed before the sample. Apply it at each dyadic
margin gamma_k = 2^-k (k = 0, 1, 2, ...) with confidence delta w(k), w(k) = 2 / (3 (k+1) (k+2)) (the peeling
weights of theory.assembled's PEEL_COST, whose sum over k >= 0 is 2/3 <= 1): with probability >= 1 - delta
all of them hold together, the k-th with ln(2/(delta w(k))) = ln(2/delta) + PEEL_COST(k) in the confidence
term, i.e. P + PEEL_COST(k) in place of P. For a margin gamma in (0, 1] measured after training take
k = ceil(log2(1/gamma)) (MARGIN_SHELL_INDEX), so gamma/2 < gamma_k <= gamma; the ramp loss at gamma_k is at
most the ramp loss at gamma pointwise (1 - u/gamma_k <= 1 - u/gamma on (0, gamma_k), 0 beyond), so

    P(y f(x) <= 0) <= (1/n) sum_i ramp_gamma(y_i f(x_i))
                      + GAP_TERM(margin = gamma_k, P = P + PEEL_COST(k)),    k = ceil(log2(1/gamma)),

for every gamma in (0, 1] at once. The price is PEEL_COST(k) = ln(3/2 (k+1)(k+2)) ~ 2 ln log2(1/gamma)
inside the confidence term's square root, and Sigma, Q and Lambda are evaluated at gamma_k (> gamma/2).
Provenance: derived (the union bound and the ramp's monotonicity in the margin, checked below).
"""

from __future__ import annotations

import functools

import sympy as sp

from theory import _sympy_tools as tools
from theory.assembled import PEEL_COST, RAMP_LOSS, P_peel, j, margin
from theory.formula import Formula
from theory.lemma import Check, Lemma
from theory.provenance import Derivation, Provenance, Tagged

SOURCE = (
    "derived here; the union over margins as in Bartlett, Foster & Telgarsky 2017 (NeurIPS), Thm 1.1 proof"
)
_DEFINED = Tagged(Provenance.RECONSTRUCTED, "theory.margin_union: the dyadic margins of the union")

MARGIN_SHELL_INDEX = Formula(
    "margin_shell_index",
    sp.ceiling(sp.log(1 / margin, 2)),
    (margin,),
    _DEFINED,
    "k = ceil(log2(1/gamma_m)) >= 0 for a margin gamma_m in (0, 1]: the dyadic margin 2^-k lies in "
    "(gamma_m/2, gamma_m]",
)
MARGIN_SHELL = Formula(
    "margin_shell", 2 ** (-j), (j,), _DEFINED, "gamma_k = 2^-k, the dyadic margin of index k"
)

k = sp.Symbol("k", integer=True, nonnegative=True)
u = sp.Symbol("u", positive=True)
smaller = sp.Symbol("gamma_k", positive=True)
excess = sp.Symbol("d", nonnegative=True)
OPERATION = "sp.summation (the union's weights) and sp.simplify (the ramp at two margins)"


def _weights_sum(cost: sp.Expr) -> sp.Expr:
    """sum over k >= 0 of exp(-cost(k)): the total confidence the union spends, in units of delta."""
    return sp.summation(sp.simplify(sp.exp(-cost.subs(j, k))), (k, 0, sp.oo))


def _ramp_difference() -> sp.Expr:
    """ramp at gamma_k minus ramp at gamma_k + d on (0, gamma_k), simplified: RAMP_LOSS's middle piece."""
    ramp, v = RAMP_LOSS.expr, RAMP_LOSS.args[0]
    piece = ramp.args[1][0]
    return sp.factor(
        sp.simplify(piece.subs({margin: smaller, v: u}) - piece.subs({margin: smaller + excess, v: u}))
    )


def _statement(total: sp.Expr, difference: sp.Expr) -> tuple[sp.Basic, ...]:
    """The lemma's parts from the derived weight total and ramp difference."""
    index = MARGIN_SHELL_INDEX.expr
    weight = sp.exp(-PEEL_COST.expr.subs(j, k))
    return (
        sp.Eq(sp.Sum(weight, (k, 0, sp.oo)), total, evaluate=False),
        sp.Eq(sp.Symbol("ramp_{gamma_k}(u) - ramp_{gamma_k + d}(u)"), difference, evaluate=False),
        sp.Le(
            sp.Symbol("P(y f(x) <= 0)"),
            sp.Symbol("Rhat_ramp(gamma_m)")
            + sp.Function("GAP_TERM")(
                MARGIN_SHELL.expr.subs(j, index), P_peel + PEEL_COST.expr.subs(j, index)
            ),
            evaluate=False,
        ),
    )


def _derive() -> tuple[sp.Basic, ...]:
    return _statement(_weights_sum(PEEL_COST.expr), _ramp_difference())


def _check_union() -> tuple[bool, object]:
    x = sp.Symbol("x", nonnegative=True)
    at_log = MARGIN_SHELL.expr.subs(j, sp.log(1 / margin, 2))
    return tools.all_of(
        [
            ("sum_k>=0 w(k) = 2/3 <= 1", tools.equal(_weights_sum(PEEL_COST.expr), sp.Rational(2, 3))),
            (
                "ramp at gamma_k - ramp at gamma_k + d = -u d / (gamma_k (gamma_k + d)) <= 0",
                tools.equal(_ramp_difference(), -u * excess / (smaller * (smaller + excess))),
            ),
            ("2^-x = gamma at x = log2(1/gamma)", tools.equal(at_log, margin)),
            (
                "2^-(x+1) = gamma/2",
                tools.equal(MARGIN_SHELL.expr.subs(j, sp.log(1 / margin, 2) + 1), margin / 2),
            ),
            ("2^-x decreasing", tools.is_positive(-sp.diff(MARGIN_SHELL.expr.subs(j, x), x))),
        ]
    )


def _control_union() -> tuple[bool, object]:
    # planted false: weights 1/(k+1), whose sum diverges, would spend more than delta
    return tools.equal(_weights_sum(sp.log(j + 1)), sp.Rational(2, 3))


@functools.cache
def lemma() -> Lemma:
    """Step 9b: the assembled bound at a margin measured after training (module docstring)."""
    return Lemma(
        step=9,
        name="margin_union",
        title="The assembled bound at the margin measured after training (union over dyadic margins)",
        statement=_derive(),
        assumptions=(
            "theory.assembled's statement at each fixed dyadic margin 2^-k, with confidence delta w(k), "
            "w(k) = exp(-PEEL_COST(k))",
            "the margin gamma_m in (0, 1] may be chosen after seeing the sample; n, T, delta fixed before",
        ),
        tag=Tagged(Provenance.DERIVED, SOURCE, Derivation(OPERATION, _derive)),
        checks=(
            Check(
                "dyadic_margin_union",
                "the weights sum to 2/3 <= 1; the ramp at 2^-k <= gamma is below the ramp at gamma; "
                "gamma/2 < 2^-k <= gamma",
                _check_union,
                _control_union,
            ),
        ),
        notes="The cost of the margin chosen after training: PEEL_COST(k) ~ 2 ln log2(1/gamma) in the "
        "confidence term, and the complexity at 2^-k > gamma/2 rather than at gamma.",
    )


__all__ = ["MARGIN_SHELL", "MARGIN_SHELL_INDEX", "lemma"]
