"""GPT-2: a pre-LN causal decoder whose projections are ``Conv1D`` (in x out) and whose Q, K, V are fused.

Keys ``<prefix>h.{i}.attn.c_attn`` (N x 3N: columns [0, N) are Q, [N, 2N) K, [2N, 3N) V),
``attn.c_proj`` (N x N), ``mlp.c_fc`` (N x F), ``mlp.c_proj`` (F x N). ``Conv1D`` computes x W + b, so
each weight is the transpose of the ``nn.Linear`` one: Wq = c_attn[:, :N]^T and so on. Config keys
``n_layer``, ``n_embd``, ``n_head``, ``n_inner`` (None means 4 n_embd); the activation is
``activation_function`` (tanh-GELU, ``gelu_new``, by default). A GPT-2 with cross-attention
(``add_cross_attention``, ``h.{i}.crossattention.*``) is the decoder of an encoder-decoder: it is refused,
since its cross-attention blocks are not part of the analysed class and reading only the self-attention
would drop them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from numerics.loading import coverage as c
from numerics.loading.families.base import NORM_TENSOR, Family, Scheme, Sizes, size_reader
from numerics.loading.weights import LayerWeights


def gpt2_layer(tensors: Mapping[str, np.ndarray], sizes: Sizes) -> LayerWeights:
    """Split the fused ``c_attn`` into Q, K, V and transpose every ``Conv1D`` weight to out x in."""
    fused = tensors["c_attn"]
    n = fused.shape[0]
    return LayerWeights(
        wq=fused[:, :n].T,
        wk=fused[:, n : 2 * n].T,
        wv=fused[:, 2 * n :].T,
        wo=tensors["wo"].T,
        w_in=tensors["w_in"].T,
        w_out=tensors["w_out"].T,
    )


def _attention(config: Mapping[str, Any]) -> c.Coverage:
    """The analysed attention, unless the logits are scaled otherwise: ``scale_attn_weights`` false (no
    1 / sqrt(d_h)) or ``scale_attn_by_inverse_layer_idx`` (a further 1 / (l + 1) in layer l)."""
    unscaled = config.get("scale_attn_weights", True) is False
    by_layer = config.get("scale_attn_by_inverse_layer_idx") is True
    if not (unscaled or by_layer):
        return c.ATTENTION_EXACT
    scale = ("1" if unscaled else "1 / sqrt(d_h)") + (
        " times 1 / (l + 1) in layer l (0-based)" if by_layer else ""
    )
    return c.Coverage(
        "attention",
        c.CoverageStatus.ASSUMPTION,
        f"multi-head softmax(x Wq_h^T Wk_h x'^T s) x Wv_h^T Wo_h^T, QK_h and Vt_h per head, with the logit "
        f"scale s = {scale} (scale_attn_weights, scale_attn_by_inverse_layer_idx) instead of the analysed "
        "1 / sqrt(d_h): the form is QK_h times a constant per layer, which the bound's matrices do not carry",
        "reconstructed: our reading of GPT-2's attention scaling",
    )


def gpt2_coverage(config: Mapping[str, Any], measures: Mapping[str, float]) -> tuple[c.Coverage, ...]:
    """Pre-LN causal decoder, activation ``activation_function``, learned absolute positions."""
    return (
        _attention(config),
        c.feed_forward(c.activation_of(config, "activation_function", "gelu_new"), gated=False),
        c.masking(causal=True),
        c.normalisation("layer", "pre"),
        c.biases(True, True),
        c.ABSOLUTE_POSITIONS,
    )


def gpt2_refusal(config: Mapping[str, Any], names: tuple[str, ...]) -> str | None:
    """Cross-attention (config ``add_cross_attention`` or ``crossattention`` tensors) is refused."""
    if config.get("add_cross_attention") is True or any(".crossattention." in name for name in names):
        return (
            "it is a GPT-2 with cross-attention (add_cross_attention, h.i.crossattention.*), the decoder of "
            "an encoder-decoder; specbound reads decoder-only GPT-2 (the cross-attention blocks are outside "
            "the analysed class and would otherwise be left out)"
        )
    return None


FAMILY = Family(
    key="gpt2",
    title="GPT-2 (pre-LN causal decoder, Conv1D, fused QKV)",
    model_types=("gpt2",),
    schemes=(
        Scheme(
            "h", {"c_attn": "attn.c_attn", "wo": "attn.c_proj", "w_in": "mlp.c_fc", "w_out": "mlp.c_proj"}
        ),
    ),
    sizes=size_reader(
        {"num_layers": "n_layer", "hidden_size": "n_embd", "num_heads": "n_head", "ffn_size": "n_inner"},
        ffn_size=lambda config: 4 * config["n_embd"] if isinstance(config.get("n_embd"), int) else None,
    ),
    coverage=gpt2_coverage,
    assemble=gpt2_layer,
    refusal=gpt2_refusal,
    layer_extras=(rf"ln_[12]{NORM_TENSOR}", r"attn\.(?:bias|masked_bias)"),
    outer=(rf"(?:wte|wpe|ln_f){NORM_TENSOR}",),
)
