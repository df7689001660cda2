"""The test suite's layout (tests/README.md): no test module imports another, what tests share lives in
tests/helpers, and every unit test sits in the folder of the package it tests.

A test module importing another runs the other's module-level code and ties the two files together (a
change to one test file silently edits another's fixtures), and under ``--import-mode=importlib`` the bare
form ``from test_x import y`` does not even resolve. The scan reads every Python file under tests/ with
the standard library's ``ast`` (nothing is imported): an import of ``tests.*`` must name ``tests.helpers``;
an import of a bare name that is a module under tests/ (``test_x``, ``family_models``) or a relative import
is refused; so is a test module that loads a test file by path (``spec_from_file_location`` or
``run_path`` beside the name of a ``test_*.py`` file)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.helpers.paths import ROOT

UNIT_GROUPS = ("theory", "numerics", "paper_checks", "project")
"""The folders of tests/unit: the three packages (theory/prover and theory/derive inside theory) and the
repository as a whole (docs, packaging, the rules every package keeps)."""

LOADERS = frozenset({"spec_from_file_location", "run_path", "import_module", "__import__"})
TEST_FILE = re.compile(r"(^|/)test_\w+\.py$")


def _imported(node: ast.AST) -> list[tuple[str, int]]:
    """The modules an import statement names, with the statement's relative level (0 for absolute)."""
    if isinstance(node, ast.Import):
        return [(alias.name, 0) for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        if node.module is None:  # from . import x
            return [(alias.name, node.level) for alias in node.names]
        if node.module == "tests":  # from tests import helpers
            return [(f"tests.{alias.name}", node.level) for alias in node.names]
        return [(node.module, node.level)]
    return []


def _called_name(node: ast.Call) -> str:
    function = node.func
    return function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", "")


def violations(tests: Path) -> list[str]:
    """Every breach of the layout under the folder ``tests``, as "path:line: what" (empty when none)."""
    local = {path.stem for path in tests.rglob("*.py")} - {"__init__", "conftest"}
    found = []
    for path in sorted(tests.rglob("*.py")):
        where = path.relative_to(tests.parent).as_posix()
        relative = path.relative_to(tests)
        is_test = path.name.startswith("test_")
        if not is_test and path.name not in ("__init__.py", "conftest.py") and relative.parts[0] != "helpers":
            found.append(f"{where}:1: a module that is not a test belongs in tests/helpers")
        if is_test and relative.parts[0] == "unit" and relative.parts[1] not in UNIT_GROUPS:
            found.append(f"{where}:1: a unit test belongs in tests/unit/<{'|'.join(UNIT_GROUPS)}>/")
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        called: set[str] = set()  # the called names and the strings, gathered in the one walk over the tree
        strings: list[ast.Constant] = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                called.add(_called_name(node))
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                strings.append(node)
            for module, level in _imported(node):
                top = module.split(".")[0]
                if level:
                    found.append(f"{where}:{node.lineno}: relative import: import tests.helpers.<module>")
                elif top == "tests" and module != "tests.helpers" and not module.startswith("tests.helpers."):
                    found.append(f"{where}:{node.lineno}: imports {module}: only tests.helpers is shared")
                elif top.startswith("test_"):
                    found.append(f"{where}:{node.lineno}: imports the test module {module}: use helpers")
                elif top in local:
                    found.append(f"{where}:{node.lineno}: imports {module} by its bare name: tests.helpers.*")
        if is_test and called & LOADERS:
            for node in strings:
                if TEST_FILE.search(node.value):
                    found.append(f"{where}:{node.lineno}: loads the test file {node.value} by path")
    return found


def test_no_test_module_imports_another_and_shared_code_lives_in_helpers():
    assert violations(ROOT / "tests") == []


def test_the_scan_finds_each_planted_breach(tmp_path: Path):
    tests = tmp_path / "tests"
    planted = {
        "helpers/__init__.py": "",
        "helpers/builders.py": "from tests.unit.theory.test_b import y\n",
        "unit/conftest.py": "from tests.helpers.builders import x\n",
        "unit/theory/test_a.py": (
            "import numpy\n"
            "from tests.helpers.builders import x\n"
            "import tests.helpers.builders\n"
            "from tests import helpers\n"
            "from tests.unit.theory.test_b import y\n"
            "from test_b import y\n"
            "import builders\n"
            "from . import test_b\n"
            "from tests import slow\n"
            "def f():\n"
            "    import tests.slow.test_c\n"
        ),
        "unit/theory/test_b.py": "y = 1\n",
        "unit/test_ungrouped.py": "",
        "slow/test_c.py": (
            "import importlib.util\n"
            "spec = importlib.util.spec_from_file_location('b', 'tests/unit/theory/test_b.py')\n"
        ),
        "slow/builder_beside_tests.py": "",
    }
    for name, text in planted.items():
        (tests / name).parent.mkdir(parents=True, exist_ok=True)
        (tests / name).write_text(text, encoding="utf-8")
    assert [line.split(": ")[0] for line in violations(tests)] == [
        "tests/helpers/builders.py:1",
        "tests/slow/builder_beside_tests.py:1",
        "tests/slow/test_c.py:2",
        "tests/unit/test_ungrouped.py:1",
        "tests/unit/theory/test_a.py:5",
        "tests/unit/theory/test_a.py:6",
        "tests/unit/theory/test_a.py:7",
        "tests/unit/theory/test_a.py:8",
        "tests/unit/theory/test_a.py:9",
        "tests/unit/theory/test_a.py:11",
    ]
