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


def default_jobs() -> int:
    """All cores of this machine (``os.cpu_count()``; 1 when unknown)."""
    return os.cpu_count() or 1


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
