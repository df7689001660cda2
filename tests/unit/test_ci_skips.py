"""In CI (CI=true) a test skipped for a missing package fails: a green CI has run the real-weight tests."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CONFTEST = Path(__file__).resolve().parents[1] / "conftest.py"

SKIPPING_TESTS = """
import pytest

def test_model_package_missing():
    pytest.importorskip("no_such_model_package_xyz", reason="needs the model package no-such-model")

def test_default_importorskip():
    pytest.importorskip("no_such_model_package_xyz")

def test_skip_for_another_reason():
    pytest.skip("numpy is not linked to OpenBLAS here")
"""


def run_planted(tmp_path: Path, ci: str | None) -> subprocess.CompletedProcess[str]:
    """pytest on three planted skipping tests, with this suite's conftest, CI set to ``ci`` (None: unset)."""
    shutil.copy(CONFTEST, tmp_path / "conftest.py")
    (tmp_path / "test_planted.py").write_text(SKIPPING_TESTS)
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci is not None:
        env["CI"] = ci
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=tmp_path,
        env=env,
    )


@pytest.mark.parametrize("ci", ["true", "1"])
def test_missing_package_skips_fail_in_ci(tmp_path: Path, ci: str):
    completed = run_planted(tmp_path, ci)
    assert completed.returncode == 1, completed.stdout
    assert "2 failed, 1 skipped" in completed.stdout
    assert "needs the model package no-such-model" in completed.stdout


def test_outside_ci_they_are_skips(tmp_path: Path):
    completed = run_planted(tmp_path, None)
    assert completed.returncode == 0, completed.stdout
    assert "3 skipped" in completed.stdout
