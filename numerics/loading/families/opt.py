"""OPT: a causal decoder with learned absolute positions, ReLU, and pre- or post-LN by config.

Keys ``<prefix>decoder.layers.{i}.self_attn.q_proj`` / ``k_proj`` / ``v_proj`` / ``out_proj``, ``fc1``
(Win), ``fc2`` (Wout) (``nn.Linear``); config keys ``num_hidden_layers``, ``hidden_size``,
``num_attention_heads``, ``ffn_dim``. ``do_layer_norm_before`` chooses pre-LN (True) or post-LN (the 350m
model); ``activation_function`` is ReLU by default; ``enable_bias`` says whether the projections carry
biases. Learned positions (offset by 2) and the optional project_in/project_out around the stack act on the
input and output only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from numerics.loading import coverage as c
from numerics.loading.families.base import NORM_TENSOR, Family, Scheme, size_reader


def opt_coverage(config: Mapping[str, Any], measures: Mapping[str, float]) -> tuple[c.Coverage, ...]:
    """Causal decoder, activation ``activation_function``, LayerNorm placed by ``do_layer_norm_before``."""
    biased = config.get("enable_bias", True) is not False
    return (
        c.ATTENTION_EXACT,
        c.feed_forward(c.activation_of(config, "activation_function", "relu"), gated=False),
        c.masking(causal=True),
        c.normalisation("layer", "post" if config.get("do_layer_norm_before", True) is False else "pre"),
        c.biases(biased, biased),
        c.ABSOLUTE_POSITIONS,
    )


FAMILY = Family(
    key="opt",
    title="OPT (causal decoder, learned positions, ReLU, pre- or post-LN)",
    model_types=("opt",),
    schemes=(
        Scheme(
            "decoder.layers",
            {
                "wq": "self_attn.q_proj",
                "wk": "self_attn.k_proj",
                "wv": "self_attn.v_proj",
                "wo": "self_attn.out_proj",
                "w_in": "fc1",
                "w_out": "fc2",
            },
        ),
    ),
    sizes=size_reader(
        {
            "num_layers": "num_hidden_layers",
            "hidden_size": "hidden_size",
            "num_heads": "num_attention_heads",
            "ffn_size": "ffn_dim",
        }
    ),
    coverage=opt_coverage,
    layer_extras=(rf"(?:self_attn_layer_norm|final_layer_norm){NORM_TENSOR}",),
    outer=(
        rf"decoder\.(?:embed_tokens|embed_positions|final_layer_norm|project_in|project_out){NORM_TENSOR}",
    ),
)
