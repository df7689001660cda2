"""The packages' modules, each parsed once per test process: the project-scan tests (the error contract,
the optional imports, the verifier's boundary, the model aliases' one table) read the same files, and
share one ``ast`` tree of each (no scan mutates a tree)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

from tests.helpers.paths import ROOT

PACKAGES = ("theory", "numerics", "paper_checks")
"""The three packages the scans read."""


@functools.cache
def parsed(path: Path) -> ast.Module:
    """The module at ``path`` (under the repository), parsed."""
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


@functools.cache
def modules(*folders: str) -> tuple[Path, ...]:
    """Every ``.py`` file under the folders (relative to the repository's root), sorted."""
    return tuple(path for folder in folders for path in sorted((ROOT / folder).rglob("*.py")))
