"""The installed specbound version, from the package metadata (a light module: ``--version`` reads it)."""

from __future__ import annotations

import functools
import importlib.metadata


@functools.cache
def toolkit_version() -> str:
    """The installed specbound version ('unknown' when run from a source tree that is not installed)."""
    try:
        return importlib.metadata.version("specbound")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"
