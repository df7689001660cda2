"""The layers' certificates on the default path import no ball library: python-flint (about 10 MB resident)
is first imported by the composition after the layers, which is what keeps ``bound --certify``'s peak
resident set at the plain run's (benchmarks/certify_memory.py). Checked in a fresh interpreter, where no
other test has imported it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.helpers.paths import ROOT

SCRIPT = """
import sys
import numpy as np
from numerics.certify.certified import LayerCertificates
from numerics.spectra.matrices import NamedMatrix
from theory.kinds import MatrixKind

rng = np.random.default_rng(0)
layer = LayerCertificates("auto", 0)
dense = NamedMatrix(0, -1, MatrixKind.M_IN, rng.standard_normal((32, 64)))
points = layer.dense_values(dense)
heads = [NamedMatrix(0, h, MatrixKind.QK, rng.standard_normal((32, 8)), rng.standard_normal((32, 8)))
         for h in range(4)]
values = layer.finish([dense, *heads])
assert points is not None and len(values) == 5
assert all(path == "float-apriori" for *_, path in values), [path for *_, path in values]
print("flint" in sys.modules)
ball = values[1][0].balls[0]  # the composition's first arb use
print("flint" in sys.modules, ball.upper() > 0)
"""


@pytest.mark.slow
def test_a_layers_certificates_leave_python_flint_unimported():
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, check=True, timeout=None
    )
    assert done.stdout.split() == ["False", "True", "True"], done.stderr
