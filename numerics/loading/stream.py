"""A checkpoint opened lazily: its family, sizes and coverage known, its layers read one at a time.

:func:`open_tensors` identifies the family (:func:`numerics.loading.families.detect`), checks that every
layer 0..L-1 has all its projections, reads layer 0 for the sizes N, F, H d_h and K d_h, checks them
against the config, and settles the number of heads and the head size d_h (the config's ``head_dim``
when it declares one, else N / H). :meth:`Checkpoint.layers` then yields validated
:class:`LayerWeights` one layer at a time (memory-mapped files stay on disk until a layer is asked for),
float64, or at their stored width (:meth:`Checkpoint.stored_layers`, for users that upcast one matrix at a
time); :meth:`Checkpoint.weights` collects the float64 layers into :class:`TransformerWeights`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import field, replace
from typing import Any

import numpy as np

from numerics.loading.audit import layer_count, stack_pattern, unread, unread_text
from numerics.loading.config_values import config_problem
from numerics.loading.coverage import Coverage
from numerics.loading.families import (
    Family,
    Scheme,
    by_model_type,
    detect,
    families,
    family_coverage,
    supported_text,
)
from numerics.loading.families.base import Sizes
from numerics.loading.tensors import TensorSource
from numerics.loading.weights import (
    LayerWeights,
    ModelShape,
    Shaped,
    TransformerWeights,
    check_layer,
    check_sizes,
)
from theory.errors import CheckpointError, InvalidArgument, UnsupportedCheckpoint
from theory.records import record


@record(eq=False)
class Checkpoint(Shaped):
    """A model whose layers are read on demand from ``tensors``: ``sizes`` as its config declares them,
    ``shape`` (:class:`~numerics.loading.weights.ModelShape`) as the weights settled them."""

    family: Family
    scheme: Scheme
    prefix: str
    tensors: TensorSource
    sizes: Sizes
    num_layers: int
    shape: ModelShape
    source: str
    config: Mapping[str, Any] = field(default_factory=dict, repr=False)
    """The config (empty when there is none), the model type chosen with ``family=`` filled in."""

    def layer(self, index: int) -> LayerWeights:
        """Layer ``index``, read now, float64, validated (shapes, finiteness)."""
        return self._validated(index, stored=False)

    def stored_layer(self, index: int) -> LayerWeights:
        """Layer ``index`` at its stored width (e.g. float16: a quarter of float64's memory), validated.

        Its users upcast one matrix at a time (:func:`numerics.spectra.spectrum.spectrum` does), so memory
        holds the stored layer plus one float64 matrix rather than the whole layer in float64.
        """
        return self._validated(index, stored=True)

    def _validated(self, index: int, *, stored: bool) -> LayerWeights:
        layer = read_layer(
            self.family, self.scheme, self.prefix, self.tensors, self.sizes, index, self.source, stored=stored
        )
        check_layer(index, layer, self.widths, self.source, stored=stored)
        return layer

    def layers(self) -> Iterator[LayerWeights]:
        """The layers in order, float64, each read when the iterator reaches it."""
        return (self.layer(index) for index in range(self.num_layers))

    def stored_layers(self) -> Iterator[LayerWeights]:
        """The layers in order at their stored width (:meth:`stored_layer`), each read when reached."""
        return (self.stored_layer(index) for index in range(self.num_layers))

    def weights(self) -> TransformerWeights:
        """Every layer in memory, as :class:`TransformerWeights`."""
        return TransformerWeights(tuple(self.layers()), self.shape, self.source, self.family.key, self.config)

    def coverage(self) -> tuple[Coverage, ...]:
        """The family's coverage records, its weight-dependent values computed layer by layer (stored width,
        each matrix upcast when used)."""
        return family_coverage(
            self.family, self.config, self.stored_layers(), self.num_heads, self.kv_heads, self.source
        )


ROLE_SHAPES = (
    ("stacked.", 3, "a stack of matrices (experts x rows x cols)"),
    ("gain.", 1, "a vector (a norm's gain)"),
    ("", 2, "a matrix"),
)
"""The dimensions a layer's tensor has by its role's prefix (a family's ``layer_roles`` names them)."""


def read_layer(
    family: Family,
    scheme: Scheme,
    prefix: str,
    tensors: TensorSource,
    sizes: Sizes,
    index: int,
    where: str,
    *,
    stored: bool = False,
) -> LayerWeights:
    """One layer's tensors as read-only float64 arrays (with ``stored``: at their stored width), assembled
    by the family adapter (unvalidated). The upcast replaces one tensor at a time, so at most one tensor
    is held at both widths."""
    try:
        names = family.roles(scheme, prefix, index, frozenset(tensors.names))
    except CheckpointError as error:  # a mixture layer without its experts
        raise CheckpointError(f"{where}: {error}") from None
    arrays = tensors.read(names.values())
    for role, name in names.items():
        ndim, kind = next((dims, text) for start, dims, text in ROLE_SHAPES if role.startswith(start))
        if arrays[name].ndim != ndim:
            raise CheckpointError(f"{where}: tensor {name} has shape {arrays[name].shape}, expected {kind}")
        if not stored:
            arrays[name] = np.asarray(arrays[name], dtype=np.float64)
    try:
        layer = family.assemble({role: arrays[name] for role, name in names.items()}, sizes)
    except CheckpointError as error:  # a fused projection that the declared sizes cannot split
        raise CheckpointError(f"{where}: {error}") from None
    for _, array in layer.items():
        array.setflags(write=False)
    return layer


def open_tensors(
    tensors: TensorSource,
    config: Mapping | None,
    where: str,
    heads: Callable[[int | None], int],
    family_name: str | None = None,
) -> Checkpoint:
    """Identify the family and sizes of the tensors in ``tensors`` (module docstring).

    ``heads(declared)`` settles the number of heads from the config's value (explicit argument, ONNX
    graph and config must agree; see :mod:`numerics.loading.checkpoint`). ``family_name`` (a family key
    or model type, ``--family``) chooses the family where the config does not say.
    """
    names = tensors.names
    model_type = (config or {}).get("model_type")
    if model_type is not None and by_model_type(model_type) is None:
        raise UnsupportedCheckpoint(
            f"{where}: its config.json says model_type={model_type!r}; specbound reads model_type "
            f"{supported_text()}"
        )
    try:
        found = detect(config, names, family_name)
    except UnsupportedCheckpoint as error:
        raise UnsupportedCheckpoint(f"{where}: {error}") from None
    if found is None:
        raise UnsupportedCheckpoint(
            f"{where} is not a supported transformer: {describe_names(config, names)}"
        )
    family, scheme, prefix = found
    config = dict(config or {})
    if family_name is not None and family_name in family.model_types:
        config.setdefault("model_type", family_name)
    refusal = config_problem(config)
    if refusal is None and family.refusal is not None:
        refusal = family.refusal(config, names)
    if refusal is not None:
        raise UnsupportedCheckpoint(f"{where}: {refusal}")
    sizes = _declared(family, config, where)
    num_layers = layer_count(scheme, prefix, names)
    present = set(names)
    for index in range(num_layers):
        for role, name in scheme.layer_names(prefix, index, present).items():
            if name not in present:
                raise CheckpointError(f"{where}: layer {index} lacks its {role} weight ({name})")
    try:
        left = unread(family, scheme, prefix, names)
    except CheckpointError as error:  # a mixture layer without its experts
        raise CheckpointError(f"{where}: {error}") from None
    if left:
        raise UnsupportedCheckpoint(
            f"{where}: {unread_text(family, left)}; reading it as {family.title} would drop them "
            "silently, so it is refused"
        )
    _check_gains(tensors, family, scheme, prefix, where)
    config.update(tensor_facts(family.roles(scheme, prefix, 0, frozenset(names)), present, config))
    if sizes.num_heads is None and family.needs_heads:
        sizes = replace(sizes, num_heads=heads(None))
    first = read_layer(family, scheme, prefix, tensors, sizes, 0, where, stored=True)  # only its shapes
    found_sizes = {
        "num_layers": num_layers,
        "hidden_size": int(first.wq.shape[1]),
        "ffn_size": int(first.w_in.shape[0]),
    }
    if first.experts:  # a mixture layer: its experts have their own width; F is a dense layer's
        present_names = frozenset(names)
        dense = next(
            (i for i in range(num_layers) if "w_in" in family.roles(scheme, prefix, i, present_names)), None
        )
        if dense is not None:
            dense_layer = read_layer(family, scheme, prefix, tensors, sizes, dense, where, stored=True)
            found_sizes["ffn_size"] = int(dense_layer.w_in.shape[0])
        elif sizes.ffn_size is not None:
            found_sizes["ffn_size"] = sizes.ffn_size
    for name, value in found_sizes.items():
        declared = getattr(sizes, name)
        if declared is not None and declared != value:
            raise CheckpointError(
                f"{where}: its config.json says {family.sizes.key(name)}={declared} "
                f"but the weights have {value}"
            )
    num_heads = heads(sizes.num_heads)
    hidden, ffn = found_sizes["hidden_size"], found_sizes["ffn_size"]
    head_dim = _head_dim(family, sizes, where, int(first.wq.shape[0]), hidden, num_heads)
    check_sizes(hidden, num_heads, num_heads, ffn, where, sizes.head_dim)
    kv_width = int(first.wk.shape[0])
    kv_heads = kv_width // head_dim
    if kv_width % head_dim or (sizes.num_kv_heads is not None and sizes.num_kv_heads != kv_heads):
        raise CheckpointError(
            f"{where}: the key projection has {kv_width} rows, not a whole number of heads of size "
            f"{head_dim} matching num_key_value_heads={sizes.num_kv_heads}"
        )
    shape = ModelShape(hidden, num_heads, kv_heads, ffn, sizes.head_dim)
    shape.check(where)
    return Checkpoint(family, scheme, prefix, tensors, sizes, found_sizes["num_layers"], shape, where, config)


def _check_gains(tensors: TensorSource, family: Family, scheme: Scheme, prefix: str, where: str) -> None:
    """The layers' known unread vectors (norm gains, ``family.layer_extras``) must be finite: the coverage
    statements use them (Qwen3's logit bound max|g_q| max|g_k|), and a NaN gain is a damaged checkpoint."""
    stack = stack_pattern(scheme, prefix)
    patterns = [re.compile(pattern) for pattern in family.layer_extras]
    gains = [
        name
        for name, m in ((name, stack.match(name)) for name in tensors.names)
        if m is not None and any(p.fullmatch(m["rest"]) for p in patterns) and not name.endswith("inv_freq")
    ]
    for name, array in tensors.read(gains).items():
        if not np.isfinite(array).all():
            raise InvalidArgument(
                f"{where}: tensor {name} has NaN or infinite entries; the checkpoint is damaged"
            )


ATTENTION_ROLES = frozenset({"wq", "wk", "wv", "wo", "qkv", "c_attn"})
"""Roles of attention projections (the others are the feed-forward's)."""


def tensor_facts(roles: Mapping[str, str], present: set[str], config: Mapping[str, Any]) -> dict[str, bool]:
    """What the tensors show that the coverage must say: ``attention_bias`` / ``mlp_bias`` True when a
    read projection of layer 0 (``roles``: role -> tensor name) has a bias in the file that the config
    does not declare (a config default contradicted by the tensors)."""
    facts = {}
    for key, attention in (("attention_bias", True), ("mlp_bias", False)):
        biased = any(
            name.endswith(".weight") and f"{name[: -len('.weight')]}.bias" in present
            for role, name in roles.items()
            if (role in ATTENTION_ROLES) == attention
        )
        if biased and not config.get(key):
            facts[key] = True
    return facts


def _head_dim(family: Family, sizes: Sizes, where: str, query_width: int, hidden: int, num_heads: int) -> int:
    """d_h: the config's ``head_dim`` (the query projection must have H d_h rows), else N / H."""
    if sizes.head_dim is not None:
        if query_width != num_heads * sizes.head_dim:
            raise CheckpointError(
                f"{where}: the query projection has {query_width} rows, but its config.json says "
                f"{family.sizes.key('num_heads')}={num_heads} heads of head_dim={sizes.head_dim}"
            )
        return sizes.head_dim
    if hidden % num_heads and num_heads == sizes.num_heads:
        raise InvalidArgument(
            f"{where}: hidden_size={hidden} is not divisible by {family.sizes.key('num_heads')}={num_heads}; "
            f"the heads must split the hidden dimension evenly (its config.json)"
        )
    check_sizes(hidden, num_heads, num_heads, 1, where)
    if query_width != hidden:
        raise CheckpointError(
            f"{where}: the query projection has {query_width} rows, not hidden_size={hidden}; a head size "
            f"other than N / H needs {family.sizes.key('head_dim')} in its config.json"
        )
    return hidden // num_heads


def _declared(family: Family, config: Mapping | None, where: str) -> Sizes:
    """The sizes the config declares, each a positive integer or absent."""
    sizes = family.sizes(config or {})
    for name, value in vars(sizes).items():
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise CheckpointError(
                f"{where}: config {family.sizes.key(name)}={value!r} must be a positive integer"
            )
    return sizes


def describe_names(config: Mapping | None, names: tuple[str, ...]) -> str:
    """Why no family matched: the config's model type, or a sample of tensor names; and what is supported."""
    supported = f"specbound reads {', '.join(f.title for f in families())} (model_type {supported_text()})"
    model_type = (config or {}).get("model_type")
    if model_type is not None:
        return f"its config says model_type={model_type!r} and no layer's projections were found; {supported}"
    sample = ", ".join(names[:3]) if names else "no tensors at all"
    return f"none of its {len(names)} tensors is a known layer projection ({sample}); {supported}"
