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

SCRIPT = ROOT / "tools" / "import_graph.py"

KNOWN_CYCLES: list[list[str]] = []


def _tool():
    spec = importlib.util.spec_from_file_location("import_graph", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_command_finds_no_import_cycle_in_the_packages_beyond_the_allow_list(capsys):
    """The command on its default root (the repository), in this process: one parse of the packages (the
    planted test below runs the script itself); the edges it prints are the graph's, the cycles it names
    the allow-list's, and it exits 0 exactly when there is none."""
    status = _tool().main(["--edges"])
    lines = capsys.readouterr().out.splitlines()
    summary = [line for line in lines if line.endswith(" cycles")]
    assert len(summary) == 1 and int(summary[0].split()[0]) > 100, summary
    assert "paper_checks.__main__ -> paper_checks.cli" in lines
    named = [line.split(": ", 1)[1].split() for line in lines if line.startswith("cycle ")]
    assert named == KNOWN_CYCLES
    assert (status, summary[0].endswith(f" {len(KNOWN_CYCLES)} cycles")) == (1 if KNOWN_CYCLES else 0, True)


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
