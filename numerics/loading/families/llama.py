"""LLaMA-style decoders (LLaMA, Mistral, Qwen2): RMSNorm, rotary positions, grouped-query attention, SwiGLU.

Keys ``<prefix>layers.{i}.self_attn.q_proj`` / ``k_proj`` / ``v_proj`` / ``o_proj`` and
``mlp.gate_proj`` / ``up_proj`` / ``down_proj`` (``nn.Linear``). q_proj has H d_h rows and k_proj, v_proj
K d_h rows for K key/value heads (``num_key_value_heads``), d_h = ``head_dim`` when the config declares
it (it may differ from N / H), else N / H; query head h uses key/value head h // (H/K) (see
:mod:`numerics.spectra.matrices`). The feed-forward W_down (act(W_gate x) * W_up x) enters the bound as
M_in = [W_gate; W_up]^T and M_out = W_down^T.

The helpers here (:data:`DECODER_KEYS`, :data:`DECODER_SCHEME`, :func:`rotary_measures`,
:func:`rotary_decoder_coverage`) serve every rotary decoder family (Qwen3, Gemma, Phi-3, GPT-NeoX).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import mpmath

from numerics.loading import coverage as c
from numerics.loading.families.base import DECODER_LAYER_EXTRAS, DECODER_OUTER, Family, Scheme, size_reader
from numerics.loading.weights import LayerWeights

DECODER_KEYS = {
    "num_layers": "num_hidden_layers",
    "hidden_size": "hidden_size",
    "num_heads": "num_attention_heads",
    "num_kv_heads": "num_key_value_heads",
    "ffn_size": "intermediate_size",
    "head_dim": "head_dim",
}
DECODER_SCHEME = Scheme(
    "layers",
    {
        "wq": "self_attn.q_proj",
        "wk": "self_attn.k_proj",
        "wv": "self_attn.v_proj",
        "wo": "self_attn.o_proj",
        "w_gate": "mlp.gate_proj",
        "w_in": "mlp.up_proj",
        "w_out": "mlp.down_proj",
    },
)


def rotary_horn_bound(
    layer: LayerWeights, num_heads: int, kv_heads: int, norms: Mapping[str, float] | None = None
) -> mpmath.mpf:
    """max_h sigma_1(Wq_h) sigma_1(Wk_g): the position-free sigma_1 bound of the rotary forms of a layer
    (each product in mpmath: for weights around 1e160 it overflows float64).

    ``norms`` (spectral norms the spectra computed from the same read, per query head h ``wq.h`` =
    sigma_1(Wq_h) and ``wk.h`` = sigma_1 of the key block head h reads) replaces this function's SVDs; the
    figures agree to rounding (both backward stable).
    """
    from numerics.bounds import reach  # here: reach's formulas import sympy, needed only when measuring

    if norms is not None:
        return max(mpmath.mpf(norms[f"wq.{h}"]) * mpmath.mpf(norms[f"wk.{h}"]) for h in range(num_heads))
    dh = layer.wq.shape[0] // num_heads
    group = num_heads // kv_heads
    return max(
        reach.horn_top_singular_value(
            layer.wq[h * dh : (h + 1) * dh].T, layer.wk[(h // group) * dh : (h // group + 1) * dh]
        )
        for h in range(num_heads)
    )


def gate_activation(config: Mapping[str, Any], default: str = "silu") -> str:
    """The gate's activation: ``hidden_activation`` (Gemma 2) or ``hidden_act``, else ``default``."""
    return c.activation_of(config, "hidden_activation", c.activation_of(config, "hidden_act", default))


def rotary_fraction(config: Mapping[str, Any]) -> float:
    """The share of each head's dimensions that rotary rotates: ``partial_rotary_factor`` (top level or in
    ``rope_parameters``) or GPT-NeoX's ``rotary_pct``, else 1."""
    rope = config.get("rope_parameters")
    candidates = (
        config.get("partial_rotary_factor"),
        rope.get("partial_rotary_factor") if isinstance(rope, Mapping) else None,
        config.get("rotary_pct"),
    )
    return next((float(value) for value in candidates if isinstance(value, (int, float))), 1.0)


def rotary_measures(
    layer: LayerWeights,
    num_heads: int,
    kv_heads: int,
    config: Mapping,
    gate_default: str = "silu",
    *,
    norms: Mapping[str, float] | None = None,
) -> dict[str, float]:
    """Per layer: the rotary forms' position-free sigma_1 bound, and for a gated block its Lipschitz
    constant on the unit ball (gate activation from the config, else ``gate_default``). ``norms``: spectral
    norms the spectra already computed from the same read (:func:`rotary_horn_bound`,
    :func:`numerics.bounds.reach.swiglu_lipschitz`), else computed here."""
    from numerics.bounds import reach  # here: reach's formulas import sympy, needed only when measuring

    out = {"rotary_qk_spectral_bound": rotary_horn_bound(layer, num_heads, kv_heads, norms)}
    kind = c.activation_kind(gate_activation(config, gate_default))
    if layer.w_gate is not None and kind in ("silu", "tanh", "gelu"):
        out["gated_lipschitz_unit_ball"] = reach.swiglu_lipschitz(
            layer, gate=kind, norms=norms
        )  # mpmath: may pass 1e308
    return out


def rotary_decoder_coverage(
    config: Mapping[str, Any],
    measures: Mapping[str, float],
    *,
    attention: c.Coverage = c.ATTENTION_GROUPED,
    activation: str = "silu",
    gated: bool = True,
    norm: tuple[str, str] = ("rms", "pre"),
    attention_biases: bool = False,
    mlp_biases: bool = False,
) -> tuple[c.Coverage, ...]:
    """The records of a causal decoder with rotary positions; bias, window, masking and rotary fields read
    from the config (``attention_bias``, ``mlp_bias``, ``sliding_window``/``use_sliding_window``,
    ``use_bidirectional_attention``, :func:`rotary_fraction`), the given values are the family's defaults.
    The attention record says the analysed form is the one at offset 0 (:func:`~numerics.loading.coverage.
    at_offset_zero`)."""
    window = config.get("sliding_window")
    uses_window = (
        isinstance(window, int) and window > 0 and config.get("use_sliding_window", True) is not False
    )
    return (
        c.at_offset_zero(attention),
        c.rotary(measures.get("rotary_qk_spectral_bound"), rotary_fraction(config)),
        c.feed_forward(activation, gated=gated, value=measures.get("gated_lipschitz_unit_ball")),
        c.masking(
            causal=config.get("use_bidirectional_attention") is not True,
            window=window if uses_window else None,
        ),
        c.normalisation(*norm),
        c.biases(
            bool(config.get("attention_bias", attention_biases)), bool(config.get("mlp_bias", mlp_biases))
        ),
    )


def llama_coverage(config: Mapping[str, Any], measures: Mapping[str, float]) -> tuple[c.Coverage, ...]:
    """Pre-RMSNorm causal decoder with rotary positions, grouped-query attention and a gated feed-forward;
    Qwen2's q/k/v projections always carry biases (its modules ignore ``attention_bias``)."""
    if config.get("model_type") == "qwen2":
        config = {**config, "attention_bias": True}
    return rotary_decoder_coverage(config, measures, activation=gate_activation(config))


FAMILY = Family(
    key="llama",
    title="LLaMA / Mistral / Qwen2 (pre-RMSNorm causal decoder, rotary, GQA, SwiGLU)",
    model_types=("llama", "mistral", "qwen2"),
    schemes=(DECODER_SCHEME,),
    sizes=size_reader(DECODER_KEYS),
    coverage=llama_coverage,
    measures=rotary_measures,
    layer_extras=DECODER_LAYER_EXTRAS,
    outer=DECODER_OUTER,
)
