"""Abs removed where its argument's sign is known: |u| = u where u >= 0, |u| = -u where u <= 0.

``resolved(tree, sign)`` replaces every ``["abs", u]`` node (innermost first) by u when ``sign(u)`` is 1
and by -u when it is -1, and leaves it when ``sign(u)`` is None. When ``sign`` answers only from an
enclosure of u on a box (u >= 0, or u <= 0, at every point of the box), the result equals the tree at
every point of the box where the tree is defined. Provenance: derived (the definition of |u|).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from theory.prover.kernel.nodes import rebuilt

Sign = Callable[[Any], int | None]


def resolved(tree: Any, sign: Sign) -> Any:
    """The tree with each abs of a signed argument written without abs (see the module docstring)."""
    if not isinstance(tree, list) or tree[0] in ("num", "var", "const"):
        return tree
    node = rebuilt(tree, lambda arg: resolved(arg, sign))
    if node[0] == "abs" and len(node) == 2:
        known = sign(node[1])
        if known == 1:
            return node[1]
        if known == -1:
            return ["mul", ["num", "-1"], node[1]]
    return node
