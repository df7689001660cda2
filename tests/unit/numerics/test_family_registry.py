"""The family registry (numerics.loading.families.REGISTRY) against the adapter modules it names.

The registry lets a checkpoint whose config names its model type import that family's module alone, so it
repeats each family's key and model types: every registered entry must name a Family with exactly that
key and those model types, and every adapter module of the package must be registered.
"""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import numerics.loading.families as families_package
from numerics.loading.families import REGISTRY, by_model_type, by_name, families

HELPERS = {"base", "seq2seq"}
"""Modules of the package that build no Family: what adapters share."""


def registry_mismatches(registry: tuple[tuple[str, tuple[str, ...], str], ...]) -> list[str]:
    """What in ``registry`` disagrees with the adapter modules: a key or model types other than the
    Family's own, a duplicate key or model type, an adapter module no entry names."""
    problems = []
    for key, model_types, location in registry:
        module, attribute = location.split(".")
        family = getattr(importlib.import_module(f"numerics.loading.families.{module}"), attribute)
        if (family.key, family.model_types) != (key, model_types):
            actual = f"{family.key} {family.model_types}"
            problems.append(f"{location}: registered {key} {model_types}, is {actual}")
    keys = [key for key, _, _ in registry]
    types = [t for _, model_types, _ in registry for t in model_types]
    for what, names in (("key", keys), ("model type", types)):
        problems += [f"duplicate {what} {name}" for name in sorted({n for n in names if names.count(n) > 1})]
    named = {location.split(".")[0] for _, _, location in registry}
    adapters = {info.name for info in pkgutil.iter_modules(families_package.__path__)} - HELPERS
    problems += [f"module {name} is not registered" for name in sorted(adapters - named)]
    return problems


def test_the_registry_names_every_adapter_with_its_own_key_and_model_types():
    assert registry_mismatches(REGISTRY) == []


def test_a_registry_entry_that_disagrees_with_its_module_is_found():
    (key, model_types, location), *rest = REGISTRY
    planted = ((key, (*model_types, "xlnet"), location), *rest)  # a model type the adapter does not read
    assert registry_mismatches(tuple(planted)) == [
        f"{location}: registered {key} {(*model_types, 'xlnet')}, is {key} {model_types}"
    ]
    assert registry_mismatches(tuple(rest)) == ["module bert is not registered"]
    assert registry_mismatches((*REGISTRY, REGISTRY[0])) == [
        "duplicate key bert",
        *[f"duplicate model type {t}" for t in sorted(model_types)],
    ]


@pytest.mark.parametrize(("name", "key"), [("roberta", "bert"), ("gemma2", "gemma2"), ("qwen2", "llama")])
def test_lookups_by_model_type_and_key_return_the_registered_family(name, key):
    assert by_name(name).key == key
    assert by_model_type("xlnet") is None
    assert [family.key for family in families()] == [key for key, _, _ in REGISTRY]
