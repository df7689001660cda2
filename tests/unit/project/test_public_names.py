"""Private by folder: every package and subpackage of theory, numerics and paper_checks declares its public
surface in ``__all__``, and every name listed there exists (bound in the ``__init__``, a submodule, or a
name the package imports on first use); read from the source, nothing is imported but the ``__init__``s."""

from __future__ import annotations

import ast
import importlib
import importlib.util
from pathlib import Path

from tests.helpers.paths import ROOT

PACKAGES = ("theory", "numerics", "paper_checks")


def packages() -> list[str]:
    """Every package with an ``__init__.py`` under the three, dotted."""
    return sorted(
        ".".join(init.parent.relative_to(ROOT).parts)
        for package in PACKAGES
        for init in (ROOT / package).rglob("__init__.py")
    )


def declared(source: str) -> list[str] | None:
    """The literal ``__all__`` of a module's source (None when it has none); ``sorted(_HOME)`` counts as the
    keys of the dict literal ``_HOME`` (the lazy exports' table)."""
    tree = ast.parse(source)
    tables = {
        target.id: node.value
        for node in tree.body
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name)
    }
    value = tables.get("__all__")
    if value is None:
        return None
    if isinstance(value, ast.Call) and isinstance(value.args[0], ast.Name):  # sorted(_HOME)
        value = ast.List([key for key in tables[value.args[0].id].keys if key is not None])  # type: ignore[attr-defined]
    return [element.value for element in value.elts]  # type: ignore[attr-defined]


def test_declared_reads_a_list_and_a_lazy_table() -> None:
    assert declared("x = 1\n") is None
    assert declared("__all__ = ['a', 'b']\n") == ["a", "b"]
    assert declared("__all__: list[str] = []\n") == []
    assert declared("_HOME = {'B': 'm', 'a': 'n'}\n__all__ = sorted(_HOME)\n") == ["B", "a"]


def test_every_package_declares_its_public_names_and_each_exists() -> None:
    missing, unknown = [], []
    for name in packages():
        init = ROOT / Path(*name.split(".")) / "__init__.py"
        names = declared(init.read_text(encoding="utf-8"))
        if names is None:
            missing.append(name)
            continue
        module = importlib.import_module(name)
        home = getattr(module, "_HOME", {})
        for public in names:
            exists = (
                public in vars(module)
                or public in home
                or public == "__version__"
                or importlib.util.find_spec(f"{name}.{public}") is not None
            )
            if not exists:
                unknown.append(f"{name}.{public}")
    assert missing == [], "give each package an __all__ (the names other packages may use)"
    assert unknown == []
