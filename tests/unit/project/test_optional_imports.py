"""Every optional package is imported through the one guard, ``theory.errors.require``, never bare.

A bare ``import torch`` (or ``from flint import arb``) anywhere in theory, numerics or paper_checks raises
ModuleNotFoundError without the extra, which the CLI can only translate after the fact; through
``require`` it is one line naming the package and the extra. The optional packages are those of
pyproject.toml's extras (``theory.errors.OPTIONAL_MODULES``, which
tests/unit/paper_checks/test_optional.py keeps in step with them). Only imports under
``if TYPE_CHECKING:`` (never run) are exempt.

Every module is clean (issue 24): the test fails on any bare import at all.
"""

from __future__ import annotations

import ast
import sys

import pytest

from tests.helpers.paths import ROOT
from tests.helpers.source_tree import PACKAGES, modules, parsed
from theory.errors import OPTIONAL_MODULES, MissingDependency


def _type_checking_blocks(tree: ast.AST) -> set[int]:
    """ids of the import nodes under an ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``) block."""
    exempt: set[int] = set()
    for node in ast.walk(tree):
        test = node.test if isinstance(node, ast.If) else None
        if (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
            isinstance(test, ast.Attribute)
            and test.attr == "TYPE_CHECKING"
            and isinstance(test.value, ast.Name)
            and test.value.id == "typing"
        ):
            exempt |= {id(inner) for statement in node.body for inner in ast.walk(statement)}
    return exempt


def bare_optional_imports(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, module) of every import statement of an optional package in a parsed module that would run."""
    exempt = _type_checking_blocks(tree)
    found = []
    for node in ast.walk(tree):
        if id(node) in exempt:
            continue
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        else:
            continue
        found += [(node.lineno, name) for name in names if name.split(".")[0] in OPTIONAL_MODULES]
    return sorted(found)


def _counts() -> dict[str, int]:
    counts: dict[str, int] = {}
    for path in modules(*PACKAGES):
        found = bare_optional_imports(parsed(path))
        if found:
            counts[path.relative_to(ROOT).as_posix()] = len(found)
    return counts


def test_no_module_imports_an_optional_package_bare():
    assert _counts() == {}, "import these through theory.errors.require (see the module docstring)"
    assert len(list((ROOT / "numerics").rglob("*.py"))) > 50  # the scan reads the packages' files


def test_the_detector_sees_what_runs_and_exempts_type_checking_only():
    source = (
        "from typing import TYPE_CHECKING\n"
        "import numpy\n"
        "if TYPE_CHECKING:\n    import torch\n"
        "def f():\n    import matplotlib.pyplot as plt\n    from flint import arb\n"
        "class C:\n    def g(self):\n        from hypothesis import strategies\n"
        "from . import flint\n"  # a relative import is the package's own module
        "x = require('torch')\n"
    )
    assert bare_optional_imports(ast.parse(source)) == [
        (6, "matplotlib.pyplot"),
        (7, "flint"),
        (10, "hypothesis"),
    ]


@pytest.mark.parametrize(
    ("module", "package"),
    [("numerics.testing", "hypothesis"), ("numerics.strategies", "hypothesis")],
)
def test_a_module_needing_a_missing_package_names_it(monkeypatch, module, package):
    monkeypatch.delitem(sys.modules, module, raising=False)
    monkeypatch.setitem(sys.modules, package, None)
    monkeypatch.setitem(sys.modules, f"{package}.strategies", None)
    with pytest.raises(MissingDependency, match=rf"needs the package '{package}'"):
        __import__(module)


def test_the_certified_chain_names_a_missing_flint(monkeypatch):
    from numerics.certify import balls

    monkeypatch.setitem(sys.modules, "flint", None)
    for helper in (balls.arb_type, balls.arb_mat_type, balls.flint_context):
        with pytest.raises(MissingDependency, match=r"the package 'python-flint'.*specbound\[certify\]"):
            helper()
