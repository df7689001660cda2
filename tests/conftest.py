"""Shared test configuration: hypothesis profiles, strict numpy, and the model-package fixtures."""

from __future__ import annotations

import os

# One BLAS/OpenMP thread per test process, set before numpy or torch load their thread pools: the test
# matrices are small, and on a shared machine idle pool threads spin and multiply the CPU time (torch's
# matrix_norm on 384 x 1536 matrices took 11.7 s of CPU with the default pool, well under 1 s with one).
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=1000, deadline=None)
settings.register_profile("dev", max_examples=10, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True)
def _strict_numpy():
    """Floating-point warnings are errors in tests (docs/architecture.md: warnings are errors)."""
    with np.errstate(all="raise"):
        yield
