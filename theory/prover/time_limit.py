"""A time limit for sympy calls that can run for minutes (solve, limit) inside the prover's search."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class _OutOfTime(BaseException):  # not Exception: sympy catches those and carries on
    pass


def time_limited(seconds: float, compute: Callable[[], T]) -> T | None:
    """compute(), or None when it takes more than ``seconds`` of CPU time (sympy's solve and limit can run
    for minutes). CPU time, not wall time, so that a busy machine does not change what the search finds.
    The limit uses SIGPROF and so applies only in the main thread; elsewhere compute() runs unlimited."""
    if threading.current_thread() is not threading.main_thread():
        return compute()

    def expire(signum: int, frame: object) -> None:
        raise _OutOfTime

    previous = signal.signal(signal.SIGPROF, expire)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        return compute()
    except _OutOfTime:
        return None
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
