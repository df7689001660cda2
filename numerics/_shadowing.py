"""specbound's import names ``theory``, ``numerics`` and ``paper_checks`` are checked to be its own.

A user's ``theory.py``, ``numerics.py`` or ``numerics/__init__.py`` in the directory of a script (the
first entry of ``sys.path``) is found before the installed packages and would make specbound fail later
with an unrelated AttributeError or ImportError. The packages that import a sibling package
(``numerics`` imports ``theory``; ``paper_checks`` imports both) call :func:`ensure_own_packages` first:
each name must resolve (``importlib.util.find_spec``, which runs none of the found code) to the package
installed beside this one, else :class:`ShadowedPackage` says which file shadows which package and what
to do. Standard library only: this module must work whatever ``theory`` resolves to.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable
from pathlib import Path

INSTALLED = Path(__file__).resolve().parents[1]
"""The directory holding specbound's three packages (site-packages, or an editable install's checkout)."""


class ShadowedPackage(ImportError):
    """A module or package outside specbound is found under the import name of one of its packages."""


def shadowing_file(name: str, installed: Path = INSTALLED) -> str | None:
    """What the import name ``name`` resolves to when that is not ``installed / name`` (None when it is)."""
    spec = importlib.util.find_spec(name)
    if spec is None:
        return "nothing (the name resolves to no module)"
    locations = [spec.origin] if spec.origin else list(spec.submodule_search_locations or ())
    expected = installed / name
    if any(Path(location).resolve() in (expected / "__init__.py", expected) for location in locations):
        return None
    return locations[0] if locations else repr(spec)


def ensure_own_packages(names: Iterable[str], installed: Path = INSTALLED) -> None:
    """:class:`ShadowedPackage` naming the first of ``names`` that resolves elsewhere than ``installed``."""
    for name in names:
        found = shadowing_file(name, installed)
        if found is not None:
            raise ShadowedPackage(
                f"specbound's package {name!r} ({installed / name}) is shadowed by {found}, which Python "
                f"finds first on sys.path; rename or move {found}, or run from another directory"
            )
