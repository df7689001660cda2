"""The model families specbound reads, one adapter module each, and how a checkpoint's family is found.

:data:`FAMILIES` in order of detection. :func:`detect` uses the config's ``model_type`` when there is
one, else the tensor names (the first family one of whose naming schemes matches a tensor).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from numerics.loading.coverage import Coverage
from numerics.loading.families import bert, distilbert, gpt2, llama, vit
from numerics.loading.families.base import Family, Scheme, Sizes, family_coverage
from numerics.loading.weights import TransformerWeights

__all__ = [
    "FAMILIES",
    "Family",
    "Scheme",
    "Sizes",
    "by_model_type",
    "detect",
    "family_coverage",
    "supported_text",
]

FAMILIES: tuple[Family, ...] = (bert.FAMILY, distilbert.FAMILY, gpt2.FAMILY, vit.FAMILY, llama.FAMILY)


def supported_text() -> str:
    """The supported model types, for error messages."""
    return ", ".join(t for family in FAMILIES for t in family.model_types)


def by_model_type(model_type: str) -> Family | None:
    """The family of a config's ``model_type``, or None."""
    return next((family for family in FAMILIES if model_type in family.model_types), None)


def detect(config: Mapping | None, names: Iterable[str]) -> tuple[Family, Scheme, str] | None:
    """The family, naming scheme and key prefix of a checkpoint, or None when no scheme matches.

    With a config ``model_type`` only that family's schemes are tried.
    """
    model_type = config.get("model_type") if config else None
    family = by_model_type(model_type) if isinstance(model_type, str) else None
    candidates = (family,) if family is not None else FAMILIES
    names = tuple(names)
    for candidate in candidates:
        for scheme in candidate.schemes:
            prefixes = {m["prefix"] for m in map(scheme.anchor.match, names) if m is not None}
            if prefixes:
                return (
                    candidate,
                    scheme,
                    min(prefixes, key=len) if len(prefixes) == 1 else _ambiguous(prefixes),
                )
    return None


def _ambiguous(prefixes: set[str]) -> str:
    from theory.errors import UnsupportedCheckpoint

    shown = ", ".join(repr(prefix) for prefix in sorted(prefixes))
    raise UnsupportedCheckpoint(
        f"it holds several transformer stacks (key prefixes {shown}); save the one to study on its own"
    )


def weights_coverage(weights: TransformerWeights) -> tuple[Coverage, ...]:
    """The coverage records of loaded weights (empty when their family is unknown, e.g. synthetic models)."""
    family = next((f for f in FAMILIES if f.key == weights.family), None)
    if family is None:
        return ()
    return family_coverage(family, weights.layers, weights.num_heads, weights.kv_heads, weights.source)
