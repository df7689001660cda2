"""ViT: a pre-LN encoder over image patches, with BERT's projections.

Two namings: saved checkpoints use ``<prefix>encoder.layer.{i}.attention.attention.query`` (and
``attention.output.dense``, ``intermediate.dense``, ``output.dense``); transformers 5 modules in memory
use ``layers.{i}.attention.q_proj`` ... ``mlp.fc1``/``mlp.fc2``. Config keys as BERT's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from numerics.loading import coverage as c
from numerics.loading.families.base import NORM_TENSOR, Family, Scheme, size_reader
from numerics.loading.families.bert import BERT_KEYS, encoder_coverage


def vit_coverage(config: Mapping[str, Any], measures: Mapping[str, float]) -> tuple[c.Coverage, ...]:
    """Pre-LN encoder, activation ``hidden_act``, learned absolute positions over patches."""
    return encoder_coverage(c.activation_of(config, "hidden_act", "gelu"), "pre")


FAMILY = Family(
    key="vit",
    title="ViT (pre-LN encoder over patches)",
    model_types=("vit",),
    schemes=(
        Scheme(
            "encoder.layer",
            {
                "wq": "attention.attention.query",
                "wk": "attention.attention.key",
                "wv": "attention.attention.value",
                "wo": "attention.output.dense",
                "w_in": "intermediate.dense",
                "w_out": "output.dense",
            },
        ),
        Scheme(
            "layers",
            {
                "wq": "attention.q_proj",
                "wk": "attention.k_proj",
                "wv": "attention.v_proj",
                "wo": "attention.o_proj",
                "w_in": "mlp.fc1",
                "w_out": "mlp.fc2",
            },
        ),
    ),
    sizes=size_reader(BERT_KEYS),
    coverage=vit_coverage,
    layer_extras=(rf"layernorm_(?:before|after){NORM_TENSOR}",),
    outer=(
        r"embeddings\.(?:cls_token|mask_token|position_embeddings)",
        rf"embeddings\.patch_embeddings\.projection{NORM_TENSOR}",
        rf"layernorm{NORM_TENSOR}",
    ),
)
