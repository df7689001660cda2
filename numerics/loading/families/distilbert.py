"""DistilBERT: BERT's post-LN encoder block under other module names (q_lin ... ffn.lin2).

Keys ``<prefix>transformer.layer.{i}.attention.q_lin`` etc. (``nn.Linear``); config keys ``n_layers``,
``dim``, ``n_heads``, ``hidden_dim``. The block is BERT's (post-LN), its activation the config's
``activation`` (GELU by default).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from numerics.loading import coverage as c
from numerics.loading.families.base import NORM_TENSOR, Family, Scheme, size_reader
from numerics.loading.families.bert import encoder_coverage


def distilbert_coverage(config: Mapping[str, Any], measures: Mapping[str, float]) -> tuple[c.Coverage, ...]:
    """BERT's post-LN encoder, activation ``activation``."""
    return encoder_coverage(c.activation_of(config, "activation", "gelu"), "post")


FAMILY = Family(
    key="distilbert",
    title="DistilBERT (post-LN encoder)",
    model_types=("distilbert",),
    schemes=(
        Scheme(
            "transformer.layer",
            {
                "wq": "attention.q_lin",
                "wk": "attention.k_lin",
                "wv": "attention.v_lin",
                "wo": "attention.out_lin",
                "w_in": "ffn.lin1",
                "w_out": "ffn.lin2",
            },
        ),
    ),
    sizes=size_reader(
        {"num_layers": "n_layers", "hidden_size": "dim", "num_heads": "n_heads", "ffn_size": "hidden_dim"}
    ),
    coverage=distilbert_coverage,
    layer_extras=(rf"(?:sa_layer_norm|output_layer_norm){NORM_TENSOR}",),
    outer=(
        rf"embeddings\.(?:word_embeddings|position_embeddings|LayerNorm){NORM_TENSOR}",
        r"embeddings\.position_ids",
    ),
)
