"""Progress of long runs on stderr, never on stdout (JSON on stdout stays clean).

On a terminal a loop that lasts shows a tqdm bar naming its items and the one it is on (tqdm comes with
``specbound[models]``, imported lazily; without tqdm nothing is drawn).
Off a terminal, a library call stays silent, but the command line turns on lines per
stage (:func:`configure` with ``stage_lines=True``), so a log shows where a long command is. Only stages
that last STAGE_SECONDS or more report: a loop of milliseconds (the spectra of one small model) stays
silent. ``--quiet`` (``configure(quiet=True)``) silences both.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sized
from typing import TypeVar

from theory.errors import MissingDependency, require
from theory.prover.counts import counted

T = TypeVar("T")

_settings = {"quiet": False, "stage_lines": False}

STAGE_SECONDS = 1.0
"""A loop reports (bar, or stage lines) only once it has run this long."""


def configure(*, quiet: bool = False, stage_lines: bool = False) -> None:
    """Set how :func:`progress` and :func:`stage` report: ``quiet`` silences everything; ``stage_lines``
    prints one line per stage on stderr when it is not a terminal (the command line's default)."""
    _settings["quiet"] = quiet
    _settings["stage_lines"] = stage_lines


def _terminal() -> bool:
    return sys.stderr.isatty()


def stage(message: str) -> None:
    """One line on stderr naming a stage of a long run (off a terminal only when stage lines are on)."""
    if _settings["quiet"] or not (_terminal() or _settings["stage_lines"]):
        return
    print(message, file=sys.stderr, flush=True)


def progress(
    items: Iterable[T],
    total: int | None = None,
    label: str = "",
    unit: str = "item",
    name: Callable[[T], str] | None = None,
) -> Iterator[T]:
    """Yield ``items``, reporting on stderr once the loop has run STAGE_SECONDS: a tqdm bar on a terminal
    (counting ``unit``s, showing ``name(item)`` of the item it is on), else (when stage lines are on) a
    line when an item ends past that time ("4 of 21 lemmas done") and one when the loop ends; nothing when
    quiet or for a shorter loop."""
    count = total if total is not None else (len(items) if isinstance(items, Sized) else None)
    if _settings["quiet"]:
        yield from items
        return
    if _terminal():
        try:
            tqdm = require("tqdm", purpose="a progress bar").tqdm
        except MissingDependency:
            yield from items
            return
        bar = tqdm(
            items,
            total=count,
            desc=label,
            unit=unit,
            file=sys.stderr,
            leave=False,
            dynamic_ncols=True,
            delay=STAGE_SECONDS,
        )
        start = time.monotonic()
        for item in bar:
            if name is not None:  # redrawn at once only once the bar shows (a quick loop stays silent)
                bar.set_postfix_str(name(item), refresh=time.monotonic() - start >= STAGE_SECONDS)
            yield item
        return
    if not _settings["stage_lines"]:
        yield from items
        return
    start = time.monotonic()
    announced = False
    done = 0
    for done, item in enumerate(items, start=1):
        yield item
        elapsed = time.monotonic() - start
        if not announced and elapsed >= STAGE_SECONDS and (count is None or done < count):
            of = f"{done} of {counted(count, unit)}" if count is not None else counted(done, unit)
            stage(f"{label}: {of} done in {elapsed:.1f} s")
            announced = True
    elapsed = time.monotonic() - start
    if announced or elapsed >= STAGE_SECONDS:
        stage(f"{label}: {counted(done, unit)} done in {elapsed:.1f} s")
