"""Gemma 3 (text): Gemma 2's decoder with a per-head q/k RMSNorm in place of the soft cap.

Keys as Gemma 2's (LLaMA's projections, ``input_layernorm``, ``post_attention_layernorm``,
``pre_feedforward_layernorm``, ``post_feedforward_layernorm``) plus ``self_attn.q_norm`` / ``k_norm``
(d_h gains, applied as x / rms(x) * (1 + w) per head, before the rotation). Logits are scaled by
``query_pre_attn_scalar``^(-1/2) (256 by default); ``layer_types`` alternates sliding-window layers
(``sliding_window`` tokens, rotary base ``rope_local_base_freq``) and global ones (their own rotary base):
the rotation's frequencies differ by layer, the Horn bound of the positions record holds for any.
``attn_logit_softcapping`` is None by default (a config that sets it caps the logits as Gemma 2 does). As
for Qwen3, head h's logit is (D_q u / rms(u))^T R_t (D_k v / rms(v)) times the scale, with D = diag(1 + w):
outside the analysed form; QK_h = Wq_h^T Wk_g (the form before the norms) is read, and every logit is at
most d_h max|1 + w_q| max|1 + w_k| / sqrt(query_pre_attn_scalar) whatever the input. Model type
``gemma3_text`` (the multimodal ``gemma3`` holds a vision tower as well). Markers: ``self_attn.q_norm`` and
``pre_feedforward_layernorm``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from numerics.loading import coverage as c
from numerics.loading.families.base import DECODER_LAYER_EXTRAS, DECODER_OUTER, Family, size_reader
from numerics.loading.families.gemma import GATE, SCALED_EMBEDDING, gemma_measures
from numerics.loading.families.llama import (
    DECODER_KEYS,
    DECODER_SCHEME,
    gate_activation,
    rotary_decoder_coverage,
)


def _attention(config: Mapping[str, Any]) -> c.Coverage:
    """The per-head (1 + w) q/k-normalised attention, its scale and any soft cap (module docstring)."""
    scalar = config.get("query_pre_attn_scalar", 256)
    cap = config.get("attn_logit_softcapping")
    capped = f", then soft-capped z -> {cap} tanh(z / {cap})" if cap is not None else ""
    return c.Coverage(
        "attention",
        c.CoverageStatus.OUTSIDE,
        "per-head RMSNorm with gain 1 + w of queries and keys (q_norm, k_norm) before the rotation: head h's "
        f"logit is (D_q u / rms(u))^T R_t (D_k v / rms(v)) / sqrt({scalar}) (query_pre_attn_scalar){capped}, "
        "u = Wq_h x, v = Wk_g x', D = diag(1 + w): the bilinear form Wq_h^T D_q R_t D_k Wk_g times "
        "token-dependent factors, not the analysed x^T QK_h x'; QK_h = Wq_h^T Wk_g (the form before the "
        "norms) and Vt_h = Wv_g^T Wo_h^T are read; every logit is bounded by d_h max|1 + w_q| max|1 + w_k| / "
        f"sqrt({scalar}) whatever the input",
        "reconstructed: our reading of Gemma 3's forward pass, tested against transformers",
    )


def gemma3_coverage(config: Mapping[str, Any], measures: Mapping[str, float]) -> tuple[c.Coverage, ...]:
    """Sandwich (1 + w) RMSNorm decoder, q/k-normalised attention, GeGLU, local/global rotary layers."""
    types = config.get("layer_types")
    window = config.get("sliding_window", 4096)
    local = isinstance(types, list) and "sliding_attention" in types
    records = rotary_decoder_coverage(
        {**config, "sliding_window": window if local or types is None else None},
        measures,
        attention=_attention(config),
        activation=gate_activation(config, GATE),
        norm=("rms1p", "sandwich"),
    )
    return (*records, SCALED_EMBEDDING)


FAMILY = Family(
    key="gemma3",
    title="Gemma 3 text (sandwich-RMSNorm decoder, per-head q/k norm, local/global rotary layers, GeGLU)",
    model_types=("gemma3_text",),
    schemes=(DECODER_SCHEME,),
    sizes=size_reader(DECODER_KEYS),
    coverage=gemma3_coverage,
    measures=gemma_measures,
    markers=("self_attn.q_norm.weight", "pre_feedforward_layernorm.weight"),
    layer_extras=(
        *DECODER_LAYER_EXTRAS,
        r"(?:pre|post)_feedforward_layernorm\.weight",
        r"self_attn\.[qk]_norm\.weight",
    ),
    outer=DECODER_OUTER,
)
