"""Shared test configuration: hypothesis profiles, strict numpy, mpmath's precision left as found, and in CI
a missing package fails."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping

# One BLAS/OpenMP thread per test process, set before numpy or torch load their thread pools: the test
# matrices are small, and on a shared machine idle pool threads spin and multiply the CPU time (torch's
# matrix_norm on 384 x 1536 matrices took 11.7 s of CPU with the default pool, well under 1 s with one).
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

collect_ignore = ["helpers"]
"""tests/helpers holds no tests: --doctest-modules does not import it (some of it needs an optional package,
which the test modules using it check for first)."""

settings.register_profile("ci", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=1000, deadline=None)
settings.register_profile("dev", max_examples=10, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True)
def _strict_numpy():
    """Floating-point warnings are errors in tests (docs/architecture.md: warnings are errors)."""
    with np.errstate(all="raise"):
        yield


@pytest.fixture(autouse=True)
def _mpmath_precision_unchanged(request: pytest.FixtureRequest):
    """A test marked ``mp_digits(n)`` runs inside ``mpmath.workdps(n)``. A test that sets mpmath's global
    precision (mpmath.mp.dps = 50) instead fails: the leaked precision silently changed the last bit of later
    tests' numbers (a measure's fprod)."""
    import mpmath

    marker = request.node.get_closest_marker("mp_digits")
    before = mpmath.mp.prec
    with mpmath.workdps(marker.args[0]) if marker else contextlib.nullcontext():
        inside = mpmath.mp.prec
        yield
        leaked = mpmath.mp.prec
    mpmath.mp.prec = before
    assert leaked == inside, f"the test left mpmath's precision at {leaked} bits (was {inside}): use workdps"


MISSING_DEPENDENCY_WORDS = ("needs", "could not import")
"""Skip reasons that mean "a package is missing": our reasons say "needs ...", pytest.importorskip's default
says "could not import ...". In CI every package is installed (make install), so such a skip is a fault."""


_IMPORTORSKIP = pytest.importorskip


def importorskip_naming_the_module(modname: str, *args: object, **kwargs: object) -> object:
    """pytest.importorskip whose skip reason always starts with "needs <module>", whatever reason the test
    wrote ("the reference reader is transformers"), so that the CI rule below sees every such skip."""
    try:
        return _IMPORTORSKIP(modname, *args, **kwargs)  # type: ignore[arg-type]
    except pytest.skip.Exception as skip:
        raise pytest.skip.Exception(f"needs {modname}: {skip.msg}", allow_module_level=True) from None


pytest.importorskip = importorskip_naming_the_module  # type: ignore[assignment]


def in_ci(environ: Mapping[str, str] = os.environ) -> bool:
    """True when the run is CI's (CI=true, as CI services and .ci/run set it)."""
    return environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def skip_is_failure(reason: str, environ: Mapping[str, str] = os.environ) -> bool:
    """A skip for a missing dependency fails the run in CI: a green CI must have run the real-weight tests."""
    return in_ci(environ) and any(word in reason.lower() for word in MISSING_DEPENDENCY_WORDS)


def fail_missing_package_skip(report: pytest.TestReport | pytest.CollectReport) -> None:
    """In CI, turn ``report``'s skip for a missing package into a failure that names the package."""
    if report.skipped and isinstance(report.longrepr, tuple):
        reason = str(report.longrepr[2])
        if skip_is_failure(reason):
            report.outcome = "failed"
            report.longrepr = f"skipped in CI (CI=true), where every package must be installed: {reason}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    """A test's skip (in setup or in the test: pytest.importorskip, a skip mark) for a missing package."""
    outcome = yield
    fail_missing_package_skip(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector):
    """A whole module's skip (pytest.importorskip or pytest.skip(allow_module_level=True) at import time)
    for a missing package: in CI it fails the collection, so its tests cannot vanish from the count. A
    module that sets mpmath's global precision when imported fails its collection: every later test of the
    run (the product's mpmath code included) would run at that precision."""
    import mpmath

    before = mpmath.mp.prec
    outcome = yield
    report = outcome.get_result()
    fail_missing_package_skip(report)
    if mpmath.mp.prec != before:
        report.outcome = "failed"
        report.longrepr = (
            f"{collector.nodeid} set mpmath's precision to {mpmath.mp.prec} bits at import (was {before}):"
            " mark its tests mp_digits(n) instead"
        )
        mpmath.mp.prec = before
