"""A time limit for sympy calls that can run for minutes (solve, limit) inside the prover's search."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class _OutOfTime(Exception):
    pass


def time_limited(seconds: float, compute: Callable[[], T]) -> T | None:
    """compute(), or None when it takes longer than ``seconds`` (sympy's solve and limit can run for
    minutes). The limit uses SIGALRM and so applies only in the main thread; elsewhere compute() runs
    unlimited."""
    if threading.current_thread() is not threading.main_thread():
        return compute()

    def expire(signum: int, frame: object) -> None:
        raise _OutOfTime

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return compute()
    except _OutOfTime:
        return None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
