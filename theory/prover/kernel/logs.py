"""The logarithm of a positive tree, expanded: log(a b) = log a + log b, log(b^e) = e log b, log(exp u) = u
for a, b > 0, and log 1 = 0.

``expanded(tree, positive)`` is a tree equal to log(tree) wherever ``positive`` holds for every factor and
base it is asked about (each > 0 on the box, shown by the caller's enclosure), or None when one is not
shown positive. A factor that is none of these stays ``["log", factor]``. Provenance: derived (the
laws of logarithms for positive arguments).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Positive = Callable[[Any], bool]


def expanded(tree: Any, positive: Positive) -> Any | None:
    """log(tree) expanded (see the module docstring), or None."""
    if not positive(tree):
        return None
    op = tree[0]
    if op == "num" and tree[1] == "1":
        return ["num", "0"]
    if op == "exp":
        return tree[1]
    if op == "mul":
        parts = [expanded(factor, positive) for factor in tree[1:]]
        return None if any(part is None for part in parts) else ["add", *parts]
    if op == "pow":
        inner = expanded(tree[1], positive)
        return None if inner is None else ["mul", tree[2], inner]
    return ["log", tree]
