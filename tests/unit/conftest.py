"""Fixtures shared by the model-family tests of this directory."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def tiny_models(tmp_path_factory):
    """One saved tiny model per family, built on first use and shared by every test of the session."""
    from family_models import TinyModel, build

    built: dict[str, TinyModel] = {}

    def get(name: str) -> TinyModel:
        if name not in built:
            built[name] = build(name, tmp_path_factory.mktemp(name))
        return built[name]

    return get
