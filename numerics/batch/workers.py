"""Spread independent tasks over worker processes, results in input order, BLAS single-threaded in each.

Why processes: the work of a bound is LAPACK calls on many small matrices (one layer's SVDs take tens
of milliseconds to seconds) with Python-level work around each (reading, validation, norms); threads
would share one GIL for the latter, and OpenBLAS's own threads spin on a busy machine
(:mod:`numerics.spectra.blas`). Each worker runs OpenBLAS with one thread, as the serial path does, so a
worker computes every float exactly as the serial run would: the same LAPACK routine, the same input, the same
single-threaded blocking. Results come back in the order of the inputs whatever the completion order
(``Executor.map``), so a parallel run is identical bit for bit to the serial one.

``jobs=1`` (or a single task) runs in this process, with no pool at all.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from numerics.spectra.blas import single_threaded_blas
from theory.errors import InvalidArgument, require

T = TypeVar("T")
R = TypeVar("R")
C = TypeVar("C")


def usable_cores() -> int:
    """The cores this process may run on (``os.sched_getaffinity`` where the platform has it, else
    ``os.cpu_count()``; 1 when unknown)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def free_cores() -> tuple[int, str]:
    """(workers, why): one worker per usable core that the 1-minute load average leaves free (cores -
    load, rounded to the nearest integer), at least 1 and at most the cores; ``why`` says how it was chosen.

    Why not every core: a worker on a busy core only adds its start-up and reading to the CPU time (5-6%
    measured with --jobs 2 on BERT-base) while the other users' processes take its share of the core.
    """
    cores = usable_cores()
    try:
        load = os.getloadavg()[0]
    except OSError:  # no load average on this platform: assume the machine is idle
        load = 0.0
    workers = max(1, min(cores, int(cores - load + 0.5)))
    return workers, f"one per free core: {cores} usable, load average {load:.2f} (1 min)"


def default_jobs() -> int:
    """The default number of worker processes: :func:`free_cores`."""
    return free_cores()[0]


def check_jobs(jobs: object) -> int:
    """``jobs`` as a positive int, or InvalidArgument saying what to give."""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise InvalidArgument(f"jobs={jobs!r} must be a positive integer (1 = serial, in this process)")
    return jobs


_CONTEXT: Any = None
"""In a worker process: the shared context its initializer received (sent once, not per task)."""


def _initialise(context: object) -> None:
    """Worker start: one OpenBLAS thread for the worker's whole life; keep the shared context."""
    global _CONTEXT
    single_threaded_blas().__enter__()  # left entered: the worker process ends with the pool
    _CONTEXT = context


def _call(task: tuple[Callable[[Any, Any], Any], Any]) -> Any:
    function, item = task
    return function(_CONTEXT, item)


def ordered_map(function: Callable[[C, T], R], context: C, items: Sequence[T], *, jobs: int) -> Iterator[R]:
    """``function(context, item)`` for every item, in input order, over ``min(jobs, len(items))`` processes.

    ``context`` (e.g. a lazily opened checkpoint) is sent to each worker once, when it starts;
    ``function`` must be a module-level function (it is pickled by name). With one worker everything
    runs in this process under single-threaded BLAS.
    """
    workers = min(check_jobs(jobs), len(items))
    if workers <= 1:
        return _serial(function, context, items)
    return _parallel(function, context, items, workers)


def _serial(function: Callable[[C, T], R], context: C, items: Iterable[T]) -> Iterator[R]:
    with single_threaded_blas():
        for item in items:
            yield function(context, item)


def _parallel(function: Callable[[C, T], R], context: C, items: Sequence[T], workers: int) -> Iterator[R]:
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(workers, initializer=_initialise, initargs=(context,)) as pool:
        yield from pool.map(_call, [(function, item) for item in items])


def cluster_map(scheduler: str, function: Callable[..., R], *iterables: Sequence[Any]) -> list[R]:
    """``function(*args)`` for every tuple of ``iterables``, computed by the Dask cluster at ``scheduler``
    and returned in input order (``function`` must be importable by the workers, and every path in its
    arguments visible to them at the same place)."""
    Client = require("distributed", purpose="--scheduler").Client
    if not iterables or not iterables[0]:
        return []
    try:
        client = Client(scheduler, timeout="20s")
    except OSError as error:
        raise InvalidArgument(f"no Dask scheduler answers at {scheduler!r}: {error}") from None
    with client:
        return list(client.gather(client.map(function, *map(list, iterables), pure=False)))
