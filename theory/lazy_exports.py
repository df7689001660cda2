"""Public names of a package imported on first use (PEP 562), so importing the package costs nothing.

Used by ``theory/__init__``, ``numerics/__init__`` and ``paper_checks/__init__``: ``specbound bound``
imports neither sympy nor the assembled bound until a name that needs them is asked for.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def lazy_getattr(package: str, home: dict[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: a name of ``home`` is imported from the module ``home`` maps
    it to and cached in the package's namespace; ``__version__`` is :func:`theory.version.installed_version`;
    any other name is tried as a submodule."""

    def __getattr__(name: str) -> Any:
        if name == "__version__":
            from theory.version import installed_version

            return installed_version()
        if name in home:
            value = getattr(importlib.import_module(home[name]), name)
            setattr(importlib.import_module(package), name, value)
            return value
        try:
            return importlib.import_module(f"{package}.{name}")
        except ModuleNotFoundError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None

    return __getattr__
