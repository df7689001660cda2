"""Qwen2-MoE: Qwen2's attention (GQA, rotary, q/k/v biases) with mixture-of-experts feed-forwards.

Keys: attention as LLaMA; a sparse layer has ``mlp.experts.{e}.gate_proj`` / ``up_proj`` / ``down_proj``
(width ``moe_intermediate_size``; stacked ``mlp.experts.gate_up_proj`` / ``down_proj`` in a transformers
5 module in memory), the router ``mlp.gate`` (experts x N), the shared expert ``mlp.shared_expert.*``
(width ``shared_expert_intermediate_size``) and its gate vector ``mlp.shared_expert_gate`` (1 x N, a
sigmoid gate). A dense layer has LLaMA's ``mlp.gate_proj`` / ``up_proj`` / ``down_proj`` (width
``intermediate_size``) and is read as dense. Which layers are sparse follows the config as transformers
builds them: layer i is sparse when i is not in ``mlp_only_layers``, ``num_experts`` > 0 and
(i + 1) is a multiple of ``decoder_sparse_step``; a checkpoint whose layers disagree is refused. Gates:
top-k of the softmax over all experts, renormalised only with ``norm_topk_prob`` (either way they sum to
at most 1; :mod:`theory.mixture`). The router and the shared gate are read and kept outside the bound.
The marker ``mlp.shared_expert_gate.weight`` tells Qwen2-MoE from LLaMA and Mixtral without a
``model_type``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from numerics.loading import coverage as c
from numerics.loading.families.base import DECODER_LAYER_EXTRAS, DECODER_OUTER, Family, size_reader
from numerics.loading.families.llama import DECODER_KEYS
from numerics.loading.families.mixtral import (
    ATTENTION_SCHEME,
    ROLES,
    expert_count_refusal,
    expert_roles,
    mixture_coverage,
    mixture_layer,
    mixture_measures,
)
from theory.errors import CheckpointError

MODULES = {"w_gate": "gate_proj", "w_in": "up_proj", "w_out": "down_proj"}


def qwen2_moe_roles(base: str, present: frozenset[str]) -> dict[str, str]:
    """A dense layer's three projections, or a sparse layer's experts, router, shared expert and its gate."""
    dense = {role: f"{base}mlp.{module}.weight" for role, module in MODULES.items()}
    if set(dense.values()) <= present:
        return dense
    roles = expert_roles(base, present, "mlp.", MODULES)
    if not roles:
        raise CheckpointError(
            f"its Qwen2-MoE layer {base.rstrip('.')} has neither a dense feed-forward (mlp.gate_proj) nor "
            "experts (mlp.experts.*)"
        )
    shared = {f"shared_expert.{role}": f"{base}mlp.shared_expert.{MODULES[role]}.weight" for role in ROLES}
    shared["shared_expert_gate"] = f"{base}mlp.shared_expert_gate.weight"
    found = [name for name in shared.values() if name in present]
    if found and len(found) < len(shared):
        missing = ", ".join(name for name in shared.values() if name not in present)
        raise CheckpointError(f"its layer {base.rstrip('.')} has a partial shared expert: it lacks {missing}")
    return {**roles, **(shared if found else {})}


SPARSE_ROUTER = re.compile(r"(?:^|\.)layers\.(\d+)\.mlp\.gate\.weight$")


def sparse_layers(config: Mapping[str, Any], num_layers: int) -> set[int]:
    """The layers transformers builds as mixtures for this config (module docstring)."""
    step = config.get("decoder_sparse_step", 1)
    only = config.get("mlp_only_layers") or []
    experts = config.get("num_experts", 0)
    if not isinstance(step, int) or step < 1 or not isinstance(experts, int):
        return set()
    return {i for i in range(num_layers) if i not in only and experts > 0 and (i + 1) % step == 0}


def refusal(config: Mapping[str, Any], names: tuple[str, ...]) -> str | None:
    """Why the layers cannot be read as the config builds them (its values checked already,
    :mod:`numerics.loading.config_values`): a layer's saved experts are not
    ``num_experts``, or its sparse layers (routers found) differ from those ``decoder_sparse_step`` /
    ``mlp_only_layers`` / ``num_experts`` make sparse."""
    count = expert_count_refusal(config, names, "num_experts")
    if count is not None:
        return count
    layers = config.get("num_hidden_layers")
    found = {int(m[1]) for m in map(SPARSE_ROUTER.search, names) if m is not None}
    if not isinstance(layers, int) or "num_experts" not in config:
        return None  # no config to compare with: each layer is read as its tensors say
    expected = sparse_layers(config, layers)
    if found != expected:
        return (
            f"its mixture-of-experts layers {sorted(found)} differ from those its config makes sparse "
            f"{sorted(expected)} (num_experts, decoder_sparse_step, mlp_only_layers); fix config.json"
        )
    return None


def sparse_clause(config: Mapping[str, Any]) -> str:
    """Which layers are mixtures, as a clause of the mixture record ('' when the config does not say L)."""
    count = config.get("num_hidden_layers")
    if not isinstance(count, int):
        return ""
    sparse = sorted(sparse_layers(config, count))
    return f"; mixtures in layers {sparse} of {count} (decoder_sparse_step, mlp_only_layers), the rest dense"


def qwen2_moe_coverage(config: Mapping[str, Any], measures: Mapping[str, float]) -> tuple[c.Coverage, ...]:
    """Qwen2's records (q/k/v biases unless ``qkv_bias`` is false), the mixture (shared expert) and the
    router."""
    shared = bool(config.get("shared_expert_intermediate_size", 1))
    biased = bool(config.get("attention_bias")) or config.get("qkv_bias") is not False
    return mixture_coverage(
        {**config, "attention_bias": biased},
        measures,
        experts_key="num_experts",
        shared=shared,
        layers=sparse_clause(config),
    )


FAMILY = Family(
    key="qwen2_moe",
    title="Qwen2-MoE (Qwen2's attention, mixture of SwiGLU experts with a shared expert)",
    model_types=("qwen2_moe",),
    schemes=(ATTENTION_SCHEME,),
    sizes=size_reader(DECODER_KEYS),
    coverage=qwen2_moe_coverage,
    assemble=mixture_layer,
    measures=mixture_measures,
    markers=("mlp.shared_expert_gate.weight",),
    refusal=refusal,
    layer_roles=qwen2_moe_roles,
    layer_extras=DECODER_LAYER_EXTRAS,
    outer=DECODER_OUTER,
)
