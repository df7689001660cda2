"""Llama 4 (text): LLaMA's attention with rotary and NoPE layers, a weightless q/k RMSNorm, chunked
attention, and mixture-of-experts layers (sigmoid-scored top-k experts plus a shared expert) interleaved with
dense ones.

Keys: attention as LLaMA's (``<prefix>layers.{i}.self_attn.q_proj`` ...); a mixture layer has
``feed_forward.experts.gate_up_proj`` (E x N x 2F, applied as x @ W, ``chunk(2)``: gate columns [0, F), up
[F, 2F)), ``feed_forward.experts.down_proj`` (E x F x N), the router ``feed_forward.router`` (E x N) and the
shared expert ``feed_forward.shared_expert.gate_proj`` / ``up_proj`` / ``down_proj``; a dense layer
``feed_forward.gate_proj`` / ``up_proj`` / ``down_proj`` (width ``intermediate_size_mlp``). Expert e enters
as M_in^e = [W_gate^e; W_up^e]^T (W_gate^e = gate_up[e][:, :F]^T) and M_out^e = down[e]. Routing: the top-k
router logits pass a sigmoid, s_e in (0, 1), and each chosen expert sees s_e x (the score scales its input,
not its output); the shared expert sees x. Layers with ``no_rope_layers[i]`` = 1 rotate q and k (pairs of
adjacent dimensions, as complex numbers), normalise them per head without a gain (``use_qk_norm``; the
rotation keeps each head's rms, so the norm may be taken before it) and attend within chunks of
``attention_chunk_size`` tokens; the others (NoPE) use no positions and, with ``attn_temperature_tuning``,
scale the queries at position t by 1 + attn_scale log(1 + floor((t + 1) / floor_scale)).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from numerics.loading import coverage as c
from numerics.loading.families.base import DECODER_LAYER_EXTRAS, DECODER_OUTER, Family, Sizes, size_reader
from numerics.loading.families.llama import DECODER_KEYS, rotary_decoder_coverage
from numerics.loading.families.mixtral import (
    ATTENTION_SCHEME,
    ROUTER,
    experts_layer,
    mixture_layer,
    mixture_measures,
    stacked_experts,
)
from numerics.loading.weights import LayerWeights
from theory.errors import CheckpointError

MODULES = {"w_gate": "gate_proj", "w_in": "up_proj", "w_out": "down_proj"}


def llama4_roles(base: str, present: frozenset[str]) -> dict[str, str]:
    """A dense layer's three projections, or a mixture layer's stacked experts, router and shared expert."""
    dense = {role: f"{base}feed_forward.{module}.weight" for role, module in MODULES.items()}
    if set(dense.values()) <= present:
        return dense
    roles = {
        "stacked.gate_up": f"{base}feed_forward.experts.gate_up_proj",
        "stacked.down": f"{base}feed_forward.experts.down_proj",
        "router": f"{base}feed_forward.router.weight",
        **{
            f"shared_expert.{role}": f"{base}feed_forward.shared_expert.{module}.weight"
            for role, module in MODULES.items()
        },
    }
    missing = [name for name in roles.values() if name not in present]
    if missing:
        raise CheckpointError(f"its Llama 4 layer {base.rstrip('.')} lacks {', '.join(missing[:3])}")
    return roles


def _gate_then_up(gate_up: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Llama 4 stores an expert's gate and up columns side by side: [gate | up]."""
    half = gate_up.shape[1] // 2
    return gate_up[:, :half], gate_up[:, half:]


def llama4_layer(tensors: Mapping[str, np.ndarray], sizes: Sizes) -> LayerWeights:
    """A dense layer, or the experts transposed out of their x @ W layout (module docstring)."""
    if "w_in" in tensors:
        return mixture_layer(tensors, sizes)
    blocks = stacked_experts(tensors, "Llama 4", _gate_then_up)
    return experts_layer(tensors, blocks)


def llama4_measures(
    layer: LayerWeights, num_heads: int, kv_heads: int, config: Mapping, *, norms: Mapping | None = None
) -> dict[str, float]:
    """The rotary bound and the mixture's Lipschitz constant on the unit ball: each of the top-k experts sees
    s_e x with s_e in (0, 1) (a point of the same ball), so the routed part is at most k times the largest
    expert's constant, plus the shared expert's."""
    top_k = config.get("num_experts_per_tok", 1)
    return mixture_measures(layer, num_heads, kv_heads, config, norms=norms, routed_scale=float(top_k))


def llama4_coverage(config: Mapping[str, Any], measures: Mapping[str, float]) -> tuple[c.Coverage, ...]:
    """Weightless q/k norm (outside when used), rotary and NoPE layers, chunked attention, the mixture."""
    rope_layers = config.get("no_rope_layers")
    nope = [i for i, rope in enumerate(rope_layers) if not rope] if isinstance(rope_layers, list) else []
    tuning = config.get("attn_temperature_tuning", True) is not False and bool(nope)
    scale, floor = config.get("attn_scale", 0.1), config.get("floor_scale", 8192)
    temperature = (
        f"; on the NoPE layers {nope} the queries at position t are scaled by 1 + {scale} log(1 + "
        f"floor((t + 1) / {floor})) (attn_temperature_tuning), a position-dependent factor on QK_h"
        if tuning
        else ""
    )
    if config.get("use_qk_norm", True) is not False:
        attention = c.Coverage(
            "attention",
            c.CoverageStatus.OUTSIDE,
            "per-head RMSNorm without gain of the rotated queries and keys on the rotary layers: head h's "
            "logit is (u / rms(u))^T R_t (v / rms(v)) / sqrt(d_h) with u = Wq_h x, v = Wk_g x' "
            "(g = h // (H/K)), the form Wq_h^T R_t Wk_g times token-dependent factors, not the analysed "
            f"x^T QK_h x'; QK_h = Wq_h^T Wk_g and Vt_h = Wv_g^T Wo_h^T are read{temperature}",
            "reconstructed: our reading of Llama 4's forward pass, tested against transformers",
        )
    else:
        attention = c.Coverage(
            "attention",
            c.CoverageStatus.ASSUMPTION,
            f"{c.ATTENTION_GROUPED.statement}{temperature}",
            "reconstructed: our reading of Llama 4's forward pass, tested against transformers",
        )
    chunk = config.get("attention_chunk_size")
    records = rotary_decoder_coverage({**config, "sliding_window": None}, measures, attention=attention)
    masking = c.Coverage(
        "masking",
        c.CoverageStatus.EXACT,
        f"causal mask; on the rotary layers within chunks of {chunk} tokens (attention_chunk_size): each "
        "softmax runs over a subset of the logits, whose max-norm distance is at most the whole vector's, so "
        "the softmax constant and the attention Lipschitz bound are unchanged",
        "derived: theory.lipschitz (softmax lemma), applied to the attended tokens",
    )
    records = tuple(masking if record.block == "masking" else record for record in records)
    mixture = c.Coverage(
        "mixture of experts",
        c.CoverageStatus.ASSUMPTION,
        f"{config.get('num_local_experts', 'the read')} experts, "
        f"top-{config.get('num_experts_per_tok', 'k')}, "
        f"in layers {config.get('moe_layers', 'with experts')} (the rest dense): each chosen expert sees s x "
        "with the sigmoid score s in (0, 1) scaling its input, plus a shared expert on x: with the router "
        "held fixed the proxies take max over experts of C2(M_in^e) C2(M_out^e) plus the shared expert's "
        "(the feed-forward value counts k experts), and the complexity sum covers every expert's M_in and "
        "M_out",
        "reconstructed: theory.mixture, with Llama 4's input-scaled routing",
    )
    return (*records, mixture, ROUTER)


FAMILY = Family(
    key="llama4",
    title="Llama 4 text (rotary and NoPE layers, weightless q/k norm, chunked attention, MoE, shared expert)",
    model_types=("llama4_text",),
    schemes=(ATTENTION_SCHEME,),
    sizes=size_reader({**DECODER_KEYS, "ffn_size": "intermediate_size_mlp"}),
    coverage=llama4_coverage,
    assemble=llama4_layer,
    measures=llama4_measures,
    markers=("feed_forward.router.weight",),
    layer_roles=llama4_roles,
    layer_extras=DECODER_LAYER_EXTRAS,
    outer=DECODER_OUTER,
)
