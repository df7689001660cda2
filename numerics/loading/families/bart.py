"""BART, mBART and Whisper: encoder-decoders with BART's layer naming (:mod:`.seq2seq`).

Keys ``<prefix>encoder.layers.{i}.self_attn.q_proj`` / ``k_proj`` / ``v_proj`` / ``out_proj``, ``fc1``
(Win), ``fc2`` (Wout) (``nn.Linear``, with biases; Whisper's ``k_proj`` has none), and in
``<prefix>decoder.layers.{j}.`` the same plus the cross-attention ``encoder_attn.q_proj`` ... ``out_proj``.
The logits are scaled by d_h^(-1/2) (the query is multiplied by it), the activation is
``activation_function`` (GELU by default). LayerNorm is placed after each residual sum in BART (post-LN,
and once on the embedded input, ``layernorm_embedding``), before each sub-block with a final one per stack
in mBART (``encoder.layer_norm``, plus ``layernorm_embedding``) and Whisper. BART and mBART add learned
absolute positions to the tokens; Whisper's encoder takes log-mel features through two Conv1d layers
(kernel 3, the second of stride 2, GELU after each) and adds fixed sinusoidal positions, its decoder learned
ones. Config keys ``d_model``, ``encoder_layers`` + ``decoder_layers``, ``encoder_attention_heads``,
``encoder_ffn_dim`` (the decoder's heads and width must equal the encoder's).

The three share their layer tensors and differ in what lies outside the stacks, which tells them apart
without a config: a final ``encoder.layer_norm`` (mBART, Whisper; BART has none, and mBART refuses a file
without it), the convolutions (Whisper only), ``layernorm_embedding`` and ``shared`` (BART and mBART only).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from numerics.loading import coverage as c
from numerics.loading.families.base import NORM_TENSOR, Family, Scheme, size_reader
from numerics.loading.families.seq2seq import (
    ENCODER_DECODER,
    MASKING,
    cross_modules,
    seq2seq_layer,
    stack_problem,
)

SELF = {"wq": "q_proj", "wk": "k_proj", "wv": "v_proj", "wo": "out_proj"}
LAYER = {**{role: f"self_attn.{name}" for role, name in SELF.items()}, "w_in": "fc1", "w_out": "fc2"}
SCHEME = Scheme(
    "encoder.layers",
    LAYER,
    decoder=Scheme("decoder.layers", {**LAYER, **cross_modules("encoder_attn", SELF)}),
)
KEYS = {
    "hidden_size": "d_model",
    "num_heads": "encoder_attention_heads",
    "ffn_size": "encoder_ffn_dim",
}
LAYER_EXTRAS = (rf"(?:self_attn_layer_norm|encoder_attn_layer_norm|final_layer_norm){NORM_TENSOR}",)
FINAL_NORM = r"encoder\.layer_norm\.weight"
BART_OUTER = (
    r"shared\.weight",
    rf"(?:encoder|decoder)\.(?:embed_tokens|embed_positions|layernorm_embedding){NORM_TENSOR}",
    r"final_logits_bias",
)
WHISPER_INPUT = c.Coverage(
    "input",
    c.CoverageStatus.OUTSIDE,
    "the encoder's front end, two Conv1d layers over the log-mel features (kernel 3, the second of stride "
    "2, GELU after each) plus fixed sinusoidal positions, and the decoder's token embedding plus learned "
    "positions, act on the stacks' inputs once: the bound starts at the first layer's input and says "
    "nothing of the convolutions (not read, not bounded)",
    "reconstructed: our reading of Whisper's forward pass",
)


def bart_problem(config: Mapping[str, Any], names: tuple[str, ...]) -> str | None:
    """The encoder and decoder sizes (:func:`~.seq2seq.stack_problem`)."""
    return stack_problem(
        config,
        names,
        (("encoder_layers", "encoder.layers"), ("decoder_layers", "decoder.layers")),
        (("encoder_attention_heads", "decoder_attention_heads"), ("encoder_ffn_dim", "decoder_ffn_dim")),
    )


def final_norm_problem(config: Mapping[str, Any], names: tuple[str, ...]) -> str | None:
    """mBART and Whisper place LayerNorm before each sub-block, with a final one per stack: a file without
    that final norm is post-LN BART's, which reading it as pre-LN would misdescribe."""
    if not any(name.endswith("encoder.layer_norm.weight") for name in names):
        return (
            "it has no final encoder LayerNorm (encoder.layer_norm), which pre-LN mBART and Whisper have: "
            "a post-LN BART file? give its config.json or pass --family bart"
        )
    return bart_problem(config, names)


def whisper_problem(config: Mapping[str, Any], names: tuple[str, ...]) -> str | None:
    """Whisper's convolutional front end must be in the file (else it is another encoder-decoder)."""
    if not any(name.endswith("encoder.conv1.weight") for name in names):
        return "it has no convolutional front end (encoder.conv1), which every Whisper model has"
    return final_norm_problem(config, names)


def _coverage(config: Mapping[str, Any], placement: str, *positions: c.Coverage) -> tuple[c.Coverage, ...]:
    return (
        ENCODER_DECODER,
        c.ATTENTION_EXACT,
        c.feed_forward(c.activation_of(config, "activation_function", "gelu"), gated=False),
        MASKING,
        c.normalisation("layer", placement),
        c.biases(True, True),
        *positions,
    )


def bart_coverage(config: Mapping[str, Any], measures: Mapping[str, float]) -> tuple[c.Coverage, ...]:
    """Post-LN encoder-decoder, learned absolute positions."""
    return _coverage(config, "post", c.ABSOLUTE_POSITIONS)


def mbart_coverage(config: Mapping[str, Any], measures: Mapping[str, float]) -> tuple[c.Coverage, ...]:
    """Pre-LN encoder-decoder, learned absolute positions."""
    return _coverage(config, "pre", c.ABSOLUTE_POSITIONS)


def whisper_coverage(config: Mapping[str, Any], measures: Mapping[str, float]) -> tuple[c.Coverage, ...]:
    """Pre-LN encoder-decoder behind a convolutional front end."""
    return _coverage(config, "pre", WHISPER_INPUT)


def _family(key: str, title: str, coverage: Any, refusal: Any, outer: tuple[str, ...]) -> Family:
    return Family(
        key=key,
        title=title,
        model_types=(key,),
        schemes=(SCHEME,),
        sizes=size_reader(KEYS),
        coverage=coverage,
        assemble=seq2seq_layer,
        refusal=refusal,
        layer_extras=LAYER_EXTRAS,
        outer=outer,
    )


BART = _family(
    "bart", "BART (post-LN encoder-decoder, learned positions, GELU)", bart_coverage, bart_problem, BART_OUTER
)
MBART = _family(
    "mbart",
    "mBART (pre-LN encoder-decoder, learned positions, GELU)",
    mbart_coverage,
    final_norm_problem,
    (*BART_OUTER, rf"(?:encoder|decoder)\.layer_norm{NORM_TENSOR}"),
)
WHISPER = _family(
    "whisper",
    "Whisper (pre-LN encoder-decoder behind a convolutional front end, GELU)",
    whisper_coverage,
    whisper_problem,
    (
        rf"encoder\.(?:conv1|conv2|embed_positions|layer_norm){NORM_TENSOR}",
        rf"decoder\.(?:embed_tokens|embed_positions|layer_norm){NORM_TENSOR}",
        r"proj_out\.weight",
    ),
)
