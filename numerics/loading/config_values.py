"""The config values the family adapters act on, checked before any is used: one line naming the first
that is out of its domain.

Each key is checked only where the config has it (a missing key takes the family's default): the mixture's
``num_experts_per_tok`` (an integer in [1, the number of experts]), the rotary share
``partial_rotary_factor`` / ``rotary_pct`` (a number in (0, 1]), Gemma 2's ``query_pre_attn_scalar`` (a
positive number) and ``attn_logit_softcapping`` (a positive number or null), Qwen2-MoE's
``mlp_only_layers`` (a list of layer indices) and ``decoder_sparse_step`` (a positive integer).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

EXPERT_COUNT_KEYS = ("num_local_experts", "num_experts", "n_routed_experts")


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _integer(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def config_problem(config: Mapping[str, Any]) -> str | None:
    """Why a config value cannot be used (module docstring), or None."""
    rope = config.get("rope_parameters")
    shares = [("partial_rotary_factor", config.get("partial_rotary_factor", 1.0))]
    if isinstance(rope, Mapping) and "partial_rotary_factor" in rope:
        shares.append(("rope_parameters.partial_rotary_factor", rope["partial_rotary_factor"]))
    if "rotary_pct" in config:
        shares.append(("rotary_pct", config["rotary_pct"]))
    for key, share in shares:
        if share is not None and not (_number(share) and 0 < share <= 1):
            return f"config {key}={share!r} must be a number in (0, 1] (the share of each head rotated)"
    experts = next((config[key] for key in EXPERT_COUNT_KEYS if _integer(config.get(key))), None)
    top_k = config.get("num_experts_per_tok")
    if top_k is not None and not (_integer(top_k) and top_k >= 1 and (experts is None or top_k <= experts)):
        limit = f", at most the {experts} experts" if experts is not None else ""
        return f"config num_experts_per_tok={top_k!r} must be a positive integer{limit}"
    scalar = config.get("query_pre_attn_scalar")
    if scalar is not None and not (_number(scalar) and scalar > 0):
        return f"config query_pre_attn_scalar={scalar!r} must be a positive number (the logits' scale^-2)"
    cap = config.get("attn_logit_softcapping")
    if cap is not None and not (_number(cap) and cap > 0):
        return f"config attn_logit_softcapping={cap!r} must be a positive number or null"
    only = config.get("mlp_only_layers")
    if only is not None and not (isinstance(only, list) and all(_integer(i) and i >= 0 for i in only)):
        return f"config mlp_only_layers={only!r} must be a list of layer indices (non-negative integers)"
    step = config.get("decoder_sparse_step")
    if step is not None and not (_integer(step) and step >= 1):
        return f"config decoder_sparse_step={step!r} must be a positive integer"
    return None
