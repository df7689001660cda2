"""The formulas layer sits below loading and spectra: evaluating theory's formulas reads no weights.

A loading module (a family's coverage measures) evaluates formulas through numerics.bounds.reach; if
numerics.formulas imported spectra or loading again, that would close the circle loading -> bounds ->
formulas -> spectra -> loading.
"""

from __future__ import annotations

import subprocess
import sys


def test_evaluating_a_formula_imports_neither_spectra_nor_loading():
    code = (
        "import sys, numerics.formulas.evaluate, numerics.formulas.generated;"
        "print(sorted(m for m in sys.modules if m.startswith(('numerics.spectra', 'numerics.loading'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
