"""A box: one closed range [lo, hi] per variable, with exact rational (or infinite) endpoints.

Boxes partition the closure of the domain; a range of an integer variable stands for the integers in it.
An open end of the domain appears in a box as its closure point; the kernel (:mod:`theory.prover.kernel`)
knows which box ends are open domain ends (points not in the set).
Provenance: not applicable (data).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from theory.errors import UnknownName
from theory.prover.counts import counted
from theory.prover.domain import Bound, Domain, format_bound, parse_number
from theory.prover.unbounded import compact, split_point


def count_of_boxes(count: int) -> str:
    """The number of boxes as printed: "1 box", "n boxes"."""
    return counted(count, "box", "boxes")


@dataclass(frozen=True)
class Box:
    """Ranges in domain order: ((name, lo, hi), ...); ``opens`` the (name, "lo" | "hi") ends that are open
    ends of the domain (not points of the statement's set)."""

    ranges: tuple[tuple[str, Bound, Bound], ...]
    opens: frozenset[tuple[str, str]] = field(default=frozenset(), compare=False)

    @classmethod
    def of_domain(cls, domain: Domain) -> Box:
        """The closure of the whole domain."""
        ranges = tuple((v.name, v.lower, v.upper) for v in domain.variables)
        return cls(ranges, _open_ends(ranges, domain))

    def bounds(self, name: str) -> tuple[Bound, Bound]:
        """(lo, hi) of one variable."""
        for other, lo, hi in self.ranges:
            if other == name:
                return lo, hi
        raise UnknownName(f"the box has no variable {name!r}; its variables are {list(self.names)}")

    @property
    def names(self) -> tuple[str, ...]:
        """The variables of the box."""
        return tuple(name for name, _, _ in self.ranges)

    def without(self, name: str) -> Box:
        """The face box: the same ranges minus ``name`` (its value is substituted into the expression)."""
        return Box(
            tuple(r for r in self.ranges if r[0] != name), frozenset(e for e in self.opens if e[0] != name)
        )

    def fixed(self, name: str, value: Bound) -> Box:
        """The face box name = value, kept as the point range [value, value]."""
        ranges = tuple((n, value, value) if n == name else (n, a, b) for n, a, b in self.ranges)
        return Box(ranges, frozenset(e for e in self.opens if e[0] != name))

    def split(self, name: str, integer: bool, at: Fraction | None = None) -> tuple[Box, Box]:
        """The two halves at ``at`` (a real variable's value inside the range), by default at
        :func:`~theory.prover.unbounded.split_point`."""
        lo, hi = self.bounds(name)
        cut = split_point(lo, hi, integer) if at is None else at
        left_hi, right_lo = (cut, cut + 1) if integer else (cut, cut)
        left = tuple((n, a, left_hi if n == name else b) for n, a, b in self.ranges)
        right = tuple((n, right_lo if n == name else a, b) for n, a, b in self.ranges)
        return Box(left, self.opens - {(name, "hi")}), Box(right, self.opens - {(name, "lo")})

    def widest(self, domain: Domain) -> str | None:
        """The variable with the widest range in compactified coordinates (None for a single point)."""
        best, best_width = None, -1.0
        for name, lo, hi in self.ranges:
            if lo == hi:
                continue
            width = compact(hi) - compact(lo)  # may round to 0.0 far out on a half-line: still splittable
            if width > best_width:
                best, best_width = name, width
        return best

    def is_point(self) -> bool:
        """Every range is a single value."""
        return all(lo == hi for _, lo, hi in self.ranges)

    def to_json(self) -> dict[str, list[str]]:
        """{name: [lo, hi]} with exact rationals as strings ("1/3", "-oo")."""
        return {name: [format_bound(lo), format_bound(hi)] for name, lo, hi in self.ranges}

    @classmethod
    def from_json(cls, data: dict[str, Any], domain: Domain) -> Box:
        """Inverse of to_json, in domain order (a missing or extra variable raises
        :class:`~theory.errors.UnknownName`)."""
        if set(data) != set(domain.names):
            raise UnknownName(f"box variables {sorted(data)} differ from the domain's {sorted(domain.names)}")
        ranges = []
        for name in domain.names:
            lo, hi = (parse_number(str(text), f"box of {name}") for text in data[name])
            ranges.append((name, lo, hi))
        return cls(tuple(ranges), _open_ends(tuple(ranges), domain))


def _open_ends(ranges: tuple[tuple[str, Bound, Bound], ...], domain: Domain) -> frozenset[tuple[str, str]]:
    ends = set()
    for name, lo, hi in ranges:
        variable = domain[name]
        if variable.lower_open and lo == variable.lower:
            ends.add((name, "lo"))
        if variable.upper_open and hi == variable.upper:
            ends.add((name, "hi"))
    return frozenset(ends)
