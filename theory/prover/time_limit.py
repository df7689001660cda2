"""A time limit for sympy calls that can run for minutes (solve, limit) inside the prover's search."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class _OutOfTime(BaseException):  # not Exception: sympy catches those and carries on
    pass


def time_limited(seconds: float, compute: Callable[[], T]) -> T | None:
    """compute(), or None when it takes more than ``seconds`` of CPU time (sympy's solve and limit can run
    for minutes). CPU time, not wall time, so that a busy machine does not change what the search finds.

    The limit uses SIGPROF and so applies only in the main thread; elsewhere compute() runs unlimited.
    Limits nest: an enclosing limit that would expire first stays in force (its expiry propagates to the
    enclosing call), and it is re-armed with what is left of it when this call returns. A signal that
    arrives after this call has finished is ignored rather than raised in unrelated code.
    """
    if threading.current_thread() is not threading.main_thread():
        return compute()
    active = [True]

    def expire(signum: int, frame: object) -> None:
        if active[0]:
            raise _OutOfTime

    outer_left, _ = signal.getitimer(signal.ITIMER_PROF)
    outer_binds = 0 < outer_left <= seconds
    start = time.process_time()
    previous = signal.signal(signal.SIGPROF, expire)
    signal.setitimer(signal.ITIMER_PROF, outer_left if outer_binds else seconds)
    try:
        return compute()
    except _OutOfTime:
        if outer_binds:
            raise  # the enclosing limit expired: it decides
        return None
    finally:
        active[0] = False
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
        if outer_left > 0:  # what is left of the enclosing limit
            signal.setitimer(signal.ITIMER_PROF, max(outer_left - (time.process_time() - start), 1e-3))
