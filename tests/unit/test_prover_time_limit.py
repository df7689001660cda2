"""The prover's CPU-time limit: expiry, nesting, and no stray signal after a call returns."""

from __future__ import annotations

import time

from theory.prover.time_limit import time_limited


def _spin(seconds: float) -> str:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass
    return "done"


def test_a_call_over_its_limit_gives_none_and_one_within_gives_its_value():
    assert time_limited(0.05, lambda: _spin(1.0)) is None
    assert time_limited(1.0, lambda: _spin(0.01)) == "done"


def test_an_inner_limit_does_not_lift_the_outer_one():
    start = time.process_time()
    # the inner call finishes within its own limit; the outer limit (0.2 s) must still stop the spin after it
    result = time_limited(0.2, lambda: (time_limited(5.0, lambda: _spin(0.01)), _spin(3.0)))
    assert result is None and time.process_time() - start < 1.5


def test_an_outer_limit_that_expires_first_stops_the_inner_call():
    start = time.process_time()
    assert time_limited(0.1, lambda: time_limited(5.0, lambda: _spin(3.0))) is None
    assert time.process_time() - start < 1.5


def test_no_signal_escapes_after_a_call_returns():
    assert time_limited(0.05, lambda: _spin(0.01)) == "done"
    _spin(0.2)  # past the original limit: nothing may be raised here
