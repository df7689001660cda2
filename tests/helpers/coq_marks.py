"""The skip every test that runs coqc carries: coqc (with Interval) is a system package, not a Python one, so
``pytest.importorskip`` cannot find it (in CI, ``tests/conftest.py`` turns the skip into a failure)."""

from __future__ import annotations

import shutil

import pytest

NEEDS_COQC = pytest.mark.skipif(
    shutil.which("coqc") is None, reason="needs coqc: apt-get install coq libcoq-interval"
)
"""Skip where coqc is not installed, naming the Debian packages that provide it."""
