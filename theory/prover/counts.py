"""Counts as printed: "1 claim", "3 claims" (one helper, so no output says "1 claims")."""

from __future__ import annotations


def counted(count: int, singular: str, plural: str | None = None) -> str:
    """``count`` followed by ``singular`` when it is 1, else by ``plural`` (default ``singular + "s"``).

    >>> counted(1, "claim"), counted(3, "job"), counted(0, "box", "boxes")
    ('1 claim', '3 jobs', '0 boxes')
    """
    return f"{count} {singular if count == 1 else plural or singular + 's'}"
