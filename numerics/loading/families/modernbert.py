"""ModernBERT: a pre-LN bidirectional encoder with a fused Wqkv, rotary positions, GeGLU and alternating
local (sliding-window) and global attention layers.

Keys ``<prefix>layers.{i}.attn.Wqkv`` (3N x N: rows [0, N) are Wq, [N, 2N) Wk, [2N, 3N) Wv, as
transformers views the output (3, H, d_h)), ``attn.Wo`` (N x N), ``mlp.Wi`` (2F x N: ``chunk(2)`` gives the
activated input, rows [0, F), and the linear gate, rows [F, 2F)) and ``mlp.Wo`` (N x F). The feed-forward
is Wo (act(Wi[:F] x) * Wi[F:] x), which is specbound's gated block W_down (act(W_gate x) * W_up x) with
W_gate = Wi[:F] and W_up = Wi[F:]; the activation is ``hidden_activation`` (exact GELU by default: GeGLU).
LayerNorm (``attn_norm``, absent in layer 0, and ``mlp_norm``) before each sub-block; ``layer_types``
alternates ``sliding_attention`` layers, whose tokens attend within ``local_attention`` / 2 positions
either side, and ``full_attention`` layers, each type with its own rotary base. No projection biases by
default (``attention_bias``, ``mlp_bias``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from numerics.loading import coverage as c
from numerics.loading.families.base import NORM_TENSOR, Family, Scheme, Sizes, size_reader
from numerics.loading.families.bert import BERT_KEYS
from numerics.loading.families.llama import rotary_measures
from numerics.loading.weights import LayerWeights
from theory.errors import CheckpointError

GATE = "gelu"


def modernbert_layer(tensors: Mapping[str, np.ndarray], sizes: Sizes) -> LayerWeights:
    """Split Wqkv into thirds and Wi into its activated and linear halves (module docstring)."""
    fused, wi = tensors["qkv"], tensors["wi"]
    if fused.shape[0] % 3 or wi.shape[0] % 2:
        raise CheckpointError(
            f"ModernBERT's Wqkv has {fused.shape[0]} rows (not 3 N) or its Wi an odd {wi.shape[0]} rows"
        )
    n, f = fused.shape[0] // 3, wi.shape[0] // 2
    return LayerWeights(
        wq=fused[:n],
        wk=fused[n : 2 * n],
        wv=fused[2 * n :],
        wo=tensors["wo"],
        w_in=wi[f:],
        w_out=tensors["w_out"],
        w_gate=wi[:f],
    )


def modernbert_measures(
    layer: LayerWeights, num_heads: int, kv_heads: int, config: Mapping, *, norms: Mapping | None = None
) -> dict[str, float]:
    """The rotary forms' sigma_1 bound and the GeGLU Lipschitz constant on the unit ball."""
    return rotary_measures(
        layer,
        num_heads,
        kv_heads,
        {**config, "hidden_act": config.get("hidden_activation", GATE)},
        norms=norms,
    )


def modernbert_coverage(config: Mapping[str, Any], measures: Mapping[str, float]) -> tuple[c.Coverage, ...]:
    """Pre-LN bidirectional encoder, rotary on every head dimension, GeGLU, local and global layers."""
    local = config.get("local_attention", 128)
    types = config.get("layer_types")
    window = (
        local // 2 if isinstance(local, int) and (types is None or "sliding_attention" in types) else None
    )
    biased_attention, biased_mlp = bool(config.get("attention_bias")), bool(config.get("mlp_bias"))
    return (
        c.at_offset_zero(c.ATTENTION_EXACT),
        c.rotary(measures.get("rotary_qk_spectral_bound")),
        c.feed_forward(
            c.activation_of(config, "hidden_activation", GATE),
            gated=True,
            value=measures.get("gated_lipschitz_unit_ball"),
        ),
        c.masking(causal=False, window=window),
        c.normalisation("layer", "pre"),
        c.biases(biased_attention, biased_mlp),
    )


FAMILY = Family(
    key="modernbert",
    title="ModernBERT (pre-LN encoder, fused Wqkv, rotary, GeGLU, local and global attention)",
    model_types=("modernbert",),
    schemes=(Scheme("layers", {"qkv": "attn.Wqkv", "wo": "attn.Wo", "wi": "mlp.Wi", "w_out": "mlp.Wo"}),),
    sizes=size_reader({key: value for key, value in BERT_KEYS.items()}),
    coverage=modernbert_coverage,
    assemble=modernbert_layer,
    measures=modernbert_measures,
    layer_extras=(rf"(?:attn_norm|mlp_norm){NORM_TENSOR}",),
    outer=(
        rf"embeddings\.(?:tok_embeddings|norm){NORM_TENSOR}",
        rf"final_norm{NORM_TENSOR}",
        rf"head\.(?:dense|norm){NORM_TENSOR}",
        rf"decoder{NORM_TENSOR}",
    ),
)
