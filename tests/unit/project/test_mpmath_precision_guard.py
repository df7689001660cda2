"""The suite's conftest keeps mpmath's precision as found: a module that sets it when imported fails its
collection (every later test, the product's mpmath code included, would run at that precision), a test
that sets it fails, and a test marked ``mp_digits(n)`` runs at n digits."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.planted_pytest import run_planted

PLANTED = {
    "test_a_sets_digits_at_import.py": "import mpmath\nmpmath.mp.dps = 30\ndef test_never_run():\n    pass\n",
    "test_b_runs_at_the_default.py": (
        "import mpmath\nimport pytest\n"
        "def test_default_precision():\n    assert mpmath.mp.prec == 53\n"
        "def test_sets_digits():\n    mpmath.mp.dps = 30\n"
        "@pytest.mark.mp_digits(30)\ndef test_marked():\n    assert mpmath.mp.dps == 30\n"
    ),
}
"""Module a (collected first) sets 30 digits at import; module b's first test checks the default held."""


@pytest.mark.slow  # a pytest subprocess, about 2 CPU s
def test_precision_set_at_import_or_in_a_test_fails_and_the_mark_gives_digits(tmp_path: Path):
    completed = run_planted(tmp_path, None, PLANTED, "--continue-on-collection-errors")
    out = completed.stdout
    assert completed.returncode != 0, out
    assert "test_a_sets_digits_at_import.py set mpmath's precision to 103 bits at import (was 53)" in out, out
    # b's three tests pass; the one that set digits errs in the guard's teardown, and module a errs
    assert "3 passed" in out and "2 errors" in out, out
    assert "the test left mpmath's precision at 103 bits (was 53): use workdps" in out, out
