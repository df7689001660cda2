"""Qwen3-MoE: Qwen3's attention (GQA, rotary, per-head q/k RMSNorm) with mixture-of-experts feed-forwards.

Keys: attention as Qwen3 (``<prefix>layers.{i}.self_attn.q_proj`` ..., ``self_attn.q_norm`` /
``k_norm`` of size d_h); a sparse layer has ``mlp.experts.{e}.gate_proj`` / ``up_proj`` / ``down_proj``
(width ``moe_intermediate_size``; stacked ``mlp.experts.gate_up_proj`` / ``down_proj`` in a transformers
5 module in memory) and the router ``mlp.gate`` (experts x N); no shared expert. A dense layer has LLaMA's
``mlp.gate_proj`` / ``up_proj`` / ``down_proj`` (``intermediate_size``). Which layers are sparse follows
``mlp_only_layers``, ``num_experts`` and ``decoder_sparse_step`` as for Qwen2-MoE (transformers' rule, a
checkpoint whose routers disagree is refused). Gates: top-``num_experts_per_tok`` of the softmax over all
experts, renormalised with ``norm_topk_prob`` (:mod:`theory.mixture`). The attention record is Qwen3's
(the q/k norm puts the logits outside the analysed form); the router is read and kept outside the bound.
Without a ``model_type``, the q/k norms and a router ``mlp.gate.weight`` (a dense Qwen3 has none) tell
it from Qwen3 and Qwen2-MoE.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from numerics.loading import coverage as c
from numerics.loading.families.base import DECODER_LAYER_EXTRAS, DECODER_OUTER, Family, Scheme, size_reader
from numerics.loading.families.llama import DECODER_KEYS
from numerics.loading.families.mixtral import ATTENTION, mixture_coverage, mixture_layer, mixture_measures
from numerics.loading.families.qwen2_moe import qwen2_moe_roles, refusal, sparse_clause
from numerics.loading.families.qwen3 import QK_NORM_ATTENTION


def qwen3_moe_coverage(config: Mapping[str, Any], measures: Mapping[str, float]) -> tuple[c.Coverage, ...]:
    """Qwen3's q/k-normalised attention, the mixture (no shared expert) and the router."""
    return mixture_coverage(
        config,
        measures,
        experts_key="num_experts",
        shared=False,
        layers=sparse_clause(config),
        attention=QK_NORM_ATTENTION,
    )


FAMILY = Family(
    key="qwen3_moe",
    title="Qwen3-MoE (Qwen3's q/k-normalised attention, mixture of SwiGLU experts)",
    model_types=("qwen3_moe",),
    schemes=(Scheme("layers", ATTENTION, markers=("mlp.gate.weight",)),),
    sizes=size_reader(DECODER_KEYS),
    coverage=qwen3_moe_coverage,
    assemble=mixture_layer,
    measures=mixture_measures,
    markers=("self_attn.q_norm.weight", "self_attn.k_norm.weight"),
    refusal=refusal,
    layer_roles=qwen2_moe_roles,
    layer_extras=(*DECODER_LAYER_EXTRAS, r"self_attn\.[qk]_norm\.weight"),
    outer=DECODER_OUTER,
)
