"""A minimal progress bar on stderr for long runs (no dependency).

It draws only when stderr is a terminal, so JSON on stdout and logs in CI stay clean.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator, Sized
from typing import TypeVar

T = TypeVar("T")


def progress(items: Iterable[T], total: int | None = None, label: str = "") -> Iterator[T]:
    """Yield ``items`` while drawing ``label [#####.....] k/total`` on stderr when it is a terminal."""
    stream = sys.stderr
    if not stream.isatty():
        yield from items
        return
    count = total if total is not None else (len(items) if isinstance(items, Sized) else None)
    start = time.monotonic()
    for done, item in enumerate(items, start=1):
        yield item
        if count:
            filled = int(30 * done / count)
            bar = "#" * filled + "." * (30 - filled)
            stream.write(f"\r{label} [{bar}] {done}/{count} {time.monotonic() - start:5.1f}s")
        else:
            stream.write(f"\r{label} {done} {time.monotonic() - start:5.1f}s")
        stream.flush()
    stream.write("\r" + " " * 70 + "\r")
    stream.flush()
