"""The subtrees of a data tree's node, a Piecewise's values and conditions included.

A Piecewise node is ``["piecewise", [value, condition], ...]``: its arguments are pairs, not trees, so a
walk that takes a node's list arguments as its subtrees would see a pair's condition only (the pair's
head is a tree, not an op). Every walk of the kernel over a tree goes through :func:`children` or
:func:`rebuilt`. Provenance: not applicable (data).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def children(tree: Any) -> list[Any]:
    """The subtrees of a node: its tree arguments, and for a Piecewise every value and condition."""
    if tree[0] == "piecewise":
        return [part for pair in tree[1:] for part in pair]
    return [arg for arg in tree[1:] if isinstance(arg, list)]


def rebuilt(tree: Any, change: Callable[[Any], Any]) -> Any:
    """The node with ``change`` applied to each subtree of :func:`children`, its op and other arguments
    kept."""
    if tree[0] == "piecewise":
        return ["piecewise", *([change(value), change(condition)] for value, condition in tree[1:])]
    return [tree[0], *(change(arg) if isinstance(arg, list) else arg for arg in tree[1:])]
