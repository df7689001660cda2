"""Provenance tags: where each encoded statement comes from (docs/mathematics.md).

- ``exact``: a formula the authors' experiment code computes, or a claim of the paper's abstract;
- ``standard``: a published lemma, cited by paper and lemma number;
- ``reconstructed``: our best reading of a statement of the paper that we could not read;
- ``derived``: a consequence the toolkit itself proves symbolically or checks in interval arithmetic.

The rule for ``derived`` (enforced by :func:`derivation_problem`, which the test suite runs on every lemma
of theory.registry and every Formula of theory): a derived statement carries its :class:`Derivation`, a
callable that re-runs the sympy operation (solve, limit, integrate, summation, simplify, diff, minimum)
or the decision procedure (theory.growth, interval arithmetic) that produced it; re-running it must give
back exactly what is stated. A typed-in formula is ``reconstructed`` or ``standard``, however obvious.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from theory.records import record

if TYPE_CHECKING:
    import sympy as sp


class Provenance(StrEnum):
    """Where an encoded statement comes from; every lemma, expression and verdict carries one."""

    EXACT = "exact"
    STANDARD = "standard"
    RECONSTRUCTED = "reconstructed"
    DERIVED = "derived"


DERIVING_OPERATIONS = (
    "sp.solve",
    "sp.limit",
    "sp.integrate",
    "sp.summation",
    "sp.simplify",
    "sp.diff",
    "sp.minimum",
    "theory.growth",
    "interval arithmetic",
)
"""The operations a derivation may name: sympy's deciding operations and the toolkit's proof procedures."""


@record
class Derivation:
    """How the code derived a statement: the operation in words and a callable that re-runs it.

    ``produce()`` re-runs the operation and returns the derived statement parts (for a Formula: its
    expression, as a one-element tuple), to be compared with what is stated."""

    operation: str
    produce: Callable[[], tuple[sp.Basic, ...]]

    def to_json(self) -> dict[str, str]:
        """{"operation", "procedure"}: what was done, and the callable that does it."""
        name = getattr(self.produce, "__qualname__", repr(self.produce))
        return {"operation": self.operation, "procedure": f"{self.produce.__module__}.{name}"}


@record
class Tagged:
    """A provenance tag with its source (paper and lemma/equation, or file of the authors' code), and for a
    ``derived`` statement the derivation that produced it."""

    provenance: Provenance
    source: str
    derivation: Derivation | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return f"{self.provenance.value}: {self.source}"


def _same(produced: Any, stated: Any) -> bool:
    if produced == stated:
        return True
    import sympy as sp  # only a derivation's check needs sympy (the tags themselves are read at run time)

    if isinstance(produced, sp.Expr) and isinstance(stated, sp.Expr):
        return bool(sp.simplify(produced - stated) == 0)
    if isinstance(produced, sp.Rel) and isinstance(stated, sp.Rel) and type(produced) is type(stated):
        return all(_same(a, b) for a, b in zip(produced.args, stated.args, strict=True))
    if isinstance(produced, sp.Tuple) and isinstance(stated, sp.Tuple) and len(produced) == len(stated):
        return all(_same(a, b) for a, b in zip(produced, stated, strict=True))
    return False


def derivation_problem(tag: Tagged, stated: tuple[sp.Basic, ...]) -> str | None:
    """None when ``tag`` obeys the rule for the ``stated`` parts; else what is wrong, in one line.

    Not derived: nothing to check. Derived: it must carry a Derivation naming one of
    DERIVING_OPERATIONS, and re-running it must reproduce every stated part (same count, each equal)."""
    if tag.provenance is not Provenance.DERIVED:
        return None
    if tag.derivation is None:
        return f"tagged derived ({tag.source}) but carries no derivation: tag it reconstructed or standard"
    if not any(operation in tag.derivation.operation for operation in DERIVING_OPERATIONS):
        return f"derivation {tag.derivation.operation!r} names none of {DERIVING_OPERATIONS}"
    produced = tuple(tag.derivation.produce())
    if len(produced) != len(stated):
        return f"the derivation produces {len(produced)} parts, the statement has {len(stated)}"
    for index, (made, said) in enumerate(zip(produced, stated, strict=True)):
        if not _same(made, said):
            return f"part {index}: stated {said}, but the derivation produces {made}"
    return None


AUTHORS_CODE = "manasakai/spectrum-adaptive-transformers @ 6653d94 (bounds.py, norms.py, extract.py)"
