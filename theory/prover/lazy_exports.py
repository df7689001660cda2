"""Public names of a package imported on first use (PEP 562), so importing the package costs nothing.

Part of the prover's base layer (it imports of theory only :mod:`theory.errors`), so that one helper serves
``theory``, ``theory.prover``, ``numerics`` (and its subpackages) and ``paper_checks``: ``specbound bound``
imports neither sympy nor the assembled bound until a name that needs them is asked for, and importing
``theory.prover`` for its base layer costs neither sympy nor python-flint.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from theory.errors import missing_dependency


def lazy_getattr(
    package: str, home: dict[str, str], version: Callable[[], str] | None = None
) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: a name of ``home`` is imported from the module ``home`` maps
    it to and cached in the package's namespace; ``__version__`` is ``version()`` when ``version`` is
    given (the callers pass :func:`theory.version.installed_version`, which the prover does not import);
    any other name is tried as a submodule. A name that is no submodule is an AttributeError; an optional
    package missing while importing the name's module is :class:`~theory.errors.MissingDependency`
    naming that package (never "no attribute"); any other error is re-raised as it is."""

    def __getattr__(name: str) -> Any:
        if name == "__version__" and version is not None:
            return version()
        qualified = f"{package}.{name}"
        try:
            if name not in home:
                return importlib.import_module(qualified)
            value = getattr(importlib.import_module(home[name]), name)
        except ModuleNotFoundError as error:
            if error.name == qualified:
                raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
            missing = missing_dependency(error, purpose=qualified)
            if missing is None:
                raise
            raise missing from None
        setattr(importlib.import_module(package), name, value)
        return value

    return __getattr__
