"""`TransformerWeights`: the projection matrices of a transformer, as float64 arrays.

Layout follows PyTorch ``nn.Linear`` (out x in): Wq is (H d_h) x N and Wo is N x (H d_h), Wk and Wv are
(K d_h) x N with K the number of key/value heads (K = H without grouped-query attention), d_h the head
size (N / H unless the config declares another ``head_dim``), Win is F x N, Wout is N x F
(F the feed-forward size). A gated (SwiGLU) feed-forward also keeps its gate Wgate (F x N); Win is then
its "up" projection and Wout its "down" projection. Biases, normalisation and embeddings are not kept:
the theory ignores them (exact: the authors' ``extract.py``); ``numerics.loading.families`` says per
model family what that leaves out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import field
from typing import Any, TypeVar

import numpy as np

from theory.errors import InvalidArgument
from theory.records import record

T = TypeVar("T")

PROJECTIONS = ("wq", "wk", "wv", "wo", "w_in", "w_out")
"""The six projection names of a layer, in the docs' order (Wq, Wk, Wv, Wo, Win, Wout)."""


@record(eq=False)
class LayerWeights:
    """The six projection weights of one encoder layer, ``nn.Linear`` layout (out x in).

    float64, except a layer read at its stored width (:meth:`numerics.loading.stream.Checkpoint.stored_layer`:
    float16, float32 or float64 as saved), which its users upcast one matrix at a time.
    """

    wq: np.ndarray
    wk: np.ndarray
    wv: np.ndarray
    wo: np.ndarray
    w_in: np.ndarray
    w_out: np.ndarray
    w_gate: np.ndarray | None = None
    """The gate of a SwiGLU feed-forward, W_down (silu(W_gate x) * W_up x); None for GELU/ReLU blocks."""
    experts: tuple[FeedForward, ...] = field(default=(), kw_only=True)
    """A mixture-of-experts layer's routed experts (:mod:`theory.mixture`), empty for a dense layer; the
    fields ``w_in``, ``w_out``, ``w_gate`` are then expert 0's (the same arrays), so code that reads one
    feed-forward block sees one of the layer's."""
    shared_expert: FeedForward | None = field(default=None, kw_only=True)
    """Qwen2-MoE's shared expert (every token, sigmoid gate), or None."""
    router: np.ndarray | None = field(default=None, kw_only=True)
    """The router's matrix (experts x N) of a mixture layer: read, kept outside the bound."""
    shared_expert_gate: np.ndarray | None = field(default=None, kw_only=True)
    """The shared expert's gate vector (1 x N): read, kept outside the bound."""
    cross: CrossAttention | None = field(default=None, kw_only=True)
    """An encoder-decoder's decoder layer: its cross-attention over the encoder's output (between the
    self-attention and the feed-forward); read and validated, not among the bound's matrices. None in an
    encoder layer and in every other family."""

    def feed_forwards(self) -> tuple[tuple[int | None, FeedForward], ...]:
        """(expert, block) of every feed-forward block: ((None, the dense block),) for a dense layer, else
        each routed expert e, then the shared expert as SHARED_EXPERT (-1)."""
        if not self.experts:
            return ((None, FeedForward(self.w_in, self.w_out, self.w_gate)),)
        shared = () if self.shared_expert is None else ((SHARED_EXPERT, self.shared_expert),)
        return tuple(enumerate(self.experts)) + shared

    def items(self) -> tuple[tuple[str, np.ndarray], ...]:
        """(name, array) pairs in the docs' order, then ``w_gate`` when the block is gated; in a mixture
        layer then every further expert's (``expert.{e}.w_in`` ...), the shared expert's
        (``shared_expert.w_in`` ...) and the router's (``router``, ``shared_expert_gate``)."""
        gate = (("w_gate", self.w_gate),) if self.w_gate is not None else ()
        extra: list[tuple[str, np.ndarray]] = []
        for expert, block in self.feed_forwards()[1:] if self.experts else ():
            name = "shared_expert" if expert == SHARED_EXPERT else f"expert.{expert}"
            extra.extend((f"{name}.{role}", array) for role, array in block.items())
        extra.extend(
            (name, array)
            for name, array in (("router", self.router), ("shared_expert_gate", self.shared_expert_gate))
            if array is not None
        )
        if self.cross is not None:
            extra.extend((f"cross.{role}", array) for role, array in self.cross.items())
        return tuple((name, getattr(self, name)) for name in PROJECTIONS) + gate + tuple(extra)


SHARED_EXPERT = -1
"""The expert index of a shared expert (:meth:`LayerWeights.feed_forwards`, NamedMatrix.expert)."""


@record(eq=False)
class FeedForward:
    """One feed-forward block (a dense layer's or one expert's), ``nn.Linear`` layout: W_in (up) F x N,
    W_out (down) N x F, and the gate W_gate F x N of a gated block."""

    w_in: np.ndarray
    w_out: np.ndarray
    w_gate: np.ndarray | None = None

    def items(self) -> tuple[tuple[str, np.ndarray], ...]:
        """(role, array): ``w_in``, ``w_out``, then ``w_gate`` when gated."""
        gate = (("w_gate", self.w_gate),) if self.w_gate is not None else ()
        return (("w_in", self.w_in), ("w_out", self.w_out), *gate)


@record(eq=False)
class CrossAttention:
    """A decoder layer's attention over the encoder's output, ``nn.Linear`` layout: queries from the
    decoder's tokens (Wq, (H d_h) x N), keys and values from the encoder's (Wk, Wv, (K d_h) x N),
    Wo N x (H d_h)."""

    wq: np.ndarray
    wk: np.ndarray
    wv: np.ndarray
    wo: np.ndarray

    def items(self) -> tuple[tuple[str, np.ndarray], ...]:
        """(role, array): ``wq``, ``wk``, ``wv``, ``wo``."""
        return (("wq", self.wq), ("wk", self.wk), ("wv", self.wv), ("wo", self.wo))


@record
class ModelShape:
    """The sizes every layer of a model has: N (``hidden_size``), H query heads, K key/value heads
    (``kv_heads``: K = H without grouped-query attention; K divides H), F (``ffn_size``) and d_h when the
    config declares it (``declared_head_dim``; None means N / H). Shared by loaded weights
    (:class:`TransformerWeights`) and a checkpoint opened lazily
    (:class:`numerics.loading.stream.Checkpoint`); :meth:`check` validates it."""

    hidden_size: int
    num_heads: int
    kv_heads: int
    ffn_size: int
    declared_head_dim: int | None = None

    @property
    def head_dim(self) -> int:
        """d_h: the declared head size, else N / H."""
        return self.declared_head_dim or self.hidden_size // self.num_heads

    @property
    def widths(self) -> Widths:
        """N, H d_h, K d_h and F: the sizes every layer's matrices have."""
        return Widths(
            self.hidden_size, self.num_heads * self.head_dim, self.kv_heads * self.head_dim, self.ffn_size
        )

    def check(self, source: str) -> None:
        """N, H, K, F positive, H splitting N unless d_h is declared, K dividing H (:func:`check_sizes`)."""
        check_sizes(
            self.hidden_size, self.num_heads, self.kv_heads, self.ffn_size, source, self.declared_head_dim
        )


class Shaped:
    """The sizes of a model that holds a :class:`ModelShape` as ``shape``, read through it."""

    shape: ModelShape

    @property
    def hidden_size(self) -> int:
        """N."""
        return self.shape.hidden_size

    @property
    def num_heads(self) -> int:
        """H, the number of query heads."""
        return self.shape.num_heads

    @property
    def kv_heads(self) -> int:
        """K, the number of key/value heads (H unless the attention is grouped-query)."""
        return self.shape.kv_heads

    @property
    def ffn_size(self) -> int:
        """F, the feed-forward size."""
        return self.shape.ffn_size

    @property
    def head_dim(self) -> int:
        """d_h (:attr:`ModelShape.head_dim`)."""
        return self.shape.head_dim

    @property
    def widths(self) -> Widths:
        """N, H d_h, K d_h and F (:attr:`ModelShape.widths`)."""
        return self.shape.widths


@record(eq=False)
class TransformerWeights(Shaped):
    """A BERT-family encoder's projection weights, validated on construction.

    Invariants: every array is a finite float64 matrix; Wq is (H d_h) x N, Wk and Wv are (K d_h) x N, Wo
    is N x (H d_h), Win is F x N and Wout is N x F (the sizes of ``shape``, :class:`ModelShape`), which
    :meth:`ModelShape.check` accepts. ``source`` says where the weights came from.
    """

    layers: tuple[LayerWeights, ...]
    shape: ModelShape
    source: str
    family: str | None = None
    """The model family the weights were read as (``numerics.loading.families``); None when unknown."""
    config: Mapping[str, Any] | None = field(default=None, repr=False)
    """The config the weights were read with (its activation, bias and norm fields shape the coverage)."""

    def __repr__(self) -> str:
        """One line: where from, the family and the sizes (the arrays are in :attr:`layers`)."""
        kv = "" if self.kv_heads == self.num_heads else f", K={self.kv_heads}"
        return (
            f"TransformerWeights(source={self.source!r}, family={self.family!r}, L={self.num_layers}, "
            f"N={self.hidden_size}, H={self.num_heads}{kv}, ffn={self.ffn_size})"
        )

    def __post_init__(self) -> None:
        if not self.layers:
            raise InvalidArgument(
                f"no encoder layers in {self.source}; a transformer needs at least one layer"
            )
        self.shape.check(self.source)
        for index, layer in enumerate(self.layers):
            check_layer(index, layer, self.widths, self.source)

    @property
    def num_layers(self) -> int:
        """L, the number of encoder layers."""
        return len(self.layers)

    def truncated(self, depth: int) -> TransformerWeights:
        """The first ``depth`` layers of this model (a depth series made from one trained model)."""
        if not 1 <= depth <= self.num_layers:
            raise InvalidArgument(f"depth={depth} is outside [1, {self.num_layers}] for {self.source}")
        return TransformerWeights(
            self.layers[:depth],
            self.shape,
            f"{self.source} (first {depth} of {self.num_layers} layers)",
            self.family,
            self.config,
        )


@record
class Widths:
    """A layer's matrix sizes: N (hidden), H d_h (query heads), K d_h (key/value heads), F (feed-forward)."""

    hidden: int
    query: int
    key_value: int
    ffn: int


def check_sizes(n: int, h: int, k: int, f: int, source: str, head_dim: int | None = None) -> None:
    """N, H, K and F must be positive, H must split N unless a head size ``head_dim`` is declared, and K
    must divide H (whole groups of query heads)."""
    where = f"in {source}"
    if h < 1 or n < 1 or f < 1 or (head_dim is not None and head_dim < 1):
        raise InvalidArgument(
            f"hidden_size={n}, num_heads={h}, ffn_size={f}, head_dim={head_dim} {where} must all be >= 1"
        )
    if head_dim is None and n % h:
        raise InvalidArgument(
            f"hidden_size={n} is not divisible by num_heads={h} {where}; "
            "heads must split the hidden dimension"
        )
    if k < 1 or h % k:
        raise InvalidArgument(
            f"num_heads={h} is not a multiple of num_kv_heads={k} {where}; grouped-query attention shares "
            "each key/value head with a whole group of query heads"
        )


def check_layer(
    index: int, layer: LayerWeights, widths: Widths, source: str, *, stored: bool = False
) -> None:
    """Every array of a layer is a finite float64 matrix of its expected shape (:class:`Widths`; in a
    mixture layer every routed expert has expert 0's width, the shared expert its own, the router one row
    per expert); with ``stored`` any float width (a layer at its stored width) is accepted."""
    where = f"in {source}"
    n = widths.hidden
    f = int(layer.experts[0].w_in.shape[0]) if layer.experts else widths.ffn
    shared = layer.shared_expert
    f_shared = int(shared.w_in.shape[0]) if shared is not None else 0
    expected = {
        "wq": (widths.query, n),
        "wk": (widths.key_value, n),
        "wv": (widths.key_value, n),
        "wo": (n, widths.query),
        "w_in": (f, n),
        "w_out": (n, f),
        "w_gate": (f, n),
        "router": (len(layer.experts), n),
        "shared_expert_gate": (1, n),
        "cross.wq": (widths.query, n),
        "cross.wk": (widths.key_value, n),
        "cross.wv": (widths.key_value, n),
        "cross.wo": (n, widths.query),
    }
    for role in ("w_in", "w_out", "w_gate"):  # every expert as expert 0; the shared one at its own width
        expected[f"shared_expert.{role}"] = (n, f_shared) if role == "w_out" else (f_shared, n)
        for expert in range(1, len(layer.experts)):
            expected[f"expert.{expert}.{role}"] = expected[role]
    for name, array in layer.items():
        if not isinstance(array, np.ndarray) or not (
            array.dtype == np.float64 or (stored and array.dtype.kind == "f")
        ):
            raise InvalidArgument(f"layer {index} {name} {where} must be a float64 numpy array")
        if array.shape != expected[name]:
            raise InvalidArgument(
                f"layer {index} {name} {where} has shape {array.shape}, expected {expected[name]} "
                f"(N={n}, H d_h={widths.query}, K d_h={widths.key_value}, FFN={f}, nn.Linear layout out x in)"
            )
        if not np.isfinite(array).all():
            bad = int(np.size(array) - np.count_nonzero(np.isfinite(array)))
            raise InvalidArgument(
                f"layer {index} {name} {where} has {bad} NaN or infinite entries; "
                "the checkpoint is damaged or was saved mid-divergence"
            )


def each_layer(layers: Iterable[LayerWeights], function: Callable[[LayerWeights], T]) -> Iterator[T]:
    """``function(layer)`` for each layer in turn, each layer released before the next is read.

    A plain ``for layer in layers`` (or a comprehension over them) keeps layer i bound while the iterator
    reads layer i + 1, so a streamed checkpoint (:meth:`numerics.loading.stream.Checkpoint.stored_layers`)
    would hold two layers at once; here the name is deleted before the next read.
    """
    for layer in layers:
        result = function(layer)
        del layer  # the iterator's next read happens with no reference to this layer left
        yield result
