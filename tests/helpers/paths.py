"""The repository's root, for tests that read its files (docs, examples, pyproject.toml) or run scripts."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
