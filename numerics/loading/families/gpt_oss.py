"""GPT-OSS: LLaMA's attention with per-head attention sinks, and a mixture of clamped-SwiGLU experts with
biases, stored stacked and transposed.

Keys: attention as LLaMA's (``<prefix>layers.{i}.self_attn.q_proj`` ..., with biases), the sinks
``self_attn.sinks`` (one logit per head); experts ``mlp.experts.gate_up_proj`` (E x N x 2F, applied as
x @ W: its columns alternate gate and up, ``[..., ::2]`` and ``[..., 1::2]``), ``gate_up_proj_bias``
(E x 2F), ``down_proj`` (E x F x N) and ``down_proj_bias`` (E x N); the router ``mlp.router`` (E x N, with a
bias). Expert e is x -> ((clamp(up, -l, l) + 1) * g sigmoid(alpha g)) W_down^e with g = min(gate, l)
(``swiglu_alpha``, ``swiglu_limit``): in ``nn.Linear`` layout W_gate^e = gate_up[e][:, ::2]^T,
W_up^e = gate_up[e][:, 1::2]^T, W_down^e = down[e]^T, entering as M_in^e = [W_gate^e; W_up^e]^T and
M_out^e = W_down^e^T. Gates: softmax over the top-``num_experts_per_tok`` router logits (sum 1). Head h's
probabilities are softmax([logits_h, sink_h]) with the sink's entry dropped: they sum to less than 1.
``layer_types`` alternates sliding-window (``sliding_window``) and full causal layers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from numerics.loading import coverage as c
from numerics.loading.families.base import DECODER_LAYER_EXTRAS, DECODER_OUTER, Family, Sizes, size_reader
from numerics.loading.families.llama import DECODER_KEYS, rotary_decoder_coverage, rotary_horn_bound
from numerics.loading.families.mixtral import (
    ATTENTION_SCHEME,
    ROUTER,
    experts_layer,
    mixture_record,
    stacked_experts,
)
from numerics.loading.weights import LayerWeights
from theory.errors import CheckpointError

SINK_ATTENTION = c.Coverage(
    "attention",
    c.CoverageStatus.ASSUMPTION,
    "multi-head softmax attention with a learned sink per head: head h's probabilities are softmax([z_h, "
    "s_h]) without the sink's entry (they sum to less than 1); grouped-query QK_h = Wq_h^T Wk_g and Vt_h = "
    "Wv_g^T Wo_h^T (g = h // (H/K)); the kept entries' Jacobian is a principal block of a softmax "
    "Jacobian, so the l_inf -> l_1 constant 1 holds; the covering argument is assumed to carry over",
    "reconstructed: our reading of GPT-OSS's forward pass, tested against transformers",
)


def gpt_oss_roles(base: str, present: frozenset[str]) -> dict[str, str]:
    """The stacked experts and the router of a layer."""
    roles = {
        "stacked.gate_up": f"{base}mlp.experts.gate_up_proj",
        "stacked.down": f"{base}mlp.experts.down_proj",
        "router": f"{base}mlp.router.weight",
    }
    missing = [name for name in roles.values() if name not in present]
    if missing:
        raise CheckpointError(f"its GPT-OSS layer {base.rstrip('.')} lacks {', '.join(missing)}")
    return roles


def gpt_oss_layer(tensors: Mapping[str, np.ndarray], sizes: Sizes) -> LayerWeights:
    """The attention and the de-interleaved, transposed experts (module docstring)."""
    blocks = stacked_experts(tensors, "GPT-OSS", lambda gate_up: (gate_up[:, ::2], gate_up[:, 1::2]))
    return experts_layer(tensors, blocks)


def gpt_oss_measures(
    layer: LayerWeights, num_heads: int, kv_heads: int, config: Mapping, *, norms: Mapping | None = None
) -> dict[str, float]:
    """The rotary forms' position-free sigma_1 bound (the clamped SwiGLU has no constant here)."""
    return {"rotary_qk_spectral_bound": rotary_horn_bound(layer, num_heads, kv_heads, norms)}


def gpt_oss_coverage(config: Mapping[str, Any], measures: Mapping[str, float]) -> tuple[c.Coverage, ...]:
    """Sink attention, clamped-SwiGLU experts with biases (outside), local/global causal layers."""
    alpha, limit = config.get("swiglu_alpha", 1.702), config.get("swiglu_limit", 7.0)
    feed_forward = c.Coverage(
        "feed-forward",
        c.CoverageStatus.OUTSIDE,
        f"clamped SwiGLU experts ((clamp(W_up x + b, -{limit}, {limit}) + 1) * g sigmoid({alpha} g)) with "
        f"g = min(W_gate x + b, {limit}), then W_down (swiglu_alpha, swiglu_limit): M_in = [W_gate; W_up]^T "
        "and M_out = W_down^T per expert are read; the block is not the analysed one and specbound knows no "
        "Lipschitz constant for it",
        "reconstructed: our reading of GPT-OSS's experts",
    )
    types = config.get("layer_types")
    window = config.get("sliding_window", 128)
    local = types is None or (isinstance(types, list) and "sliding_attention" in types)
    records = rotary_decoder_coverage(
        {**config, "attention_bias": config.get("attention_bias", True), "mlp_bias": True,
         "sliding_window": window if local else None},
        measures,
        attention=SINK_ATTENTION,
    )  # fmt: skip
    records = tuple(feed_forward if record.block == "feed-forward" else record for record in records)
    top_k = {**config, "norm_topk_prob": True}
    return (*records, mixture_record(top_k, "num_local_experts", shared=False), ROUTER)


FAMILY = Family(
    key="gpt_oss",
    title="GPT-OSS (attention sinks, local/global layers, mixture of clamped-SwiGLU experts with biases)",
    model_types=("gpt_oss",),
    schemes=(ATTENTION_SCHEME,),
    sizes=size_reader(DECODER_KEYS),
    coverage=gpt_oss_coverage,
    assemble=gpt_oss_layer,
    measures=gpt_oss_measures,
    markers=("self_attn.sinks", "mlp.router.weight"),
    layer_roles=gpt_oss_roles,
    layer_extras=(
        *DECODER_LAYER_EXTRAS,
        r"self_attn\.sinks",
        r"mlp\.experts\.(?:gate_up|down)_proj_bias",
        r"mlp\.router\.bias",
    ),
    outer=DECODER_OUTER,
)
