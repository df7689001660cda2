"""CPU budgets kept by the process as a whole, not only by the search loops that look at the clock.

The prover's searches stop themselves when ``time.process_time()`` passes their deadline, but much runs
outside them: expanding a derivation's definitions (exponential in the nesting), an identity step's
normal form (``(x + 1)^3000 (x - 1)^3000``), sympy's simplification of one huge expression. Inside
:func:`cpu_limit`, the process's CPU time (``ITIMER_PROF``: user and system time of every thread) is
watched by the kernel: when the limit passes, :class:`OutOfBudget` is raised where Python runs next, and
again every :data:`REPEAT` CPU second while the block lasts (a raise swallowed by some ``except`` or a
destructor does not end the watch). Limits nest: an inner block gets at most what its outer block has
left, and the outer watch resumes when it ends. A command's whole run is one limit (:func:`whole_run`:
its budget and :data:`GRACE`, from reading its input to printing its result) that no :func:`paused`
block suspends: whatever a command computes, its process stops there. Only the main thread receives
the signal; elsewhere the block runs unwatched. A computation inside one C call (a single huge integer
power) is interrupted only when the call returns: the readers bound every number
(:mod:`theory.prover.numbers`) so that none is that large.
Provenance: not applicable (resource control).
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import signal
import threading
import time
from collections.abc import Iterator

from theory.errors import InvalidArgument, SpecboundError

REPEAT = 0.5
"""CPU seconds between two raises of :class:`OutOfBudget` once the limit has passed."""
GRACE = 2.0
"""CPU seconds a command allows beyond its stated budget for reading its input and printing its result
(its searches stop at the budget by themselves and report what is left)."""
LONGEST = 10.0**7
"""The longest budget accepted, in seconds (116 days): beyond it setitimer's argument overflows."""


class OutOfBudget(SpecboundError):
    """The CPU budget ran out: the command stops undecided (exit status 3)."""

    exit_status = 3


def seconds(option: str, value: float) -> float:
    """``value`` if it is a finite number of seconds in (0, LONGEST]; InvalidArgument (one line naming
    ``option``) for 0, a negative number, nan, inf (argparse reads "inf" and "1e999" as inf)."""
    if not (math.isfinite(value) and 0 < value <= LONGEST):
        raise InvalidArgument(f"{option}={value} must be a positive number of seconds, at most {LONGEST:.0e}")
    return value


@dataclasses.dataclass(eq=False)
class _Limit:
    """An open limit: the process CPU time at which it ends, what it limits, whether a :func:`paused`
    block suspends it."""

    end: float
    what: str
    pausable: bool


_deadlines: list[_Limit] = []
"""The open limits, innermost last."""


def _expired(signum: int, frame: object) -> None:
    first = min(_deadlines, key=lambda limit: limit.end, default=None)
    if first is not None and time.process_time() >= first.end:
        raise OutOfBudget(f"{first.what}: the CPU budget ran out")


def _arm() -> None:
    if not _deadlines:
        signal.setitimer(signal.ITIMER_PROF, 0)
        return
    left = min(limit.end for limit in _deadlines) - time.process_time()
    signal.setitimer(signal.ITIMER_PROF, max(left, 0.001), REPEAT)


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """Within the block, no limit runs but the whole run's (:func:`whole_run`); afterwards each suspended
    limit resumes with what it had left (its deadline moved by the CPU time the block took): a referenced
    derivation file is decided under its own steps' budgets, not charged to the step that references it,
    and within the command's budget."""
    saved = [limit for limit in _deadlines if limit.pausable]
    _deadlines[:] = [limit for limit in _deadlines if not limit.pausable]
    _arm()
    start = time.process_time()
    try:
        yield
    finally:
        spent = time.process_time() - start
        for limit in saved:
            limit.end += spent
        _deadlines.extend(saved)
        _arm()


@contextlib.contextmanager
def cpu_limit(budget: float, what: str, pausable: bool = True) -> Iterator[None]:
    """Within the block, at most ``budget`` more CPU seconds of this process (see the module); past them,
    :class:`OutOfBudget` naming ``what``. A :func:`paused` block suspends it unless not ``pausable``."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGPROF, _expired)
    limit = _Limit(time.process_time() + budget, what, pausable)
    _deadlines.append(limit)
    _arm()
    try:
        yield
    finally:
        _deadlines.remove(limit)
        _arm()
        signal.signal(signal.SIGPROF, previous)


@contextlib.contextmanager
def whole_run(budget: float, what: str) -> Iterator[None]:
    """A command's promise on its process's CPU: the block (reading the input, deciding, printing) takes
    at most ``budget`` plus :data:`GRACE` CPU seconds, past which :class:`OutOfBudget` (exit status 3);
    its decisions run within ``budget`` alone (:func:`deciding`), so that the result can be printed in the
    grace. No :func:`paused` block suspends it."""
    global _run_budget
    outer = _run_budget
    _run_budget = (time.process_time() + budget, what)
    try:
        with cpu_limit(budget + GRACE, what, pausable=False):
            yield
    finally:
        _run_budget = outer


_run_budget: tuple[float, str] | None = None
"""The open :func:`whole_run`: (process CPU time at which its budget, without the grace, ends; what)."""


@contextlib.contextmanager
def deciding() -> Iterator[None]:
    """Within the block, what is left of the whole run's budget (:func:`whole_run`) without its grace;
    no limit outside a whole run. Past it, :class:`OutOfBudget`: a caller that catches it reports the
    work left undecided, and prints within the grace."""
    if _run_budget is None:
        yield
        return
    end, what = _run_budget
    with cpu_limit(max(end - time.process_time(), 0.0), what, pausable=False):
        yield
