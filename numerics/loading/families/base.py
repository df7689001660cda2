"""What a model-family adapter is: where a layer's projections live, and how its blocks meet the theory.

A :class:`Family` names its ``config.json`` ``model_type`` values, one or more tensor-naming
:class:`Scheme` (a layer path such as ``encoder.layer`` and the module of each projection inside it),
how to read L, N, H, K, F and d_h from a config, how to turn the tensors of one layer into
:class:`~numerics.loading.weights.LayerWeights` (``nn.Linear`` layout, float64), the
:class:`~numerics.loading.coverage.Coverage` of its blocks (built from the config's activation, bias and
normalisation fields; ``measures`` may compute numbers from the weights), the ``markers`` (tensors inside
a layer that only this family has, which decide between families sharing projection names), and an
optional ``refusal`` (a config or tensors it must not read partly). Adding a family is one module that
builds a ``Family``, plus its registration.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import field
from functools import cached_property
from typing import Any

import numpy as np

from numerics.loading.coverage import Coverage, coverage_value
from numerics.loading.weights import LayerWeights, each_layer
from theory.records import record


@record
class Sizes:
    """L, N, H, K (key/value heads), F and d_h as a config declares them (None where it says nothing)."""

    num_layers: int | None = None
    hidden_size: int | None = None
    num_heads: int | None = None
    num_kv_heads: int | None = None
    ffn_size: int | None = None
    head_dim: int | None = None


@record
class Scheme:
    """One naming of a layer's tensors: ``<prefix><layer_path>.<i>.<module>.weight`` per role.

    ``modules`` maps a role (``wq``, ``wk``, ..., or a family-specific one such as GPT-2's fused
    ``c_attn``) to its module path inside the layer; the first role anchors the layer search.
    """

    layer_path: str
    modules: Mapping[str, str]
    markers: tuple[str, ...] = ()
    """Tensors inside a layer that this naming has besides the family's markers (Mixtral's saved
    ``block_sparse_moe.gate.weight`` or its stacked experts in memory)."""
    decoder: Scheme | None = None
    """An encoder-decoder's second stack (``decoder.layers`` beside ``encoder.layers``): the model's layer
    L_enc + j is the decoder's layer j, L_enc the number of this stack's layers in the file (its modules
    name the cross-attention's roles ``cross.wq`` ...; :meth:`locate`)."""

    @property
    def stacks(self) -> tuple[Scheme, ...]:
        """This stack, then the decoder's when there is one."""
        return (self,) if self.decoder is None else (self, self.decoder)

    def count(self, prefix: str, names: Iterable[str]) -> int:
        """1 + the largest layer index of any tensor under this stack alone (0 when there is none)."""
        stack = re.compile(rf"^{re.escape(prefix + self.layer_path)}\.(?P<layer>\d+)\.")
        return 1 + max((int(m["layer"]) for m in map(stack.match, names) if m is not None), default=-1)

    def locate(self, prefix: str, layer: int, names: Iterable[str]) -> tuple[Scheme, int]:
        """The stack and index inside it of the model's layer ``layer`` (this stack's layers come first)."""
        if self.decoder is not None:
            first = self.count(prefix, names)
            if layer >= first:
                return self.decoder, layer - first
        return self, layer

    def layer_names(self, prefix: str, layer: int, names: Iterable[str]) -> dict[str, str]:
        """Role -> full tensor name of the model's layer ``layer`` (:meth:`locate`)."""
        stack, index = self.locate(prefix, layer, names)
        return stack.names(prefix, index)

    @cached_property
    def anchor(self) -> re.Pattern[str]:
        """Matches the first role's weight name; groups ``prefix`` and ``layer``."""
        first = next(iter(self.modules.values()))
        return re.compile(
            rf"^(?P<prefix>(?:.*\.)?){re.escape(self.layer_path)}\.(?P<layer>\d+)\.{re.escape(first)}\.weight$"
        )

    def fits(self, names: Iterable[str]) -> dict[str, int]:
        """Key prefix -> first layer index, for each prefix under which a layer has every role's tensor."""
        present = set(names)
        found: dict[str, int] = {}
        for match in filter(None, map(self.anchor.match, present)):
            prefix, layer = match["prefix"], int(match["layer"])
            if set(self.names(prefix, layer).values()) <= present:
                found[prefix] = min(layer, found.get(prefix, layer))
        return found

    def names(self, prefix: str, layer: int) -> dict[str, str]:
        """Role -> full tensor name of layer ``layer`` under ``prefix``."""
        return {
            role: f"{prefix}{self.layer_path}.{layer}.{module}.weight"
            for role, module in self.modules.items()
        }


NORM_TENSOR = r"\.(?:weight|bias)"
"""A norm's gain or shift (the suffix of :data:`DECODER_LAYER_EXTRAS`-style patterns)."""
DECODER_LAYER_EXTRAS = (
    r"input_layernorm\.weight",
    r"post_attention_layernorm\.weight",
    r"self_attn\.rotary_emb\.inv_freq",
)
"""A LLaMA-style layer's RMSNorm gains and the rotary frequency buffer older checkpoints saved."""
DECODER_OUTER = (r"embed_tokens\.weight", r"norm\.weight", r"rotary_emb\.inv_freq")
"""A LLaMA-style decoder's token embedding, final RMSNorm and rotary buffer."""


def linear_layer(tensors: Mapping[str, np.ndarray], sizes: Sizes) -> LayerWeights:
    """The layer of a family whose projections are ``nn.Linear`` weights under the standard roles."""
    return LayerWeights(
        wq=tensors["wq"],
        wk=tensors["wk"],
        wv=tensors["wv"],
        wo=tensors["wo"],
        w_in=tensors["w_in"],
        w_out=tensors["w_out"],
        w_gate=tensors.get("w_gate"),
    )


@record
class SizeReader:
    """Reads :class:`Sizes` from a config: ``keys`` maps a field to the config key, ``defaults`` fill gaps."""

    keys: Mapping[str, str]
    defaults: Mapping[str, Callable[[Mapping], int | None]] = field(default_factory=dict)

    def __call__(self, config: Mapping) -> Sizes:
        values = {name: config.get(key) for name, key in self.keys.items()}
        for name, default in self.defaults.items():
            if values.get(name) is None:
                values[name] = default(config)
        return Sizes(**values)

    def key(self, name: str) -> str:
        """The config key of a :class:`Sizes` field (for messages)."""
        return self.keys.get(name, name)


def size_reader(keys: Mapping[str, str], **defaults: Callable[[Mapping], int | None]) -> SizeReader:
    """A :class:`SizeReader` with the given keys and defaults."""
    return SizeReader(keys, defaults)


@record
class Family:
    """A model family's adapter (module docstring)."""

    key: str
    title: str
    model_types: tuple[str, ...]
    schemes: tuple[Scheme, ...]
    sizes: SizeReader
    coverage: Callable[[Mapping[str, Any], Mapping[str, float]], tuple[Coverage, ...]]
    """The records of the family's blocks, given the config (a dict, empty when there is none) and the
    maxima over layers of :attr:`measures`."""
    assemble: Callable[[Mapping[str, np.ndarray], Sizes], LayerWeights] = field(default=linear_layer)
    measures: Callable[..., dict[str, float]] | None = None
    """Numbers one layer contributes to the coverage (layer, H, K, config[, norms] -> name -> value); maxima
    are kept. ``norms``, when given, holds spectral norms the spectra already computed from the same read
    (:func:`numerics.spectra.model.layer_part_norms`), so the measure need not take those SVDs again."""
    markers: tuple[str, ...] = ()
    """Tensor names inside a layer (``self_attn.q_norm.weight``) that only this family has: a checkpoint
    that lacks them is not of this family, and one that has them is of no family without them."""
    refusal: Callable[[Mapping[str, Any], tuple[str, ...]], str | None] | None = None
    """Why a checkpoint of this family cannot be read faithfully (config, tensor names -> reason), or None."""
    layer_roles: Callable[[str, frozenset[str]], dict[str, str]] | None = None
    """Role -> tensor name of the layer's further tensors beyond the scheme's (a mixture's experts and
    router), given the layer's name prefix (``model.layers.3.``) and every tensor name; roles named
    ``stacked.*`` are 3-d (one slice per expert). Raises CheckpointError naming what a layer lacks."""
    layer_extras: tuple[str, ...] = ()
    """Regular expressions (whole name inside a layer, ``input_layernorm\\.weight``) of the tensors a layer
    holds that the family leaves aside knowingly: its norm gains and buffers (:mod:`numerics.loading.audit`;
    the biases of read projections are accepted without listing)."""
    outer: tuple[str, ...] = ()
    needs_heads: bool = False
    """Whether splitting a layer needs H (a fused projection interleaved per head): the number of heads is
    then settled (config, ``num_heads=``) before the first layer is read."""
    """Regular expressions (whole name under the key prefix) of the tensors outside the layer stack that
    the family leaves aside knowingly: embeddings, the final norm (read-out heads need no listing)."""

    def roles(self, scheme: Scheme, prefix: str, layer: int, present: frozenset[str]) -> dict[str, str]:
        """Role -> full tensor name of every tensor layer ``layer`` is read from (scheme and layer_roles)."""
        stack, index = scheme.locate(prefix, layer, present)
        names = stack.names(prefix, index)
        if self.layer_roles is not None:
            names.update(self.layer_roles(f"{prefix}{stack.layer_path}.{index}.", present))
        return names


def family_coverage(
    family: Family,
    config: Mapping[str, Any] | None,
    layers: Iterable[LayerWeights],
    num_heads: int,
    kv_heads: int,
    where: str = "the model",
) -> tuple[Coverage, ...]:
    """The family's coverage records for a model, from its layers' measures
    (:func:`coverage_from_measures`)."""
    config = config or {}
    measures = family.measures
    if measures is None:
        return family.coverage(config, {})
    per_layer = each_layer(layers, lambda layer: measures(layer, num_heads, kv_heads, config))
    return coverage_from_measures(family, config, per_layer, where)


def coverage_from_measures(
    family: Family,
    config: Mapping[str, Any],
    per_layer: Iterable[Mapping[str, float]],
    where: str = "the model",
) -> tuple[Coverage, ...]:
    """The family's coverage records from each layer's measures, reduced by max over layers in the
    measures' own arithmetic (mpmath where float64 would overflow; a layer read by the generator is released
    before the next is read), then checked to fit float64
    (:func:`~numerics.loading.coverage.coverage_value`, naming ``where``)."""
    maxima: dict[str, float] = {}
    for measures in per_layer:
        for name, value in measures.items():
            maxima[name] = max(value, maxima.get(name, value))
    return family.coverage(
        config, {name: coverage_value(name, value, where) for name, value in maxima.items()}
    )
