"""A mixture-of-experts feed-forward (Mixtral, Qwen2-MoE) in the bound: which expert bound applies to a token.

For a token x the mixture's feed-forward is

    F(x) = sum_{e in S(x)} g_e(x) E_e(x)  [+ g_s(x) E_s(x)],

E_e the routed experts (each a gated block W_down (act(W_gate x) * W_up x)), S(x) the top-k experts the
router chooses, g_e(x) >= 0 their gate weights, and for Qwen2-MoE a shared expert E_s with the sigmoid
gate g_s(x) = sigmoid(w_s . x) in (0, 1). The gate weights are softmax probabilities of the router's
logits: renormalised over S(x) (Mixtral; Qwen2-MoE with ``norm_topk_prob``) they sum to 1; taken from
the softmax over all experts (Qwen2-MoE without it) the top-k weights sum to at most 1. So in every case
G(x) = sum_{e in S(x)} g_e(x) <= 1.

Assumption (stated, not derived): the router is held fixed. S and g are treated as given per token,
not as functions of the weights or of the input the bound perturbs; the router's matrix (``gate``) and
the shared expert's gate vector are read but stay outside the bound (their coverage record says so).
Top-k selection is not even continuous in x, so no Lipschitz statement about the routing is made.

Under it, for one token with fixed gates, the triangle inequality gives

    Lip(F) <= sum_{e in S} g_e Lip(E_e) + g_s Lip(E_s) <= G max_e Lip(E_e) + Lip(E_s)
           <= max_e Lip(E_e) + Lip(E_s),

the maximum over every expert because any expert can be chosen for some token
(:data:`MIXTURE_LIPSCHITZ`, the convex-combination step derived by :func:`convex_combination_bound`).
With Lip(E) <= L_phi C2(M_in) C2(M_out) per expert (the dense block's factor of theory.proxy's
LAYER_LIPSCHITZ, the same reading of a gated block), the layer's C2(M_in) C2(M_out) becomes
max_e C2(M_in^e) C2(M_out^e) [+ C2(M_in^s) C2(M_out^s)] (:data:`MIXTURE_FEED_FORWARD_NORM`), and the
attention sensitivities that pass through the feed-forward use that product. A perturbation of one
expert's matrix moves the output by its gate weight (<= 1) times that expert's own sensitivity, so each
expert matrix keeps the dense gamma with its own expert's norms. The covering (complexity) term must
cover every expert: the sum over matrices of the per-matrix summands runs over every expert's M_in and
M_out (and the shared expert's), since the class is the set of all mixtures, whichever expert a token uses.

Provenance: reconstructed (this toolkit's reading of a mixture of experts onto the analysed class; the
paper analyses dense layers only). The convex-combination inequality is derived here with sympy.
"""

from __future__ import annotations

import sympy as sp

from theory.formula import Formula
from theory.provenance import Provenance, Tagged

_RECON = Tagged(
    Provenance.RECONSTRUCTED, "theory.mixture: mixture-of-experts feed-forward, router held fixed"
)

G, Lip_max, Lip_shared = sp.symbols("G Lip_max Lip_shared", nonnegative=True)
C_in_max_product, C_shared_product = sp.symbols("P_experts P_shared", nonnegative=True)

MIXTURE_LIPSCHITZ = Formula(
    name="mixture_lipschitz",
    expr=Lip_max + Lip_shared,
    args=(Lip_max, Lip_shared),
    tag=_RECON,
    description="Lip(sum_e g_e E_e + g_s E_s) <= max_e Lip(E_e) + Lip(E_s) for gates with sum g_e <= 1, "
    "0 < g_s < 1, the router held fixed (Lip_shared = 0 without a shared expert)",
)

MIXTURE_FEED_FORWARD_NORM = Formula(
    name="mixture_feed_forward_norm",
    expr=C_in_max_product + C_shared_product,
    args=(C_in_max_product, C_shared_product),
    tag=_RECON,
    description="the product C2(M_in) C2(M_out) of a mixture layer: max_e C2(M_in^e) C2(M_out^e) over "
    "every routed expert, plus C2(M_in^s) C2(M_out^s) of the shared expert (0 without one)",
)


def convex_combination_bound(experts: int = 3) -> tuple[bool, sp.Expr]:
    """Derives sum_e g_e L_e <= G max_e L_e <= max_e L_e for ``experts`` nonnegative Lipschitz constants
    L_e and gates g_e >= 0 with G = sum_e g_e <= 1 (the step of :data:`MIXTURE_LIPSCHITZ`).

    With L_e = M - d_e (d_e >= 0 the gap to the maximum M) and G = 1 - h (h >= 0), the difference
    M - sum_e g_e L_e expands to h M + sum_e g_e d_e, a sum of nonnegative terms; the witness is that
    expansion. Returns (True, witness) when sympy confirms it.

    >>> convex_combination_bound(2)[0]
    True
    """
    gates = sp.symbols(f"g0:{experts}", nonnegative=True)
    gaps = sp.symbols(f"d0:{experts}", nonnegative=True)
    top, slack = sp.symbols("M h", nonnegative=True)
    constants = [top - gap for gap in gaps]
    total_gate = sum(gates)
    difference = top - sum(g * lip for g, lip in zip(gates, constants, strict=True))
    witness = sp.expand(difference.subs(gates[-1], 1 - slack - (total_gate - gates[-1])))
    expected = sp.expand(
        slack * top
        + sum(g * d for g, d in zip(gates[:-1], gaps[:-1], strict=True))
        + (1 - slack - (total_gate - gates[-1])) * gaps[-1]
    )
    return bool(sp.simplify(witness - expected) == 0), witness


__all__ = ["MIXTURE_FEED_FORWARD_NORM", "MIXTURE_LIPSCHITZ", "convex_combination_bound"]
