"""A user's theory.py or numerics/ beside a script shadows specbound's packages: the import fails at once
with one message naming the file that shadows and the package shadowed (numerics/_shadowing.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from numerics._shadowing import INSTALLED, ShadowedPackage, ensure_own_packages, shadowing_file
from tests.helpers.paths import ROOT


def _run(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python args`` in ``folder`` (its first sys.path entry), without PYTHONPATH."""
    return subprocess.run([sys.executable, *args], cwd=folder, capture_output=True, text=True, env={})


def test_a_stray_theory_py_beside_a_script_is_named_when_numerics_is_imported(tmp_path):
    (tmp_path / "theory.py").write_text("raise SystemExit('the stray module must not run')\n")
    (tmp_path / "script.py").write_text("import numerics\nprint(numerics.load_weights)\n")
    run = _run(tmp_path, "script.py")
    last = run.stderr.strip().splitlines()[-1]
    assert run.returncode == 1 and "ShadowedPackage" in last, run.stderr
    assert f"package 'theory' ({ROOT / 'theory'}) is shadowed by {tmp_path / 'theory.py'}" in last
    assert "rename or move" in last


def test_a_stray_numerics_package_is_named_by_the_command_line(tmp_path):
    (tmp_path / "numerics").mkdir()
    (tmp_path / "numerics" / "__init__.py").write_text("")
    run = _run(tmp_path, "-m", "paper_checks.cli", "--version")
    assert run.returncode == 1 and run.stdout == ""
    assert (
        f"package 'numerics' ({ROOT / 'numerics'}) is shadowed by {tmp_path / 'numerics' / '__init__.py'}"
        in (run.stderr)
    )


def test_a_folder_without_a_stray_module_runs_the_command_line(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "theory.txt").write_text("not a module\n")
    run = _run(tmp_path, "-m", "paper_checks.cli", "--version")
    assert (run.returncode, run.stdout.split()[0]) == (0, "specbound"), run.stderr


def test_the_check_accepts_the_installed_packages_and_names_another_home(tmp_path):
    assert INSTALLED == ROOT
    assert [shadowing_file(name) for name in ("theory", "numerics", "paper_checks")] == [None, None, None]
    assert shadowing_file("theory", tmp_path) == str(ROOT / "theory" / "__init__.py")
    with pytest.raises(ShadowedPackage, match=r"package 'numerics' \(.*\) is shadowed by .*numerics"):
        ensure_own_packages(["numerics", "theory"], tmp_path)
