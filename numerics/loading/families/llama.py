"""LLaMA-style decoders (LLaMA, Mistral, Qwen2): RMSNorm, rotary positions, grouped-query attention, SwiGLU.

Keys ``<prefix>layers.{i}.self_attn.q_proj`` / ``k_proj`` / ``v_proj`` / ``o_proj`` and
``mlp.gate_proj`` / ``up_proj`` / ``down_proj`` (``nn.Linear``). k_proj and v_proj have K d_h rows for K
key/value heads (``num_key_value_heads``); query head h uses key/value head h // (H/K) (see
:mod:`numerics.spectra.matrices`). The feed-forward W_down (silu(W_gate x) * W_up x) enters the bound as
M_in = [W_gate; W_up]^T and M_out = W_down^T.
"""

from __future__ import annotations

from collections.abc import Mapping

from numerics.loading import coverage as c
from numerics.loading.families.base import Family, Scheme, size_reader
from numerics.loading.weights import LayerWeights


def llama_measures(
    layer: LayerWeights, num_heads: int, kv_heads: int, norms: Mapping[str, float] | None = None
) -> dict[str, float]:
    """Per layer: the SwiGLU Lipschitz constant on the unit ball, the position-free max_h sigma_1 bound.

    ``norms`` (spectral norms the spectra computed from the same read: ``w_out``, ``w_gate``, ``w_in``,
    and per query head h ``wq.h`` = sigma_1(Wq_h) and ``wk.h`` = sigma_1 of the key block head h reads)
    replaces this function's own SVDs; the figures agree to rounding (both backward stable).
    """
    from numerics.bounds import (
        reach,  # reach evaluates theory formulas; numerics.formulas.evaluate imports loading
    )

    if norms is not None:
        horn = max(norms[f"wq.{h}"] * norms[f"wk.{h}"] for h in range(num_heads))
    else:
        dh = layer.wq.shape[0] // num_heads
        group = num_heads // kv_heads
        horn = max(
            float(
                reach.horn_singular_values(
                    layer.wq[h * dh : (h + 1) * dh].T, layer.wk[(h // group) * dh : (h // group + 1) * dh]
                )[0]
            )
            for h in range(num_heads)
        )
    return {
        "swiglu_lipschitz_unit_ball": float(reach.swiglu_lipschitz(layer, norms=norms)),
        "rotary_qk_spectral_bound": horn,
    }


def llama_coverage(measures: Mapping[str, float]) -> tuple[c.Coverage, ...]:
    """Pre-RMSNorm causal decoder with rotary positions, grouped-query attention and SwiGLU."""
    return (
        c.Coverage(
            "attention",
            "exact",
            "multi-head softmax attention; grouped-query: head h shares key/value head h // (H/K), so QK_h = "
            "Wq_h^T Wk_g and Vt_h = Wv_g^T Wo_h^T with g = h // (H/K) (weights shared within a group)",
            "reconstructed: our mapping, tested against the transformers forward pass",
        ),
        c.Coverage(
            "positions",
            "assumption",
            "rotary embeddings: head h's bilinear form is Wq_h^T R_t Wk_h at relative offset t; the bound "
            "is evaluated at t = 0; for every t, sum_i sigma_i^p <= sum_i (sigma_i(Wq_h) sigma_i(Wk_h))^p "
            "(p > 0), "
            "sigma_1 <= sigma_1(Wq_h) sigma_1(Wk_h) and rank <= d_h; value: max over layers and heads of "
            "that position-free sigma_1 bound",
            "standard: Horn 1950; Horn & Johnson, Topics in Matrix Analysis, Thm 3.3.4 and 3.3.14",
            measures.get("rotary_qk_spectral_bound"),
        ),
        c.Coverage(
            "feed-forward",
            "outside",
            "SwiGLU W_down (silu(W_gate x) * W_up x) is not globally Lipschitz; M_in = [W_gate; W_up]^T, "
            "M_out = W_down^T; under the assumption ||x||_2 <= b its Lipschitz constant is <= "
            "||W_down|| b (1.0998 r(W_up) ||W_gate|| + r(W_gate) ||W_up||), r = largest row norm; value: "
            "max over layers at b = 1 (it scales linearly in b)",
            "reconstructed: theory.gated (mean-value bound; sup |silu'| = 1.0998 located by sympy nsolve)",
            measures.get("swiglu_lipschitz_unit_ball"),
        ),
        c.SOFTMAX_CAUSAL,
        c.RMS_NORM_PRE,
        c.Coverage(
            "biases",
            "outside",
            "LLaMA and Mistral have no projection biases; Qwen2's q/k/v biases are dropped",
            "exact: the authors' extract.py keeps weights only",
        ),
    )


FAMILY = Family(
    key="llama",
    title="LLaMA / Mistral / Qwen2 (pre-RMSNorm causal decoder, rotary, GQA, SwiGLU)",
    model_types=("llama", "mistral", "qwen2"),
    schemes=(
        Scheme(
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
        ),
    ),
    sizes=size_reader(
        {
            "num_layers": "num_hidden_layers",
            "hidden_size": "hidden_size",
            "num_heads": "num_attention_heads",
            "num_kv_heads": "num_key_value_heads",
            "ffn_size": "intermediate_size",
        }
    ),
    coverage=llama_coverage,
    measures=llama_measures,
)
