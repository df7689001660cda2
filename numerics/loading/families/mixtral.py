"""Mixtral: LLaMA's attention (GQA, rotary, pre-RMSNorm) with a mixture-of-experts feed-forward.

Keys: attention as LLaMA (``<prefix>layers.{i}.self_attn.q_proj`` ...); each layer's experts
``block_sparse_moe.experts.{e}.w1`` (gate), ``w3`` (up) and ``w2`` (down), and the router
``block_sparse_moe.gate`` (experts x N), as saved checkpoints hold them. A transformers 5 module in memory
stacks them instead: ``mlp.experts.gate_up_proj`` (experts x 2F x N, gate rows first) and
``mlp.experts.down_proj`` (experts x N x F), router ``mlp.gate``; both layouts are read. Expert e is the
gated block W2 (silu(W1 x) * W3 x), entering the bound as M_in^e = [W1; W3]^T and M_out^e = W2^T; the
layer's feed-forward is sum over the top ``num_experts_per_tok`` experts of softmax gates renormalised to
sum 1 (:mod:`theory.mixture`: which expert bound applies to a token). The router is read, checked, and
kept outside the bound. Without a ``model_type``, the marker ``block_sparse_moe.gate.weight`` (saved) or
the stacked ``mlp.experts.gate_up_proj`` (in memory) tells Mixtral from LLaMA; stacked experts with
Qwen2-MoE's shared-expert gate fit both mixture families and then need ``--family``.

The helpers here (:func:`expert_roles`, :func:`mixture_layer`, :func:`mixture_measures`,
:func:`mixture_coverage`) serve Qwen2-MoE too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from numerics.loading import coverage as c
from numerics.loading.families.base import (
    DECODER_LAYER_EXTRAS,
    DECODER_OUTER,
    Family,
    Scheme,
    Sizes,
    linear_layer,
    size_reader,
)
from numerics.loading.families.llama import (
    DECODER_KEYS,
    gate_activation,
    rotary_decoder_coverage,
    rotary_horn_bound,
    rotary_measures,
)
from numerics.loading.weights import SHARED_EXPERT, FeedForward, LayerWeights
from theory.errors import CheckpointError

ATTENTION = {
    "wq": "self_attn.q_proj",
    "wk": "self_attn.k_proj",
    "wv": "self_attn.v_proj",
    "wo": "self_attn.o_proj",
}
ATTENTION_SCHEME = Scheme("layers", ATTENTION)
"""LLaMA's attention projections alone: a mixture family reads its feed-forward through its layer_roles."""
SAVED_SCHEME = Scheme("layers", ATTENTION, markers=("block_sparse_moe.gate.weight",))
STACKED_SCHEME = Scheme("layers", ATTENTION, markers=("mlp.experts.gate_up_proj",))

STACKED_GATE_UP, STACKED_DOWN = "stacked.gate_up", "stacked.down"
ROLES = ("w_gate", "w_in", "w_out")


def expert_roles(
    base: str, present: frozenset[str], block: str, modules: Mapping[str, str]
) -> dict[str, str]:
    """The routed experts' and router's tensors of the layer named ``base`` under ``block`` (``mlp.``,
    ``block_sparse_moe.``): per expert ``expert.{e}.w_gate`` / ``w_in`` / ``w_out`` (module names
    ``modules``), or the two stacked tensors; empty when the layer has neither. CheckpointError when an
    expert lacks one of its projections or the layer lacks its router."""
    stacked = {
        STACKED_GATE_UP: f"{base}{block}experts.gate_up_proj",
        STACKED_DOWN: f"{base}{block}experts.down_proj",
    }
    pattern = re.compile(rf"^{re.escape(base + block)}experts\.(\d+)\.")
    indices = sorted({int(m[1]) for m in map(pattern.match, present) if m is not None})
    if indices:
        roles = {
            f"expert.{e}.{role}": f"{base}{block}experts.{e}.{modules[role]}.weight"
            for e in range(indices[-1] + 1)
            for role in ROLES
        }
    elif set(stacked.values()) <= present:
        roles = dict(stacked)
    else:
        return {}
    missing = sorted(name for name in roles.values() if name not in present)
    router = f"{base}{block}gate.weight"
    if router not in present:
        missing.append(router)
    if missing:
        raise CheckpointError(
            f"its mixture-of-experts layer {base.rstrip('.')} lacks {', '.join(missing[:3])}"
        )
    return {**roles, "router": router}


EXPERT_TENSOR = re.compile(r"(?:^|\.)layers\.(\d+)\.(?:mlp|block_sparse_moe)\.experts\.(\d+)\.")


def expert_count_refusal(config: Mapping[str, Any], names: tuple[str, ...], key: str) -> str | None:
    """Why saved experts contradict the config: a layer whose number of experts is not its ``key``
    (``num_local_experts``, ``num_experts``); None when they agree or either says nothing. (Stacked
    experts in memory are counted by their router's rows, :func:`~numerics.loading.weights.check_layer`.)"""
    declared = config.get(key)
    found: dict[int, set[int]] = {}
    for match in filter(None, map(EXPERT_TENSOR.search, names)):
        found.setdefault(int(match[1]), set()).add(int(match[2]))
    wrong = {layer: len(experts) for layer, experts in sorted(found.items()) if len(experts) != declared}
    if not isinstance(declared, int) or not wrong:
        return None
    layer, count = next(iter(wrong.items()))
    return f"its layer {layer} has {count} experts but its config.json says {key}={declared}"


def mixture_layer(tensors: Mapping[str, np.ndarray], sizes: Sizes) -> LayerWeights:
    """A layer from its attention, and its experts (stacked or one tensor per projection), router and
    optional shared expert; a layer with ``w_in`` is a dense one (:func:`linear_layer`)."""
    if "w_in" in tensors:
        return linear_layer(tensors, sizes)
    if STACKED_GATE_UP in tensors:
        gate_up, down = tensors[STACKED_GATE_UP], tensors[STACKED_DOWN]
        width = gate_up.shape[1] // 2
        if gate_up.shape[1] % 2 or gate_up.shape[0] != down.shape[0]:
            raise CheckpointError(
                f"the stacked experts have shapes {gate_up.shape} (gate_up) and {down.shape} (down): not E "
                "experts of 2F gate/up rows and F down columns"
            )
        experts = tuple(
            FeedForward(w_in=gate_up[e, width:], w_out=down[e], w_gate=gate_up[e, :width])
            for e in range(gate_up.shape[0])
        )
    else:
        count = 1 + max(int(role.split(".")[1]) for role in tensors if role.startswith("expert."))
        experts = tuple(
            FeedForward(
                w_in=tensors[f"expert.{e}.w_in"],
                w_out=tensors[f"expert.{e}.w_out"],
                w_gate=tensors[f"expert.{e}.w_gate"],
            )
            for e in range(count)
        )
    return experts_layer(tensors, experts)


def stacked_experts(
    tensors: Mapping[str, np.ndarray],
    family: str,
    halves: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]],
) -> tuple[FeedForward, ...]:
    """The experts of a stacked E x N x 2F ``gate_up`` and E x F x N ``down`` (the x @ W layout),
    transposed to W x; ``halves`` splits one expert's N x 2F ``gate_up`` into its gate and up columns."""
    gate_up, down = tensors["stacked.gate_up"], tensors["stacked.down"]
    experts, hidden, width = gate_up.shape
    if width % 2 or down.shape != (experts, width // 2, hidden):
        raise CheckpointError(
            f"{family}'s experts have shapes {gate_up.shape} (gate_up) and {down.shape} (down): not "
            "E x N x 2F and E x F x N"
        )
    blocks = []
    for e in range(experts):
        gate, up = halves(gate_up[e])
        blocks.append(FeedForward(w_in=up.T, w_out=down[e].T, w_gate=gate.T))
    return tuple(blocks)


def experts_layer(tensors: Mapping[str, np.ndarray], experts: tuple[FeedForward, ...]) -> LayerWeights:
    """A mixture layer's record: the attention projections, the experts (the first stands for the layer's
    dense feed-forward), the router, and the shared expert and its gate when the file has them."""
    shared = None
    if "shared_expert.w_in" in tensors:
        shared = FeedForward(
            w_in=tensors["shared_expert.w_in"],
            w_out=tensors["shared_expert.w_out"],
            w_gate=tensors["shared_expert.w_gate"],
        )
    return LayerWeights(
        wq=tensors["wq"],
        wk=tensors["wk"],
        wv=tensors["wv"],
        wo=tensors["wo"],
        w_in=experts[0].w_in,
        w_out=experts[0].w_out,
        w_gate=experts[0].w_gate,
        experts=experts,
        shared_expert=shared,
        router=tensors["router"],
        shared_expert_gate=tensors.get("shared_expert_gate"),
    )


def mixture_measures(
    layer: LayerWeights,
    num_heads: int,
    kv_heads: int,
    config: Mapping,
    *,
    norms: Mapping[str, float] | None = None,
    routed_scale: float = 1.0,
) -> dict[str, float]:
    """:func:`~numerics.loading.families.llama.rotary_measures` of a dense layer; of a mixture layer the
    rotary bound and the gated Lipschitz constant taken over the mixture: max over routed experts (times
    ``routed_scale`` when the gates sum to that, DeepSeek's ``routed_scaling_factor``) plus the shared
    expert's (theory.mixture's MIXTURE_LIPSCHITZ); ``norms`` holds each expert's under its label
    (``E3.w_out``)."""
    from numerics.bounds import reach  # here: reach's formulas import sympy, needed only when measuring
    from numerics.formulas.evaluate import evaluate
    from numerics.formulas.generated import MIXTURE_LIPSCHITZ
    from numerics.spectra.matrices import expert_label

    if not layer.experts:
        return rotary_measures(layer, num_heads, kv_heads, config, norms=norms)
    out = {"rotary_qk_spectral_bound": rotary_horn_bound(layer, num_heads, kv_heads, norms)}
    gate = c.activation_kind(gate_activation(config))
    if gate not in ("silu", "tanh", "gelu"):
        return out

    def lipschitz(expert: int | None, block: FeedForward) -> Any:
        label = "" if expert is None else f"{expert_label(expert)}."
        own = {k[len(label) :]: v for k, v in (norms or {}).items() if k.startswith(label)}
        return reach.swiglu_lipschitz(block, gate=gate, norms=own or None)

    blocks = layer.feed_forwards()
    routed = routed_scale * max(lipschitz(e, block) for e, block in blocks if e != SHARED_EXPERT)
    shared = sum((lipschitz(e, block) for e, block in blocks if e == SHARED_EXPERT), 0)
    out["gated_lipschitz_unit_ball"] = float(evaluate(MIXTURE_LIPSCHITZ, Lip_max=routed, Lip_shared=shared))
    return out


ROUTER = c.Coverage(
    "router",
    c.CoverageStatus.OUTSIDE,
    "the router (gate: experts x N, softmax then top-k) and any shared-expert gate are read but held fixed: "
    "which experts a token uses and their weights are not functions the bound covers (top-k is not even "
    "continuous); the router's matrix is not a matrix of the bound",
    "reconstructed: theory.mixture (router held fixed)",
)


def mixture_record(config: Mapping[str, Any], experts_key: str, shared: bool, layers: str = "") -> c.Coverage:
    """The mixture's record from the config: how many experts, top-k, whether the gates are renormalised,
    which layers are mixtures (``layers``, a clause; empty: every layer), and the bound's treatment
    (theory.mixture)."""
    count = config.get(experts_key)
    top_k = config.get("num_experts_per_tok")
    normalised = config.get("norm_topk_prob", True) is not False
    gates = (
        "softmax gates renormalised over the top-k (sum 1)"
        if normalised
        else "top-k softmax weights not renormalised (sum <= 1)"
    )
    shared_text = "; plus a shared expert under a sigmoid gate in (0, 1)" if shared else ""
    return c.Coverage(
        "mixture of experts",
        c.CoverageStatus.ASSUMPTION,
        f"{count if count is not None else 'the read'} experts, top-{top_k if top_k is not None else 'k'}, "
        f"{gates}{shared_text}{layers}: with the router held fixed the layer's C2(M_in) C2(M_out) is max "
        "over experts of C2(M_in^e) C2(M_out^e)" + (" + the shared expert's" if shared else "") + ", and the "
        "complexity sum covers every expert's M_in and M_out (any expert can serve some token)",
        "reconstructed: theory.mixture",
    )


def mixture_coverage(
    config: Mapping[str, Any],
    measures: Mapping[str, float],
    *,
    experts_key: str,
    shared: bool,
    layers: str = "",
    attention: c.Coverage = c.ATTENTION_GROUPED,
) -> tuple[c.Coverage, ...]:
    """The rotary decoder's records (feed-forward: the gated experts; ``attention`` its attention record),
    then the mixture (:func:`mixture_record`) and the router."""
    return (
        *rotary_decoder_coverage(config, measures, attention=attention, activation=gate_activation(config)),
        mixture_record(config, experts_key, shared, layers),
        ROUTER,
    )


MIXTRAL_MODULES = {"w_gate": "w1", "w_in": "w3", "w_out": "w2"}


def mixtral_roles(base: str, present: frozenset[str]) -> dict[str, str]:
    """The experts and router of a Mixtral layer: saved (``block_sparse_moe.``) or in memory (``mlp.``)."""
    for block in ("block_sparse_moe.", "mlp."):
        roles = expert_roles(base, present, block, MIXTRAL_MODULES)
        if roles:
            return roles
    raise CheckpointError(f"its Mixtral layer {base.rstrip('.')} has no experts (block_sparse_moe.experts.*)")


def mixtral_coverage(config: Mapping[str, Any], measures: Mapping[str, float]) -> tuple[c.Coverage, ...]:
    """LLaMA's records with the mixture and router records (no shared expert)."""
    return mixture_coverage(config, measures, experts_key="num_local_experts", shared=False)


FAMILY = Family(
    key="mixtral",
    title="Mixtral (LLaMA's attention, mixture of SwiGLU experts)",
    model_types=("mixtral",),
    schemes=(SAVED_SCHEME, STACKED_SCHEME),
    sizes=size_reader(DECODER_KEYS),
    coverage=mixtral_coverage,
    assemble=mixture_layer,
    measures=mixture_measures,
    refusal=lambda config, names: expert_count_refusal(config, names, "num_local_experts"),
    layer_roles=mixtral_roles,
    layer_extras=DECODER_LAYER_EXTRAS,
    outer=DECODER_OUTER,
)
