"""BERT, RoBERTa, XLM-RoBERTa, CamemBERT and ELECTRA encoders: the analysed class up to LayerNorm and biases.

Keys ``<prefix>encoder.layer.{i}.attention.self.query`` etc. (``nn.Linear``, out x in), under any single
wrapper prefix (``bert.``, ``roberta.``, ``model.0.auto_model.`` of a sentence-transformers export, or
none). Post-LN blocks: x + Attn(x) then LayerNorm, x + FFN(x) then LayerNorm; GELU feed-forward.
"""

from __future__ import annotations

from collections.abc import Mapping

from numerics.loading import coverage as c
from numerics.loading.families.base import Family, Scheme, size_reader

BERT_KEYS = {
    "num_layers": "num_hidden_layers",
    "hidden_size": "hidden_size",
    "num_heads": "num_attention_heads",
    "ffn_size": "intermediate_size",
}


def bert_coverage(measures: Mapping[str, float]) -> tuple[c.Coverage, ...]:
    """Post-LN encoder with GELU and learned absolute positions."""
    return (c.ATTENTION_EXACT, c.GELU, c.SOFTMAX_UNMASKED, c.LAYER_NORM_POST, c.BIASES, c.ABSOLUTE_POSITIONS)


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
)
