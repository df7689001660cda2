"""OLMo 2: LLaMA's projections with a q/k RMSNorm over the whole projection and norms after each sub-block.

Keys as LLaMA's (``<prefix>layers.{i}.self_attn.q_proj`` ... ``mlp.down_proj``), plus
``self_attn.q_norm`` (H d_h gains) and ``self_attn.k_norm`` (K d_h gains), ``post_attention_layernorm``
and ``post_feedforward_layernorm``; no norm before a sub-block. A layer is

    h = x + RMSNorm_post_attn(Attn(x)),   out = h + RMSNorm_post_ff(W_down (silu(W_gate h) * W_up h)),

and inside Attn the queries are q = g_q * (X Wq^T) / rms(X Wq^T), the rms taken over all H d_h entries of a
token's projection (not per head, as Qwen3's), then split into heads and rotated; the keys likewise. So
head h's logit is (g_q * u / rms(u))_h^T R_t (g_k * v / rms(v))_g / sqrt(d_h) with u = Wq x, v = Wk x':
x^T Wq_h^T D_q,h R_t D_k,g Wk_g x' scaled by the token-dependent 1/rms(u) 1/rms(v), whose rms runs over
every head's entries. ||g * u / rms(u)||_2 <= max|g| sqrt(H d_h), so each logit is at most
sqrt(H d_h) sqrt(K d_h) max|g_q| max|g_k| / sqrt(d_h) whatever the input. QK_h = Wq_h^T Wk_g (the form
before the norms) is read and the attention record says outside. The q/k norm gains are read with the
layer (their sizes H d_h and K d_h are checked: a norm of d_h gains is per head, EXAONE 4's or Qwen3's, not
OLMo 2's). Markers: ``self_attn.q_norm.weight`` and ``post_feedforward_layernorm.weight`` (with no
``pre_feedforward_layernorm``, which Gemma 2 and 3 have).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from numerics.loading import coverage as c
from numerics.loading.families.base import DECODER_OUTER, Family, Sizes, linear_layer, size_reader
from numerics.loading.families.llama import (
    DECODER_KEYS,
    DECODER_SCHEME,
    gate_activation,
    rotary_decoder_coverage,
    rotary_measures,
)
from numerics.loading.weights import LayerWeights
from theory.errors import CheckpointError

WHOLE_QK_NORM_ATTENTION = c.Coverage(
    "attention",
    c.CoverageStatus.OUTSIDE,
    "RMSNorm of the whole query and key projections (q_norm: H d_h gains, k_norm: K d_h gains) before the "
    "split into heads: head h's logit is (g_q * u / rms(u))_h^T R_t (g_k * v / rms(v))_g / sqrt(d_h) with "
    "u = Wq x, v = Wk x' and rms over all heads' entries, the form Wq_h^T D_q R_t D_k Wk_g times "
    "token-dependent factors, not the analysed x^T QK_h x'; QK_h = Wq_h^T Wk_g (the form before the norms) "
    "and Vt_h = Wv_g^T Wo_h^T are read; every logit is bounded by sqrt(H K) d_h max|g_q| max|g_k| / "
    "sqrt(d_h) whatever the input",
    "reconstructed: our reading of OLMo 2's forward pass, tested against transformers",
)


def olmo2_roles(base: str, present: frozenset[str]) -> dict[str, str]:
    """The q/k norm gains of a layer, read to check their sizes."""
    return {f"gain.{part}": f"{base}self_attn.{part}.weight" for part in ("q_norm", "k_norm")}


def olmo2_layer(tensors: Mapping[str, np.ndarray], sizes: Sizes) -> LayerWeights:
    """LLaMA's layer, once the q/k norms are seen to span the whole projections (module docstring)."""
    for part, role in (("q_norm", "wq"), ("k_norm", "wk")):
        gain, rows = tensors[f"gain.{part}"], tensors[role].shape[0]
        if gain.shape[0] != rows:
            raise CheckpointError(
                f"its {part} has {gain.shape[0]} gains, not the {rows} rows of {role}: a per-head q/k norm "
                "(EXAONE 4, Qwen3), not OLMo 2's whole-projection norm; give its config.json"
            )
        if not np.isfinite(gain).all():
            raise CheckpointError(f"its {part} gains have NaN or infinite entries; the checkpoint is damaged")
    return linear_layer(tensors, sizes)


def olmo2_coverage(config: Mapping[str, Any], measures: Mapping[str, float]) -> tuple[c.Coverage, ...]:
    """Whole-projection q/k norm outside the class, RMSNorm after each sub-block, rotary, SwiGLU."""
    return rotary_decoder_coverage(
        config,
        measures,
        attention=WHOLE_QK_NORM_ATTENTION,
        activation=gate_activation(config),
        norm=("rms", "post_sublayer"),
    )


FAMILY = Family(
    key="olmo2",
    title="OLMo 2 (causal decoder, whole-projection q/k RMSNorm, RMSNorm after each sub-block, SwiGLU)",
    model_types=("olmo2",),
    schemes=(DECODER_SCHEME,),
    sizes=size_reader(DECODER_KEYS),
    coverage=olmo2_coverage,
    assemble=olmo2_layer,
    measures=rotary_measures,
    markers=("self_attn.q_norm.weight", "post_feedforward_layernorm.weight"),
    layer_roles=olmo2_roles,
    layer_extras=(
        r"(?:post_attention|post_feedforward)_layernorm\.weight",
        r"self_attn\.rotary_emb\.inv_freq",
    ),
    outer=DECODER_OUTER,
)
