"""The packages' import graph has no cycle (tools/import_graph.py, the command docs/architecture.md names).

``KNOWN_CYCLES`` is the allow-list of cycles still to be cut, each as the sorted modules of its strongly
connected component; it is empty, and a new cycle fails this test until it is cut (or listed here, for
review). A planted cycle in a temporary tree shows the graph sees function-level and ``TYPE_CHECKING``
imports, relative imports, and ``from package import submodule``.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

from tests.helpers.paths import ROOT
from tests.helpers.source_tree import parsed

SCRIPT = ROOT / "tools" / "import_graph.py"

KNOWN_CYCLES: list[list[str]] = []


def _tool():
    spec = importlib.util.spec_from_file_location("import_graph", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_packages_have_no_import_cycle_beyond_the_allow_list():
    # the packages' trees as the other project scans hold them (tests/helpers/source_tree.py): one parse
    tool = _tool()
    graph = tool.import_graph(ROOT, read=parsed)
    assert len(graph) > 100 and "paper_checks.cli" in graph["paper_checks.__main__"]
    assert tool.cycles(graph) == KNOWN_CYCLES


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_a_planted_cycle_is_found_through_every_kind_of_import(tmp_path):
    _write(
        tmp_path,
        {
            "theory/__init__.py": "",
            "theory/a.py": "def f():\n    from theory.b import g\n",
            "theory/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import c\n",
            "theory/c.py": "from theory import a\n",
            "theory/d.py": "from theory import c\n",  # into the cycle, not part of it
            "numerics/__init__.py": "",
            "numerics/x.py": "from numerics import y\n",  # a submodule: no edge to the package
            "numerics/y.py": "",
            "paper_checks/__init__.py": "from paper_checks.z import run\n",
            "paper_checks/z.py": "import paper_checks\n",
        },
    )
    tool = _tool()
    graph = tool.import_graph(tmp_path)
    assert graph["numerics.x"] == {"numerics.y"}
    assert tool.cycles(graph) == [["paper_checks", "paper_checks.z"], ["theory.a", "theory.b", "theory.c"]]
    assert tool.closed_path(graph, ["theory.a", "theory.b", "theory.c"]) == [
        "theory.a",
        "theory.b",
        "theory.c",
        "theory.a",
    ]
    run = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path)], capture_output=True, text=True)
    assert run.returncode == 1 and "2 cycles" in run.stdout
    assert "path: theory.a -> theory.b -> theory.c -> theory.a" in run.stdout
    (tmp_path / "theory" / "c.py").write_text("")  # cuts theory's cycle; then paper_checks' goes
    (tmp_path / "paper_checks" / "z.py").write_text("")
    run = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path)], capture_output=True, text=True)
    assert (run.returncode, run.stdout.splitlines()[-1]) == (0, "10 modules, 5 import edges, 0 cycles")
