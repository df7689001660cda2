"""Every tensor of a checkpoint accounted for: read, or known and named, never silently dropped.

A family reads its layers' projections (:meth:`~numerics.loading.families.base.Family.roles`). Every other
tensor of the file must be one the family knows it leaves aside, each of which the coverage records name:

- in a layer ``<prefix><layer_path>.<i>.``: the bias of a projection it reads (``X.bias`` beside a read
  ``X.weight``: the biases record), or one of the family's ``layer_extras`` (its norm gains, rotary
  frequency buffers);
- outside the stack: one of the family's ``outer`` tensors (under the key prefix, or beside it: a task
  model's head) such as the embeddings or the final norm, or a read-out head (:data:`HEADS`): the analysed
  class takes the embedded tokens as input and stops before the read-out.

Anything else (a cross-attention block, an encoder's stack beside a decoder's, a layer-scale vector, a
rotary buffer in an encoder that the family describes with absolute positions) is unread:
:func:`unread` names it, and the caller refuses the family. The number of layers is the largest index of
any tensor under the stack plus one (:func:`layer_count`), so a last layer missing its first projection is
reported rather than cut off.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from numerics.loading.families.base import Family, Scheme

HEADS = re.compile(
    r"^(?:lm_head|cls|classifier|pre_classifier|qa_outputs|score|pooler|vocab_transform|vocab_layer_norm|"
    r"vocab_projector|embed_out|discriminator_predictions|generator_predictions|generator_lm_head|"
    r"classification_head|projector)\."
)
"""Read-out heads of transformers' task models (masked-LM, causal-LM, classification, QA): outside the
analysed class, which ends at the last layer's output."""


def stack_pattern(scheme: Scheme, prefix: str) -> re.Pattern[str]:
    """Matches a tensor inside the layer stack (either stack of an encoder-decoder); groups ``layer`` (its
    index in its stack) and ``rest`` (its name in the layer)."""
    paths = "|".join(re.escape(prefix + stack.layer_path) for stack in scheme.stacks)
    return re.compile(rf"^(?:{paths})\.(?P<layer>\d+)\.(?P<rest>.+)$")


def layer_count(scheme: Scheme, prefix: str, names: Iterable[str]) -> int:
    """The number of layers: per stack, 1 + the largest layer index of any tensor under it (0 when there
    is none), summed over an encoder-decoder's two stacks."""
    names = tuple(names)
    return sum(stack.count(prefix, names) for stack in scheme.stacks)


def unread(family: Family, scheme: Scheme, prefix: str, names: Iterable[str]) -> tuple[str, ...]:
    """The tensors of ``names`` that ``family`` neither reads nor knows it leaves aside (module docstring),
    sorted. A layer lacking a tensor the family reads raises CheckpointError (from ``family.roles``)."""
    names = tuple(names)
    present = frozenset(names)
    stack = stack_pattern(scheme, prefix)
    read: set[str] = set()
    for index in range(layer_count(scheme, prefix, names)):
        read.update(family.roles(scheme, prefix, index, present).values())
    extras = [re.compile(pattern) for pattern in family.layer_extras]
    outer = [re.compile(pattern) for pattern in family.outer]
    left = []
    for name in names:
        if name in read:
            continue
        inside = stack.match(name)
        if inside is not None:
            rest = inside["rest"]
            bias = name.endswith(".bias") and f"{name[: -len('.bias')]}.weight" in read
            if bias or any(pattern.fullmatch(rest) for pattern in extras):
                continue
        else:
            relative = name[len(prefix) :] if name.startswith(prefix) else name
            if HEADS.match(name) or HEADS.match(relative) or any(p.fullmatch(relative) for p in outer):
                continue
        left.append(name)
    return tuple(sorted(left))


def unread_text(family: Family, left: tuple[str, ...]) -> str:
    """One clause naming the unread tensors (the first three and how many more)."""
    shown = ", ".join(left[:3]) + (f" and {len(left) - 3} more" if len(left) > 3 else "")
    return f"{len(left)} of its tensors are not read by family {family.key} ({shown})"
