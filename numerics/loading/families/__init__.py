"""The model families specbound reads, one adapter module each, and how a checkpoint's family is found.

:data:`REGISTRY` lists them. :func:`detect` uses the config's ``model_type`` (or the caller's choice, a
family key or model type) when there is one. Without, it never guesses: a family fits when some layer
has every projection of one of its naming schemes and the family's marker tensors; among several that
fit, a family whose markers are present (a tensor only it has, such as Qwen3's
``self_attn.q_norm.weight``) decides (a family whose ``refusal`` refuses the tensors is no candidate
while another reads them all: mBART beside BART), and where nothing decides the checkpoint is refused with the
families that fit and how to choose (``--family NAME``). Where no layer is complete, the families whose
first projection is present are the candidates (so that the missing projection is then named).
A family's markers may sit in any layer of the stack (Qwen2-MoE's shared-expert gate is absent from its
dense layers). Mixture-of-experts tensors (``.experts`` or ``.block_sparse_moe.``) are read only by a
mixture family (Mixtral, Qwen2-MoE); taken for another family they are refused, since reading the
attention alone would drop the experts.

An adapter module is imported when its family is needed: a checkpoint whose config (or the caller) names
its model type imports that family's module alone; detection by tensor names, and :func:`families`,
import them all.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable, Mapping
from functools import cache

from numerics.loading.coverage import Coverage
from numerics.loading.families.base import Family, Scheme, Sizes, family_coverage
from numerics.loading.weights import TransformerWeights
from theory.errors import CheckpointError, InvalidArgument, UnsupportedCheckpoint

__all__ = [
    "REGISTRY",
    "Family",
    "Scheme",
    "Sizes",
    "by_model_type",
    "by_name",
    "detect",
    "families",
    "family_coverage",
    "supported_text",
]

REGISTRY: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("bert", ("bert", "roberta", "xlm-roberta", "camembert", "electra"), "bert.FAMILY"),
    ("distilbert", ("distilbert",), "distilbert.FAMILY"),
    ("gpt2", ("gpt2",), "gpt2.FAMILY"),
    ("vit", ("vit",), "vit.FAMILY"),
    ("llama", ("llama", "mistral", "qwen2"), "llama.FAMILY"),
    ("qwen3", ("qwen3",), "qwen3.FAMILY"),
    ("gemma", ("gemma",), "gemma.GEMMA"),
    ("gemma2", ("gemma2",), "gemma.GEMMA2"),
    ("phi3", ("phi3",), "phi3.FAMILY"),
    ("gpt_neox", ("gpt_neox",), "gpt_neox.FAMILY"),
    ("opt", ("opt",), "opt.FAMILY"),
    ("mixtral", ("mixtral",), "mixtral.FAMILY"),
    ("qwen2_moe", ("qwen2_moe",), "qwen2_moe.FAMILY"),
    ("qwen3_moe", ("qwen3_moe",), "qwen3_moe.FAMILY"),
    ("olmo2", ("olmo2",), "olmo2.FAMILY"),
    ("gemma3", ("gemma3_text",), "gemma3.FAMILY"),
    ("deepseek", ("deepseek_v2", "deepseek_v3"), "deepseek.FAMILY"),
    ("modernbert", ("modernbert",), "modernbert.FAMILY"),
    ("gpt_oss", ("gpt_oss",), "gpt_oss.FAMILY"),
    ("llama4", ("llama4_text",), "llama4.FAMILY"),
    ("t5", ("t5",), "t5.FAMILY"),
    ("bart", ("bart",), "bart.BART"),
    ("mbart", ("mbart",), "bart.MBART"),
    ("whisper", ("whisper",), "bart.WHISPER"),
)
"""Every family as (key, config model types, ``module.ATTRIBUTE`` of its :class:`Family` in this package),
in the order detection tries them; each module's Family carries the same key and model types
(tests/unit/numerics/test_family_registry.py)."""


@cache
def _family(key: str) -> Family:
    """The registered family ``key``, its adapter module imported now."""
    location = next(where for name, _, where in REGISTRY if name == key)
    module, attribute = location.split(".")
    family: Family = getattr(importlib.import_module(f"{__name__}.{module}"), attribute)
    return family


def families() -> tuple[Family, ...]:
    """Every family, in :data:`REGISTRY` order (imports every adapter module)."""
    return tuple(_family(key) for key, _, _ in REGISTRY)


def supported_text() -> str:
    """The supported model types, for error messages."""
    return ", ".join(t for _, model_types, _ in REGISTRY for t in model_types)


def by_model_type(model_type: str) -> Family | None:
    """The family of a config's ``model_type``, or None (only its adapter module is imported)."""
    key = next((key for key, model_types, _ in REGISTRY if model_type in model_types), None)
    return None if key is None else _family(key)


def by_name(name: str) -> Family:
    """The family a user names (``--family``): a family key or one of its model types."""
    family = _family(name) if any(name == key for key, _, _ in REGISTRY) else by_model_type(name)
    if family is None:
        keys = ", ".join(key for key, _, _ in REGISTRY)
        raise InvalidArgument(f"--family {name!r} is not a family specbound reads; choose one of {keys}")
    return family


def detect(
    config: Mapping | None, names: Iterable[str], choice: str | None = None
) -> tuple[Family, Scheme, str] | None:
    """The family, naming scheme and key prefix of a checkpoint, or None when no family fits.

    ``choice`` (a family key or model type) or the config's ``model_type`` names the family; the first of
    its schemes whose first role is present is taken (a missing role is then reported by name; a chosen
    family's markers must be present). Without
    either, the module docstring's rule: raises UnsupportedCheckpoint when several families fit and no
    marker tensor decides.
    """
    names = tuple(names)
    found = _detected(config, names, choice)
    mixture = next((name for name in names if ".experts" in name or ".block_sparse_moe." in name), None)
    if found is not None and mixture is not None and found[0].layer_roles is None:
        raise UnsupportedCheckpoint(
            f"it has a mixture-of-experts feed-forward ({mixture}), which family {found[0].key} does not "
            "read; pass --family mixtral, qwen2_moe or qwen3_moe (or give its config.json with model_type)"
        )
    return found


def _detected(
    config: Mapping | None, names: tuple[str, ...], choice: str | None
) -> tuple[Family, Scheme, str] | None:
    """:func:`detect` before the mixture-of-experts check."""
    model_type = config.get("model_type") if config else None
    family = by_name(choice) if choice is not None else None
    declared = by_model_type(model_type) if isinstance(model_type, str) else None
    if family is not None and declared is not None and declared is not family:
        raise UnsupportedCheckpoint(
            f"its config.json says model_type={model_type!r} (family {declared.key}), not --family {choice}"
        )
    family = family or declared
    present = set(names)
    if family is not None:
        found = _anchored(family, names, present if declared is None else None)
        if found is None and declared is None and _anchored(family, names) is not None:
            raise UnsupportedCheckpoint(
                f"--family {choice}: its layers lack {_marker_text(family)}, which {family.title} layers have"
            )
        return found
    fitting = [fit for fit in (_fit(f, present) for f in families()) if fit is not None]
    if not fitting:
        fitting = [fit for fit in (_anchored(f, names, present) for f in families()) if fit is not None]
    if len(fitting) > 1:
        left = {fit[0].key: _left(fit, names) for fit in fitting}
        complete = [fit for fit in fitting if not left[fit[0].key]]
        if not complete:
            raise UnsupportedCheckpoint(
                "no family specbound reads accounts for every tensor: "
                + "; ".join(left.values())
                + "; reading it as any of them would drop those weights"
            )
        complete = [fit for fit in complete if not _refuses(fit[0], names)] or complete
        marked = [fit for fit in complete if _markers(fit[0], fit[1])]
        if len(complete) > 1 and len(marked) != 1:
            keys = ", ".join(fit[0].key for fit in marked or complete)
            raise UnsupportedCheckpoint(
                f"its tensors fit the families {keys}, each of which reads every tensor, and no config "
                "model_type says which; the tensors alone cannot tell them apart (nor from other families "
                "with the same tensor names, whose forward pass differs: give its config.json), or pass "
                f"--family NAME (family= in Python) with NAME one of {keys} if you know it is that family"
            )
        fitting = marked if len(complete) > 1 else complete
    return fitting[0] if fitting else None


def _refuses(family: Family, names: tuple[str, ...]) -> bool:
    """Whether ``family`` would refuse these tensors without a config (mBART a file with no final encoder
    LayerNorm): such a family is not a candidate where another reads every tensor."""
    return family.refusal is not None and family.refusal({}, names) is not None


def _left(fit: tuple[Family, Scheme, str], names: tuple[str, ...]) -> str:
    """'' when the family of ``fit`` accounts for every tensor (:func:`numerics.loading.audit.unread`),
    else why not, in a clause."""
    from numerics.loading.audit import unread, unread_text

    family, scheme, prefix = fit
    try:
        left = unread(family, scheme, prefix, names)
    except CheckpointError as error:
        return f"family {family.key}: {error}"
    return unread_text(family, left) if left else ""


def _anchored(
    family: Family, names: tuple[str, ...], present: set[str] | None = None
) -> tuple[Family, Scheme, str] | None:
    """The family's first scheme whose first role is present (with ``present``: and the family's markers)."""
    for scheme in family.schemes:
        matches = [m for m in map(scheme.anchor.match, names) if m is not None]
        prefixes = {
            m["prefix"]
            for m in matches
            if present is None or _has_markers(family, scheme, m["prefix"], int(m["layer"]), present)
        }
        if prefixes:
            return family, scheme, _single(prefixes)
    return None


def _marker_text(family: Family) -> str:
    """The marker tensors a layer of ``family`` has, per naming (``a and b`` or ``c``)."""
    return " or ".join(" and ".join(_markers(family, scheme)) for scheme in family.schemes)


def _markers(family: Family, scheme: Scheme) -> tuple[str, ...]:
    """The family's markers and those of its naming ``scheme``."""
    return family.markers + scheme.markers


def _has_markers(family: Family, scheme: Scheme, prefix: str, layer: int, present: set[str]) -> bool:
    """Every marker of the family and scheme in some layer under ``prefix`` (``layer``: the layer found
    first, looked at first)."""
    markers = _markers(family, scheme)
    if all(f"{prefix}{scheme.layer_path}.{layer}.{marker}" in present for marker in markers):
        return True
    stack = re.compile(rf"^{re.escape(prefix + scheme.layer_path)}\.\d+\.(.+)$")
    inside = {m[1] for m in map(stack.match, present) if m is not None}
    return all(marker in inside for marker in markers)


def _fit(family: Family, present: set[str]) -> tuple[Family, Scheme, str] | None:
    """The family's first scheme under which a layer has every role's tensor and the family's markers."""
    for scheme in family.schemes:
        prefixes = {
            prefix
            for prefix, layer in scheme.fits(present).items()
            if _has_markers(family, scheme, prefix, layer, present)
        }
        if prefixes:
            return family, scheme, _single(prefixes)
    return None


def _single(prefixes: set[str]) -> str:
    """The one key prefix of a checkpoint; several are several transformer stacks."""
    if len(prefixes) == 1:
        return next(iter(prefixes))
    shown = ", ".join(repr(prefix) for prefix in sorted(prefixes))
    raise UnsupportedCheckpoint(
        f"it holds several transformer stacks (key prefixes {shown}); save the one to study on its own"
    )


def weights_coverage(weights: TransformerWeights) -> tuple[Coverage, ...]:
    """The coverage records of loaded weights (empty when their family is unknown, e.g. synthetic models)."""
    if not any(weights.family == key for key, _, _ in REGISTRY):
        return ()
    family = _family(weights.family)
    return family_coverage(
        family, weights.config, weights.layers, weights.num_heads, weights.kv_heads, weights.source
    )
