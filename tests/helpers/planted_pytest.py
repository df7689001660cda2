"""A pytest run on planted test modules with this suite's conftest (tests/conftest.py), for the tests of
the conftest's own rules (a skip for a missing package in CI, mpmath's precision left as found)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.helpers.hostile_files import run_limited
from tests.helpers.paths import ROOT

CONFTEST = ROOT / "tests" / "conftest.py"

PLUGINS = ("--disable-plugin-autoload", "-p", "hypothesispytest")
"""The suite's plugins as pyproject.toml's addopts load them (the planted conftest imports hypothesis): no
other plugin is loaded and hypothesis's modules are not rewritten for assertions."""


def run_planted(
    tmp_path: Path, ci: str | None, modules: dict[str, str], *options: str
) -> subprocess.CompletedProcess[str]:
    """pytest [options] on the planted modules (file name -> text) in tmp_path, with this suite's conftest,
    CI set to ``ci`` (None: unset)."""
    shutil.copy(CONFTEST, tmp_path / "conftest.py")
    for name, text in modules.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci is not None:
        env["CI"] = ci
    return run_limited(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *PLUGINS, *options, str(tmp_path)],
        120,
        "the planted pytest run",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
    )
