"""Fixtures shared by the tests of this directory: the model families' tiny models, edited files."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def tiny_models(tmp_path_factory):
    """One saved tiny model per family, built on first use and shared by every test of the session."""
    from tests.helpers.family_models import TinyModel, build

    built: dict[str, TinyModel] = {}

    def get(name: str) -> TinyModel:
        if name not in built:
            built[name] = build(name, tmp_path_factory.mktemp(name))
        return built[name]

    return get


@pytest.fixture
def edited_file(tmp_path: Path) -> Callable[[Path, str, str], Path]:
    """edit(source, old, new): a copy of the file ``source`` in tmp_path with its first ``old`` replaced by
    ``new`` (asserting ``old`` is there, so an edit of a changed example fails instead of testing nothing)."""

    def edit(source: Path, old: str, new: str) -> Path:
        text = source.read_text(encoding="utf-8")
        assert old in text, old
        path = tmp_path / f"edited_{source.name}"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
        return path

    return edit
