"""``single_threaded_blas`` entered before numpy is imported (``prove``'s start-up) imports no numpy,
and numpy loaded inside the block still runs its OpenBLAS on one thread."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.helpers.paths import ROOT

PROBE = """
import json, os, sys
os.environ.pop("OPENBLAS_NUM_THREADS", None)
os.environ.pop("OMP_NUM_THREADS", None)
from numerics.spectra.blas import _openblas, single_threaded_blas
with single_threaded_blas():
    before = "numpy" in sys.modules
    functions = _openblas()  # imports numpy and loads its OpenBLAS inside the block
    threads = None if functions is None else functions[0]()
left = os.environ.get("OPENBLAS_NUM_THREADS")
print(json.dumps({"numpy_before": before, "threads": threads, "left": left}))
"""


def test_the_guard_imports_no_numpy_and_numpy_loaded_inside_runs_one_thread():
    probe = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, cwd=ROOT, timeout=120, check=True
    )
    found = json.loads(probe.stdout)
    assert found["numpy_before"] is False
    assert found["threads"] in (1, None)  # None: numpy is not linked to OpenBLAS here
    assert found["left"] is None  # the variable is the block's only
