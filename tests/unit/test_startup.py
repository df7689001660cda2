"""Start-up cost of ``specbound bound``: what it does not use is not imported (lazy imports).

sympy is the largest of them (0.3 s): the bound path evaluates theory's formulas from their generated
lambdify source (numerics.formulas.generated), so neither the CLI nor ``bound`` may import it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from bert_checkpoint_files import bert_config, tiny_bert_tensors, write_folder

pytest.importorskip("safetensors", reason="writing the tiny checkpoint needs safetensors (models extra)")

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import contextlib, io, sys
from paper_checks.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    status = main(["bound", sys.argv[1], "--jobs", "1"])
heavy = ("numerics.bounds.assembled", "theory.assembled", "numerics.synthetic.gap", "numpy.f2py", "torch",
         "sympy", "transformers", "matplotlib", "pandas", "theory.proxy", "paper_checks.commands.check")
print(status, *[name for name in heavy if name in sys.modules])
"""

IMPORT_ONLY = """
import sys
import paper_checks.cli, theory, numerics
print(*[name for name in ("sympy", "torch", "transformers", "matplotlib", "pandas") if name in sys.modules])
"""


def test_importing_the_cli_imports_neither_sympy_nor_torch():
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_ONLY], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == [], done.stdout + done.stderr


def test_bound_imports_no_sympy_torch_plotting_nor_other_commands(tmp_path):
    folder = write_folder(tmp_path / "m", tiny_bert_tensors(), bert_config())
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(folder)], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["0"], done.stdout + done.stderr
