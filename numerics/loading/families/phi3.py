"""Phi-3: LLaMA's decoder (pre-RMSNorm, rotary, GQA, SwiGLU) with fused projections.

Keys ``<prefix>layers.{i}.self_attn.qkv_proj`` ((H + 2K) d_h x N: rows [0, H d_h) are Wq, the next K d_h
Wk, the last K d_h Wv), ``self_attn.o_proj``, ``mlp.gate_up_proj`` (2F x N: rows [0, F) are W_gate, [F, 2F)
W_up, as ``chunk(2)`` splits them) and ``mlp.down_proj``. Splitting qkv_proj needs H and K, so a checkpoint
without a config saying them is refused. Rotary may cover a share of each head (``partial_rotary_factor``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from numerics.loading import coverage as c
from numerics.loading.families.base import (
    DECODER_LAYER_EXTRAS,
    DECODER_OUTER,
    Family,
    Scheme,
    Sizes,
    size_reader,
)
from numerics.loading.families.llama import (
    DECODER_KEYS,
    gate_activation,
    rotary_decoder_coverage,
    rotary_measures,
)
from numerics.loading.weights import LayerWeights
from theory.errors import CheckpointError


def phi3_layer(tensors: Mapping[str, np.ndarray], sizes: Sizes) -> LayerWeights:
    """Split the fused qkv_proj by H and K, and gate_up_proj into its two halves."""
    if sizes.num_heads is None or sizes.num_kv_heads is None:
        raise CheckpointError(
            "Phi-3's fused qkv_proj is split by the number of query and key/value heads: it needs a "
            "config.json with num_attention_heads and num_key_value_heads"
        )
    fused, gate_up = tensors["qkv"], tensors["gate_up"]
    heads = sizes.num_heads + 2 * sizes.num_kv_heads
    if fused.shape[0] % heads or gate_up.shape[0] % 2:
        raise CheckpointError(
            f"Phi-3's qkv_proj has {fused.shape[0]} rows, not (H + 2K) d_h for H={sizes.num_heads}, "
            f"K={sizes.num_kv_heads}, or gate_up_proj has an odd {gate_up.shape[0]} rows"
        )
    dh = fused.shape[0] // heads
    q_end, k_end = sizes.num_heads * dh, (sizes.num_heads + sizes.num_kv_heads) * dh
    half = gate_up.shape[0] // 2
    return LayerWeights(
        wq=fused[:q_end],
        wk=fused[q_end:k_end],
        wv=fused[k_end:],
        wo=tensors["wo"],
        w_in=gate_up[half:],
        w_out=tensors["w_out"],
        w_gate=gate_up[:half],
    )


def phi3_coverage(config: Mapping[str, Any], measures: Mapping[str, float]) -> tuple[c.Coverage, ...]:
    """LLaMA's records (fused projections split exactly; no biases)."""
    return rotary_decoder_coverage(config, measures, activation=gate_activation(config))


FAMILY = Family(
    key="phi3",
    title="Phi-3 (pre-RMSNorm causal decoder, rotary, GQA, SwiGLU, fused qkv_proj and gate_up_proj)",
    model_types=("phi3",),
    schemes=(
        Scheme(
            "layers",
            {
                "qkv": "self_attn.qkv_proj",
                "wo": "self_attn.o_proj",
                "gate_up": "mlp.gate_up_proj",
                "w_out": "mlp.down_proj",
            },
        ),
    ),
    sizes=size_reader(DECODER_KEYS),
    coverage=phi3_coverage,
    assemble=phi3_layer,
    measures=rotary_measures,
    layer_extras=DECODER_LAYER_EXTRAS,
    outer=DECODER_OUTER,
)
