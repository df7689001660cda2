"""What the encoder-decoder families (T5, BART, mBART, Whisper) share: one sequence of layers, the
cross-attention kept beside each decoder layer, and what the bound then covers.

A model with L_enc encoder and L_dec decoder layers is read as the L = L_enc + L_dec layers encoder 0, ...,
encoder L_enc - 1, decoder 0, ..., decoder L_dec - 1 (:attr:`~numerics.loading.families.base.Scheme.decoder`),
each an attention block (the layer's self-attention) and a feed-forward block. That is the longest chain of
blocks from a source token to an output: through every encoder layer, then into the decoder through a
cross-attention and on through every decoder layer. Each decoder layer's cross-attention (queries from the
decoder's tokens, keys and values from the encoder's output, between the self-attention and the
feed-forward) is read as its own Wq, Wk, Wv, Wo (:class:`~numerics.loading.weights.CrossAttention`), checked
for shape and finiteness, and is outside the analysed class, a single stack of self-attention and
feed-forward blocks: its QK_h and Vt_h are not among the bound's matrices, so the bound at depth L is that
of the L blocks alone. A file with the encoder's stack alone (``T5EncoderModel``) is read as that encoder
(L = L_enc). The layer counts come from the tensors and are checked against the config
(:func:`stack_problem`). Provenance: reconstructed (our reading of transformers' modelling code, tested
against the modules' own weights).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from numerics.loading import coverage as c
from numerics.loading.families.base import Sizes, linear_layer
from numerics.loading.weights import CrossAttention, LayerWeights

CROSS_ROLES = ("wq", "wk", "wv", "wo")

ENCODER_DECODER = c.Coverage(
    "encoder-decoder",
    c.CoverageStatus.OUTSIDE,
    "read as one stack of L = L_enc + L_dec layers, the encoder's (self-attention, feed-forward; layers 0 "
    "to L_enc - 1) then the decoder's (self-attention, feed-forward; layers L_enc to L - 1, none for an "
    "encoder alone): the longest chain of blocks from a source token to an output; each decoder layer's "
    "cross-attention over the encoder's output (its own Wq, Wk, Wv, Wo, read "
    "and checked) is outside the analysed class of self-attention and feed-forward blocks, and its QK_h and "
    "Vt_h are not among the bound's matrices",
    "reconstructed: our reading of the encoder-decoder forward pass, tested against transformers",
)
MASKING = c.Coverage(
    "masking",
    c.CoverageStatus.EXACT,
    "the encoder's self-attention is bidirectional, the decoder's causal (token t attends to 1..t), the "
    "cross-attention runs over every encoder token: each is the unmasked softmax of a subset of the logits, "
    "and max_{s in S} |u_s - v_s| <= max_s |u_s - v_s|, so the softmax lemma's constant holds for each",
    "derived: theory.lipschitz (softmax lemma), applied to the attended tokens",
)


def seq2seq_layer(tensors: Mapping[str, np.ndarray], sizes: Sizes) -> LayerWeights:
    """A layer of either stack: the standard roles, and a decoder layer's ``cross.*`` roles as its
    cross-attention."""
    cross = (
        CrossAttention(*(tensors[f"cross.{role}"] for role in CROSS_ROLES)) if "cross.wq" in tensors else None
    )
    return dataclasses.replace(linear_layer(tensors, sizes), cross=cross)


def cross_modules(attention: str, names: Mapping[str, str]) -> dict[str, str]:
    """``cross.<role>`` -> module path of the cross-attention's projection, ``attention`` its module path
    and ``names`` role -> projection name inside it."""
    return {f"cross.{role}": f"{attention}.{names[role]}" for role in CROSS_ROLES}


def _positive(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def stack_problem(
    config: Mapping[str, Any],
    names: tuple[str, ...],
    counts: tuple[tuple[str, str], ...],
    widths: tuple[tuple[str, str], ...],
) -> str | None:
    """Why the config's encoder and decoder sizes cannot be read: a layer count or width that is not a
    positive integer, a layer count the file contradicts (``counts``: (config key, stack path), the
    encoder's first; the decoder's count defaults to the encoder's, and a file without a decoder stack is an
    encoder alone), or a decoder width other than its encoder's (``widths``: pairs of encoder key, decoder
    key)."""
    keys = tuple(key for key, _ in counts) + tuple(key for pair in widths for key in pair)
    for key in keys:
        if config.get(key) is not None and not _positive(config[key]):
            return f"config {key}={config[key]!r} must be a positive integer"
    first = counts[0][0]
    for key, path in counts:
        stack = re.compile(rf"(?:^|\.){re.escape(path)}\.(\d+)\.")
        found = 1 + max((int(m[1]) for m in map(stack.search, names) if m is not None), default=-1)
        declared = config.get(key, config.get(first))
        if found and declared is not None and found != declared:
            return f"its config says {key}={declared} but the file has {found} layers under {path}"
    for encoder, decoder in widths:
        one, other = config.get(encoder), config.get(decoder)
        if one is not None and other is not None and one != other:
            return (
                f"its config says {encoder}={one} but {decoder}={other}: specbound reads models whose "
                "layers all have the same widths, so an encoder and a decoder of different widths are refused"
            )
    return None
