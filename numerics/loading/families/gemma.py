"""Gemma and Gemma 2: LLaMA's projection names with a GeGLU feed-forward, (1 + w) RMSNorm, a scaled
embedding and an explicit ``head_dim`` (256 in the released models, so H d_h may differ from N).

- Feed-forward W_down (gelu_tanh(W_gate x) * W_up x) (``hidden_act`` / ``hidden_activation``
  ``gelu_pytorch_tanh``): a gated block, not globally Lipschitz; on ||x||_2 <= b its constant is the
  SwiGLU bound with sup |gelu_tanh'| = 1.1290 in place of sup |silu'| (:mod:`theory.gated`).
- RMSNorm x / rms(x) * (1 + w); the token embeddings are multiplied by sqrt(N) before layer 0.
- Gemma 2 adds a norm before and after each sub-block (``pre_feedforward_layernorm``,
  ``post_feedforward_layernorm``: its markers), scales the logits by query_pre_attn_scalar^(-1/2) instead of
  d_h^(-1/2), caps them at c tanh(z / c) (``attn_logit_softcapping``) and alternates sliding-window and
  global layers. The cap is 1-Lipschitz in each logit, so the attention Lipschitz argument is unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from numerics.loading import coverage as c
from numerics.loading.families.base import DECODER_LAYER_EXTRAS, DECODER_OUTER, Family, size_reader
from numerics.loading.families.llama import (
    DECODER_KEYS,
    DECODER_SCHEME,
    gate_activation,
    rotary_decoder_coverage,
    rotary_measures,
)

GATE = "gelu_pytorch_tanh"
gemma_measures = partial(rotary_measures, gate_default=GATE)

SCALED_EMBEDDING = c.Coverage(
    "embedding",
    c.CoverageStatus.ASSUMPTION,
    "the token embeddings are multiplied by sqrt(N) before layer 0; the bound's inputs are those scaled "
    "rows, and its input-norm assumption is on them",
    "reconstructed: our reading of the family's forward pass",
)


DEFAULT_SOFTCAP, DEFAULT_QUERY_SCALAR = 50.0, 256
"""transformers' Gemma2Config defaults of ``attn_logit_softcapping`` and ``query_pre_attn_scalar``: what a
Gemma 2 checkpoint without those keys (or without a config) computes with."""


def _softcapped(config: Mapping[str, Any]) -> c.Coverage:
    """Gemma 2's attention: grouped-query, logits scaled by query_pre_attn_scalar^(-1/2) and soft-capped
    (the config's values, else :data:`DEFAULT_SOFTCAP`; an explicit null cap means none)."""
    cap = config.get("attn_logit_softcapping", DEFAULT_SOFTCAP)
    scalar = config.get("query_pre_attn_scalar", DEFAULT_QUERY_SCALAR)
    scale = f"query_pre_attn_scalar^(-1/2) = {scalar}^(-1/2)" if scalar is not None else "d_h^(-1/2)"
    if cap is None:
        return c.Coverage(
            "attention",
            c.CoverageStatus.EXACT,
            f"{c.ATTENTION_GROUPED.statement}; logits scaled by {scale}",
            c.ATTENTION_GROUPED.provenance,
        )
    return c.Coverage(
        "attention",
        c.CoverageStatus.ASSUMPTION,
        f"{c.ATTENTION_GROUPED.statement}; logits scaled by {scale} and soft-capped, z -> {cap} tanh(z / "
        f"{cap}), before the softmax: the cap is 1-Lipschitz in each logit, so the attention Lipschitz bound "
        "holds unchanged; the class's covering argument is assumed to carry over to the capped form",
        "reconstructed: our reading of the family's forward pass, tested against transformers",
    )


def gemma_coverage(config: Mapping[str, Any], measures: Mapping[str, float]) -> tuple[c.Coverage, ...]:
    """Pre-norm (1 + w) RMSNorm decoder with GeGLU, rotary positions and a scaled embedding."""
    records = rotary_decoder_coverage(
        config, measures, activation=gate_activation(config, GATE), norm=("rms1p", "pre")
    )
    return (*records, SCALED_EMBEDDING)


def gemma2_coverage(config: Mapping[str, Any], measures: Mapping[str, float]) -> tuple[c.Coverage, ...]:
    """Gemma's records with sandwich norms and the scaled, soft-capped attention logits."""
    records = rotary_decoder_coverage(
        config,
        measures,
        attention=_softcapped(config),
        activation=gate_activation(config, GATE),
        norm=("rms1p", "sandwich"),
    )
    return (*records, SCALED_EMBEDDING)


GEMMA = Family(
    key="gemma",
    title="Gemma (pre-RMSNorm causal decoder, rotary, GQA, GeGLU)",
    model_types=("gemma",),
    schemes=(DECODER_SCHEME,),
    sizes=size_reader(DECODER_KEYS),
    coverage=gemma_coverage,
    measures=gemma_measures,
    layer_extras=DECODER_LAYER_EXTRAS,
    outer=DECODER_OUTER,
)
GEMMA2 = Family(
    key="gemma2",
    title="Gemma 2 (sandwich-RMSNorm causal decoder, rotary, GQA, GeGLU, soft-capped logits)",
    model_types=("gemma2",),
    schemes=(DECODER_SCHEME,),
    sizes=size_reader(DECODER_KEYS),
    coverage=gemma2_coverage,
    measures=gemma_measures,
    markers=("pre_feedforward_layernorm.weight", "post_feedforward_layernorm.weight"),
    layer_extras=(*DECODER_LAYER_EXTRAS, r"(?:pre|post)_feedforward_layernorm\.weight"),
    outer=DECODER_OUTER,
)
