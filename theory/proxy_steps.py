"""The composition of the BERT proxies as data: which formula of :mod:`theory.proxy` is reduced over which
index to give each quantity, without sympy (the bound path runs this table).

Provenance ``exact`` (the authors' ``bounds.py``: ``ours_posthoc_proxy``, ``edelman_multihead_proxy``), as
the summands. For a model of L layers, heads h and matrices i (layer l_i, head h_i, kind k_i):

- A_l = sum_h HEAD_LIPSCHITZ(C2(Vt_h^l), C2(QK_h^l));
- lambda_l = LAYER_LIPSCHITZ(L_phi, C2(M_in^l), C2(M_out^l), A_l);
- alpha_l = prod_{k > l} lambda_k (alpha_{L-1} = 1, the empty product);
- gamma_i = GAMMA[k_i](...), s_i = SCALE(gamma_i, alpha_{l_i}, L);
- c_i = min_{p in P_m} SUMMAND(p, S_p(W_i), s_i, N);
- Sigma = sum_i c_i, B_ours = OURS_PROXY(Sigma, L);
- xi_i = EDELMAN_TERM[k_i](...), xi_l = sum_{i: l_i = l} xi_i, w_l = EDELMAN_LAYER_WEIGHT(alpha_l),
  Xi = sum_l w_l xi_l, B_Edelman = EDELMAN_PROXY(Xi).

Each line is one :class:`Step` of :data:`PROXY_COMPOSITION`; :mod:`theory.proxy_composition` states every
step as a sympy equation over indexed quantities (Sum, Product), and
:func:`numerics.bounds.composition.compose_proxies` runs the table in any arithmetic.
"""

from __future__ import annotations

from enum import StrEnum

from theory.kinds import MatrixKind
from theory.provenance import AUTHORS_CODE, Provenance, Tagged
from theory.records import record


class Scope(StrEnum):
    """What a quantity is indexed by: one value per model, per layer l, or per matrix i."""

    MODEL = "model"
    LAYER = "layer"
    MATRIX = "matrix"


class Reduce(StrEnum):
    """How a step's body becomes its value: the body itself, or its sum, product or minimum over an index."""

    APPLY = "apply"
    SUM = "sum"
    PRODUCT = "product"
    MIN = "min"


class Over(StrEnum):
    """The index a step reduces over, relative to the step's own index (layer l, or matrix i)."""

    HEADS = "h in heads of layer l"
    LATER_LAYERS = "k in l+1, ..., L-1"
    GRID = "p in P_m"
    MATRICES = "i in matrices"
    LAYER_MATRICES = "i in matrices of layer l"
    LAYERS = "l in 0, ..., L-1"


MEASURED = {
    "C2_QK": "spectral norm of QK_h^l",
    "C2_Vt": "spectral norm of Vt_h^l",
    "C2_M_in": "spectral norm of M_in^l",
    "C2_M_out": "spectral norm of M_out^l",
    "n21": "(2,1) norm of W_i",
    "S": "Schatten power sum S_p(W_i) (S_0 = rank W_i)",
    "N": "hidden size",
    "L": "depth",
    "L_phi": "the activation's Lipschitz bound L_PHI_VALUE",
    "p": "the Schatten index, bound by the minimum over P_m",
}
"""The quantities a step may read that no step defines: the model's sizes and its matrices' norms."""

SPECTRAL_NORMS = {
    "C2_QK": MatrixKind.QK,
    "C2_Vt": MatrixKind.VT,
    "C2_M_in": MatrixKind.M_IN,
    "C2_M_out": MatrixKind.M_OUT,
}
"""The measured spectral norms by the kind of matrix they are of: indexed by layer and head for a per-head
kind, by layer for a layer-wide one."""


@record(kw_only=True)
class Step:
    """``target`` (indexed by ``scope``) = ``reduce`` over ``over`` of the body.

    The body is the formula named ``formula`` of :mod:`theory.proxy` (a dict by matrix kind is taken at the
    matrix's kind k_i) with each argument bound to a quantity by ``inputs`` (argument, quantity), the
    arguments a kind's formula does not have being ignored; without a formula, the product of the
    quantities ``factors``. A quantity is one of :data:`MEASURED` or an earlier step's target, read at the
    body's index (the layer of a matrix, the head of a head, the later layer k of a product).
    """

    target: str
    scope: Scope
    reduce: Reduce = Reduce.APPLY
    over: Over | None = None
    formula: str | None = None
    inputs: tuple[tuple[str, str], ...] = ()
    factors: tuple[str, ...] = ()
    meaning: str

    @property
    def reads(self) -> tuple[str, ...]:
        """The quantities the body reads."""
        return tuple(quantity for _, quantity in self.inputs) + self.factors


PROXY_COMPOSITION_TAG = Tagged(Provenance.EXACT, AUTHORS_CODE)
"""Provenance of :data:`PROXY_COMPOSITION`: the authors' ``bounds.py`` composes the summands so."""

PROXY_COMPOSITION = (
    Step(
        target="A",
        scope=Scope.LAYER,
        reduce=Reduce.SUM,
        over=Over.HEADS,
        formula="HEAD_LIPSCHITZ",
        inputs=(("C_V", "C2_Vt"), ("C_QK", "C2_QK")),
        meaning="A_l = sum_h HEAD_LIPSCHITZ(C2(Vt_h^l), C2(QK_h^l))",
    ),
    Step(
        target="lambda",
        scope=Scope.LAYER,
        formula="LAYER_LIPSCHITZ",
        inputs=(("L_phi", "L_phi"), ("C_in", "C2_M_in"), ("C_out", "C2_M_out"), ("A", "A")),
        meaning="lambda_l = LAYER_LIPSCHITZ(L_phi, C2(M_in^l), C2(M_out^l), A_l)",
    ),
    Step(
        target="alpha",
        scope=Scope.LAYER,
        reduce=Reduce.PRODUCT,
        over=Over.LATER_LAYERS,
        factors=("lambda",),
        meaning="alpha_l = prod_{k > l} lambda_k (alpha_{L-1} = 1)",
    ),
    Step(
        target="gamma",
        scope=Scope.MATRIX,
        formula="GAMMA",
        inputs=(("C_V", "C2_Vt"), ("C_out", "C2_M_out"), ("C_in", "C2_M_in")),
        meaning="gamma_i = GAMMA[k_i](C2(Vt_{h_i}), C2(M_out), C2(M_in)) of layer l_i",
    ),
    Step(
        target="s",
        scope=Scope.MATRIX,
        formula="SCALE",
        inputs=(("gamma", "gamma"), ("alpha", "alpha"), ("L", "L")),
        meaning="s_i = SCALE(gamma_i, alpha_{l_i}, L)",
    ),
    Step(
        target="c",
        scope=Scope.MATRIX,
        reduce=Reduce.MIN,
        over=Over.GRID,
        formula="SUMMAND",
        inputs=(("p", "p"), ("S", "S"), ("s", "s"), ("N", "N")),
        meaning="c_i = min_{p in P_m} SUMMAND(p, S_p(W_i), s_i, N)",
    ),
    Step(
        target="Sigma",
        scope=Scope.MODEL,
        reduce=Reduce.SUM,
        over=Over.MATRICES,
        factors=("c",),
        meaning="Sigma = sum_i c_i",
    ),
    Step(
        target="B_ours",
        scope=Scope.MODEL,
        formula="OURS_PROXY",
        inputs=(("Sigma", "Sigma"), ("L", "L")),
        meaning="B_ours = OURS_PROXY(Sigma, L)",
    ),
    Step(
        target="xi_term",
        scope=Scope.MATRIX,
        formula="EDELMAN_TERM",
        inputs=(("C_out", "C2_M_out"), ("C_in", "C2_M_in"), ("C_V", "C2_Vt"), ("n21", "n21")),
        meaning="xi_i = EDELMAN_TERM[k_i](C2(M_out), C2(M_in), C2(Vt_{h_i}), ||W_i||_{2,1}) of layer l_i",
    ),
    Step(
        target="xi",
        scope=Scope.LAYER,
        reduce=Reduce.SUM,
        over=Over.LAYER_MATRICES,
        factors=("xi_term",),
        meaning="xi_l = sum_{i: l_i = l} xi_i",
    ),
    Step(
        target="w",
        scope=Scope.LAYER,
        formula="EDELMAN_LAYER_WEIGHT",
        inputs=(("alpha", "alpha"),),
        meaning="w_l = EDELMAN_LAYER_WEIGHT(alpha_l)",
    ),
    Step(
        target="Xi",
        scope=Scope.MODEL,
        reduce=Reduce.SUM,
        over=Over.LAYERS,
        factors=("w", "xi"),
        meaning="Xi = sum_l w_l xi_l",
    ),
    Step(
        target="B_Edelman",
        scope=Scope.MODEL,
        formula="EDELMAN_PROXY",
        inputs=(("Xi", "Xi"),),
        meaning="B_Edelman = EDELMAN_PROXY(Xi)",
    ),
)
"""The composition of B_ours and B_Edelman (module docstring), in the order a runner evaluates it."""


def scope_of(target: str, steps: tuple[Step, ...] = PROXY_COMPOSITION) -> Scope:
    """The scope of the quantity a step defines (KeyError for a measured one)."""
    return next(step.scope for step in steps if step.target == target)


def steps_for(target: str, steps: tuple[Step, ...] = PROXY_COMPOSITION) -> tuple[Step, ...]:
    """The steps ``target`` depends on, itself included, in table order.

    >>> [step.target for step in steps_for("alpha")]
    ['A', 'lambda', 'alpha']
    """
    by_target = {step.target: step for step in steps}
    wanted, pending = set(), [target]
    while pending:
        name = pending.pop()
        if name in by_target and name not in wanted:
            wanted.add(name)
            pending.extend(by_target[name].reads)
    return tuple(step for step in steps if step.target in wanted)
