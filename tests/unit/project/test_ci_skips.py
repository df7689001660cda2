"""In CI (CI=true) a test skipped for a missing package fails: a green CI has run the real-weight tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.paths import ROOT
from tests.helpers.planted_pytest import run_planted

SKIPPING_TESTS = """
import pytest

def test_model_package_missing():
    pytest.importorskip("no_such_model_package_xyz", reason="needs the model package no-such-model")

def test_default_importorskip():
    pytest.importorskip("no_such_model_package_xyz")

def test_importorskip_with_a_reason_that_names_no_need():
    pytest.importorskip("no_such_model_package_xyz", reason="the reference reader is transformers")

def test_skip_for_another_reason():
    pytest.skip("numpy is not linked to OpenBLAS here")
"""


MODULE_SKIPS = {
    "test_planted_module_importorskip.py": (
        "import pytest\n"
        "pytest.importorskip('no_such_flint_xyz', reason='needs python-flint (certify extra)')\n"
        "def test_a():\n    pass\n"
    ),
    "test_planted_module_default.py": (
        "import pytest\npytest.importorskip('no_such_flint_xyz')\ndef test_b():\n    pass\n"
    ),
    "test_planted_module_runs.py": "def test_e():\n    pass\n",
}
"""Module-level skips: two whole modules of tests skipped at import for a missing package, beside one that
runs."""

MODULE_MARK = {
    "test_planted_module_mark.py": (
        "import pytest\npytestmark = pytest.mark.skip(reason='needs the models extra')\n"
        "def test_c():\n    pass\ndef test_d():\n    pass\n"
    ),
    "test_planted_module_runs.py": "def test_e():\n    pass\n",
}
"""A module mark skipping every test of a module for a missing package (reported per test)."""


# each test runs pytest in a subprocess (about 2 CPU s): CI=true is the fast tier's smoke test, the other
# cases are slow
def test_missing_package_skips_fail_in_ci(tmp_path: Path):
    completed = run_planted(tmp_path, "true", {"test_planted.py": SKIPPING_TESTS})
    assert completed.returncode == 1, completed.stdout
    assert "3 failed, 1 skipped" in completed.stdout
    assert "needs the model package no-such-model" in completed.stdout
    assert "needs no_such_model_package_xyz: the reference reader is transformers" in completed.stdout


@pytest.mark.slow
def test_module_level_skips_for_a_missing_package_fail_in_ci(tmp_path: Path):
    completed = run_planted(tmp_path, "true", MODULE_SKIPS)
    assert completed.returncode != 0, completed.stdout
    assert "2 errors during collection" in completed.stdout, completed.stdout
    assert "needs python-flint (certify extra)" in completed.stdout
    assert "could not import 'no_such_flint_xyz'" in completed.stdout


@pytest.mark.slow
def test_a_module_mark_skip_for_a_missing_package_fails_each_test_in_ci(tmp_path: Path):
    """CI=1 counts as CI too (the other runs set CI=true)."""
    completed = run_planted(tmp_path, "1", MODULE_MARK)
    assert completed.returncode == 1 and "2 errors" in completed.stdout, completed.stdout  # failed in setup


@pytest.mark.slow
def test_outside_ci_every_kind_of_skip_is_a_skip(tmp_path: Path):
    """One run of the three planted sets (four skipping tests, two modules skipped at import, a module
    mark over two tests, and the module that runs): 8 skips, the one test passes, exit 0."""
    completed = run_planted(
        tmp_path, None, {"test_planted.py": SKIPPING_TESTS, **MODULE_SKIPS, **MODULE_MARK}
    )
    assert completed.returncode == 0, completed.stdout
    assert "1 passed, 8 skipped" in completed.stdout, completed.stdout


def test_the_ci_script_sets_ci_itself():
    script = (ROOT / ".ci" / "run").read_text()
    assert "export CI=true" in script
