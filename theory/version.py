"""The specbound version, from one source: the installed distribution's metadata (pyproject.toml's version).

Each package's ``__version__`` (``theory``, ``numerics``, ``paper_checks``) and every result's signature
read it here.
"""

from __future__ import annotations

import functools
import importlib.metadata


@functools.cache
def installed_version() -> str:
    """The installed specbound version ('unknown' when run from a source tree that is not installed).

    >>> installed_version() == importlib.metadata.version("specbound")
    True
    """
    try:
        return importlib.metadata.version("specbound")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"
