"""Qwen3: LLaMA's decoder (same projection names, GQA, SwiGLU, rotary, explicit ``head_dim``) with a per-head
RMSNorm on queries and keys (``self_attn.q_norm``, ``self_attn.k_norm``, weights of size d_h).

The q/k norm changes the bilinear form. With u = Wq_h x_m and v = Wk_g x_n, head h's logit is

    (g_q * u / rms(u))^T R_t (g_k * v / rms(v)) / sqrt(d_h),   rms(u) = sqrt(mean(u_i^2) + eps),

so the logits are x_m^T Wq_h^T D_q R_t D_k Wk_g x_n scaled by the token-dependent factors 1/rms(u) 1/rms(v)
(D = diag(g)): not the form x^T QK_h x' of the analysed class. They do not grow with the scale of Wq_h,
Wk_g (the factors cancel it), and ||g * u / rms(u)||_2 <= max|g| sqrt(d_h), so every logit lies within
sqrt(d_h) max|g_q| max|g_k| whatever the input. The matrices read are the projections themselves:
QK_h = Wq_h^T Wk_g (the form before the norms, as the authors' extract.py would keep weights only), and the
attention coverage record says "outside". The tensors ``self_attn.q_norm.weight`` are Qwen3's marker: a
checkpoint without a ``model_type`` that has them is read as Qwen3, never as LLaMA.
"""

from __future__ import annotations

from collections.abc import Mapping
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

QK_NORM_ATTENTION = c.Coverage(
    "attention",
    c.CoverageStatus.OUTSIDE,
    "per-head RMSNorm of queries and keys (q_norm, k_norm): head h's logit is "
    "(g_q * u / rms(u))^T R_t (g_k * v / rms(v)) / sqrt(d_h) with u = Wq_h x, v = Wk_g x' (g = h // (H/K)), "
    "the bilinear form Wq_h^T D_q R_t D_k Wk_g times token-dependent factors 1/rms(u) 1/rms(v), not the "
    "analysed x^T QK_h x'; QK_h = Wq_h^T Wk_g (the form before the norms) and Vt_h = Wv_g^T Wo_h^T are "
    "read; every logit is bounded by sqrt(d_h) max|g_q| max|g_k| whatever the input",
    "reconstructed: our reading of the q/k-norm forward pass, tested against transformers",
)


def qwen3_coverage(config: Mapping[str, Any], measures: Mapping[str, float]) -> tuple[c.Coverage, ...]:
    """LLaMA's records with the q/k-normalised attention outside the class."""
    return rotary_decoder_coverage(
        config, measures, attention=QK_NORM_ATTENTION, activation=gate_activation(config)
    )


FAMILY = Family(
    key="qwen3",
    title="Qwen3 (LLaMA's decoder with per-head q/k RMSNorm)",
    model_types=("qwen3",),
    schemes=(DECODER_SCHEME,),
    sizes=size_reader(DECODER_KEYS),
    coverage=qwen3_coverage,
    measures=rotary_measures,
    markers=("self_attn.q_norm.weight", "self_attn.k_norm.weight"),
    layer_extras=(*DECODER_LAYER_EXTRAS, r"self_attn\.[qk]_norm\.weight"),
    outer=DECODER_OUTER,
)
