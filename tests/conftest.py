"""Shared test configuration: hypothesis profiles, strict numpy, and the model-package fixtures."""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=1000, deadline=None)
settings.register_profile("dev", max_examples=10, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True)
def _strict_numpy():
    """Floating-point warnings are errors in tests (DESIGN.md: warnings are errors)."""
    with np.errstate(all="raise"):
        yield
