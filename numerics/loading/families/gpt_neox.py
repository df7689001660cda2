"""GPT-NeoX and Pythia: a pre-LN causal decoder with a fused, per-head interleaved query_key_value, partial
rotary positions and (by default) a parallel residual.

Keys ``<prefix>layers.{i}.attention.query_key_value`` (3 H d_h x N, per head: rows [3 h d_h, 3 h d_h + d_h)
are Wq_h, the next d_h Wk_h, the next d_h Wv_h, as transformers views it (H, 3 d_h) and chunks the last
axis), ``attention.dense`` (Wo), ``mlp.dense_h_to_4h`` (Win), ``mlp.dense_4h_to_h`` (Wout); config keys as
LLaMA's. Rotary rotates the first ``rotary_pct`` d_h dimensions of each head (``partial_rotary_factor``).
With ``use_parallel_residual`` a layer is x + Attn(LN1 x) + FFN(LN2 x): attention and feed-forward read the
same input rather than one after the other.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from numerics.loading import coverage as c
from numerics.loading.families.base import NORM_TENSOR, Family, Scheme, Sizes, size_reader
from numerics.loading.families.llama import DECODER_KEYS, rotary_decoder_coverage, rotary_measures
from numerics.loading.weights import LayerWeights
from theory.errors import CheckpointError

PARALLEL_RESIDUAL = c.Coverage(
    "residual",
    c.CoverageStatus.OUTSIDE,
    "parallel residual x + Attn(LN1 x) + FFN(LN2 x): attention and feed-forward read the same input and "
    "their outputs are summed, while the analysed layer applies the feed-forward to the attention's output",
    "reconstructed: our reading of the family's forward pass (use_parallel_residual)",
)


def neox_layer(tensors: Mapping[str, np.ndarray], sizes: Sizes) -> LayerWeights:
    """Split the per-head interleaved query_key_value into Wq, Wk, Wv (module docstring)."""
    fused = tensors["qkv"]
    heads = sizes.num_heads
    if heads is None:
        raise CheckpointError(
            "GPT-NeoX's fused query_key_value interleaves the heads: splitting it needs a config.json "
            "with num_attention_heads, or num_heads= (--num-heads)"
        )
    if fused.shape[0] % (3 * heads):
        raise CheckpointError(
            f"GPT-NeoX's query_key_value has {fused.shape[0]} rows, not 3 H d_h for H={heads}"
        )
    per_head = fused.reshape(heads, 3, fused.shape[0] // (3 * heads), fused.shape[1])
    q, k, v = (per_head[:, part].reshape(-1, fused.shape[1]) for part in range(3))
    return LayerWeights(wq=q, wk=k, wv=v, wo=tensors["wo"], w_in=tensors["w_in"], w_out=tensors["w_out"])


def neox_coverage(config: Mapping[str, Any], measures: Mapping[str, float]) -> tuple[c.Coverage, ...]:
    """Pre-LN decoder, activation ``hidden_act``, partial rotary, biases as ``attention_bias`` says (the
    feed-forward always has them), and the parallel residual when used."""
    records = rotary_decoder_coverage(
        config,
        measures,
        attention=c.ATTENTION_EXACT,
        activation=c.activation_of(config, "hidden_act", "gelu"),
        gated=False,
        norm=("layer", "pre"),
        attention_biases=True,
        mlp_biases=True,
    )
    parallel = config.get("use_parallel_residual", True) is not False
    return (*records, PARALLEL_RESIDUAL) if parallel else records


FAMILY = Family(
    key="gpt_neox",
    title="GPT-NeoX / Pythia (pre-LN causal decoder, fused per-head QKV, partial rotary)",
    model_types=("gpt_neox",),
    schemes=(
        Scheme(
            "layers",
            {
                "qkv": "attention.query_key_value",
                "wo": "attention.dense",
                "w_in": "mlp.dense_h_to_4h",
                "w_out": "mlp.dense_4h_to_h",
            },
        ),
    ),
    sizes=size_reader({key: value for key, value in DECODER_KEYS.items() if key != "num_kv_heads"}),
    coverage=neox_coverage,
    assemble=neox_layer,
    measures=rotary_measures,
    needs_heads=True,
    layer_extras=(
        rf"(?:input_layernorm|post_attention_layernorm){NORM_TENSOR}",
        r"attention\.(?:rotary_emb\.inv_freq|bias|masked_bias)",
    ),
    outer=(rf"(?:embed_in|final_layer_norm|emb_layer_norm){NORM_TENSOR}", r"rotary_emb\.inv_freq"),
)
