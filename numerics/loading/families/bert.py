"""BERT, RoBERTa, XLM-RoBERTa, CamemBERT and ELECTRA encoders: the analysed class up to LayerNorm and biases.

Keys ``<prefix>encoder.layer.{i}.attention.self.query`` etc. (``nn.Linear``, out x in), under any single
wrapper prefix (``bert.``, ``roberta.``, ``model.0.auto_model.`` of a sentence-transformers export, or
none). Post-LN blocks: x + Attn(x) then LayerNorm, x + FFN(x) then LayerNorm; the feed-forward's
activation is the config's ``hidden_act`` (GELU by default).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from numerics.loading import coverage as c
from numerics.loading.families.base import NORM_TENSOR, Family, Scheme, size_reader

BERT_KEYS = {
    "num_layers": "num_hidden_layers",
    "hidden_size": "hidden_size",
    "num_heads": "num_attention_heads",
    "ffn_size": "intermediate_size",
}


def encoder_coverage(
    activation: str, norm_placement: str, *, biases: bool = True, causal: bool = False
) -> tuple[c.Coverage, ...]:
    """A LayerNorm encoder (bidirectional, or causal as a decoder) with learned absolute positions (BERT,
    DistilBERT, ViT)."""
    return (
        c.ATTENTION_EXACT,
        c.feed_forward(activation, gated=False),
        c.masking(causal=causal),
        c.normalisation("layer", norm_placement),
        c.biases(biases, biases),
        c.ABSOLUTE_POSITIONS,
    )


def bert_coverage(config: Mapping[str, Any], measures: Mapping[str, float]) -> tuple[c.Coverage, ...]:
    """Post-LN encoder, activation ``hidden_act``, learned absolute positions; causal with ``is_decoder``."""
    return encoder_coverage(
        c.activation_of(config, "hidden_act", "gelu"), "post", causal=config.get("is_decoder") is True
    )


FAMILY = Family(
    key="bert",
    title="BERT / RoBERTa / ELECTRA (post-LN encoder)",
    model_types=("bert", "roberta", "xlm-roberta", "camembert", "electra"),
    schemes=(
        Scheme(
            "encoder.layer",
            {
                "wq": "attention.self.query",
                "wk": "attention.self.key",
                "wv": "attention.self.value",
                "wo": "attention.output.dense",
                "w_in": "intermediate.dense",
                "w_out": "output.dense",
            },
        ),
    ),
    sizes=size_reader(BERT_KEYS),
    coverage=bert_coverage,
    layer_extras=(rf"attention\.output\.LayerNorm{NORM_TENSOR}", rf"output\.LayerNorm{NORM_TENSOR}"),
    outer=(
        rf"embeddings\.(?:word_embeddings|position_embeddings|token_type_embeddings|LayerNorm){NORM_TENSOR}",
        r"embeddings\.(?:position_ids|token_type_ids)",
        rf"embeddings_project{NORM_TENSOR}",
    ),
)
