"""Branch and bound: cover the domain by boxes the kernel accepts a decision on, or find a witness.

Boxes are taken first in first out. Each box is first probed for a counterexample at its inner point and
at its corners in the domain (corners only on the first box when there are more than three variables): a
point where the ball of the gap is < 0 (<= 0 for a strict claim) refutes the inequality. Then a decision
is looked for with the kernel's own primitives (:mod:`theory.prover.kernel`): the enclosure of the gap,
else monotonicity in a variable whose slope has a sign, the face (or a tail [X, oo) at an infinite end,
X in TAIL_STARTS) decided the same way with one variable fewer; the kernel re-checks every decision
before the box counts as decided. An undecided box is split in the variable widest in compactified
coordinates (integers into integer sub-ranges, half-lines at the compactified midpoint). The search
stops when every box is decided (proved, with the cover as certificate), at a witness (refuted), or when
the box or time budget runs out (undecided, with the boxes left). Times are CPU seconds of this process,
checked before every kernel call, so a budget is overrun by at most one enclosure.
Provenance: derived (the decision procedure itself; the kernel decides).
"""

from __future__ import annotations

import itertools
import math
import time
from collections import deque
from fractions import Fraction
from typing import Any

from flint import ctx

from theory.prover.box import Box
from theory.prover.certificate import Certificate, Decision, domain_data
from theory.prover.domain import Domain
from theory.prover.kernel import trees
from theory.prover.kernel import verify as kernel
from theory.prover.kernel.balls import Undefined
from theory.prover.language import to_tree
from theory.prover.result import PROVED, REFUTED, UNDECIDED, InequalityResult, Witness
from theory.prover.statement import Inequality
from theory.prover.unbounded import finite_inner_point


def _infinite(value: object) -> bool:
    """An end is infinite exactly when it is a float (-inf or +inf); finite ends are exact Fractions."""
    return isinstance(value, float)


DEFAULT_BUDGET_SECONDS = 60.0
DEFAULT_MAX_BOXES = 20000
TAIL_STARTS = (Fraction(2**4), Fraction(2**16), Fraction(2**64))
"""Where the tail [X, oo) of a face at +oo may start (mirrored for -oo)."""


class OutOfTime(Exception):
    """The search's deadline passed inside a decision."""


class _Problem:
    """One inequality over its domain in the kernel's terms: the tree, the kernel's domain, the deadline."""

    def __init__(self, inequality: Inequality, domain: Domain, deadline: float) -> None:
        self.tree = to_tree(inequality.gap)
        self.strict = inequality.strict
        self.domain = kernel.read_domain(domain_data(domain))
        self.deadline = deadline

    def tick(self) -> None:
        if time.process_time() > self.deadline:
            raise OutOfTime

    def holds(self, box: kernel.Box, strict: bool) -> bool:
        self.tick()
        return kernel.decide({"method": "enclosure"}, self.tree, box, self.domain, strict) is None

    def direction(self, box: kernel.Box, name: str) -> tuple[str, bool] | None:
        """("increasing" | "decreasing", strictly) when the kernel shows the gap monotone in name."""
        self.tick()
        found = kernel.monotone_direction(self.tree, box, self.domain, name)
        return None if isinstance(found, str) else found

    def find(self, box: kernel.Box, strict: bool, depth: int = 0) -> Decision | None:
        """A decision for gap >= 0 (> 0) on the box: enclosure, else monotone with a decided face or tail."""
        if self.holds(box, strict):
            return {"method": "enclosure"}
        if depth >= len(box):
            return None
        for name, (lo, hi) in box.items():
            if lo == hi:
                continue
            found = self.direction(box, name)
            if found is None:
                continue
            direction, strictly = found
            increasing = direction == "increasing"
            end = lo if increasing else hi
            step: dict[str, Any] = {"method": "monotone", "variable": name, "direction": direction}
            if _infinite(end):
                for start in _tail_starts(lo, hi, increasing):
                    tail = {**box, name: (start, hi) if _infinite(hi) else (lo, start)}
                    then = self.find(tail, strict and not strictly, depth + 1)
                    if then is not None:
                        return {**step, "tail": str(start), "then": then}
                continue
            face_strict = strict and not (strictly and self.domain[name].open_at(end, increasing))
            then = self.find({**box, name: (end, end)}, face_strict, depth + 1)
            if then is not None:
                return {**step, "then": then}
        return None


def _tail_starts(lo: kernel.Bound, hi: kernel.Bound, increasing: bool) -> list[Fraction]:
    """Tail starts inside the range towards its infinite end (increasing: towards -oo)."""
    sign = -1 if increasing else 1
    finite = hi if increasing else lo
    far = -math.inf if _infinite(finite) else sign * Fraction(finite)
    starts = [start for start in TAIL_STARTS if start > far] or [2 * abs(Fraction(finite)) + 1]
    return [sign * start for start in starts]


def kernel_box(box: Box) -> kernel.Box:
    """The kernel's {name: (lo, hi)} of a search box."""
    return {name: (lo, hi) for name, lo, hi in box.ranges}


def _candidates(box: Box, domain: Domain, corners: bool) -> list[dict[str, Fraction]]:
    """Points of the domain to probe: the box's inner point, and its corners that lie in the domain."""
    inner = {}
    for name, lo, hi in box.ranges:
        value = finite_inner_point(lo, hi)
        inner[name] = Fraction(math.floor(value)) if domain[name].integer else value
    points = [inner]
    if corners:
        sides = [[v for v in (lo, hi) if not _infinite(v)] or [inner[n]] for n, lo, hi in box.ranges]
        for combo in itertools.product(*sides):
            points.append({n: Fraction(v) for n, v in zip(box.names, combo, strict=True)})
    return [p for p in points if all(domain[n].contains(Fraction(v)) for n, v in p.items())]


def point_value(tree: Any, values: dict[str, Fraction], domain: dict[str, kernel.Variable]) -> Any:
    """The kernel's enclosure of the tree at one point, at the first precision that fixes its sign (None
    where the tree is undefined there)."""
    box: kernel.Box = {name: (value, value) for name, value in values.items()}
    value = None
    with kernel.precision(kernel.PRECISIONS[0]):
        for bits in kernel.PRECISIONS:
            ctx.prec = bits
            try:
                value = trees.enclose(tree, kernel.environment(box, domain))
            except Undefined:
                return None
            if value.at_least_zero(True) or value.at_most_zero(False):
                break
    return value


def witness_at(
    tree: Any, strict: bool, values: dict[str, Fraction], domain: dict[str, kernel.Variable]
) -> Witness | None:
    """A witness when the gap's ball at the point is < 0 (<= 0 for a strict claim)."""
    value = point_value(tree, values, domain)
    if value is not None and value.at_most_zero(not strict):
        return Witness(values, (str(value.lo), str(value.hi)))
    return None


def search(
    inequality: Inequality,
    domain: Domain,
    budget_seconds: float = DEFAULT_BUDGET_SECONDS,
    max_boxes: int = DEFAULT_MAX_BOXES,
) -> InequalityResult:
    """Decide one inequality over its domain (see the module docstring)."""
    start = time.process_time()
    problem = _Problem(inequality, domain, start + budget_seconds)
    queue: deque[Box] = deque([Box.of_domain(domain)])
    decided: list[tuple[Box, Decision]] = []
    stuck: list[Box] = []
    examined = 0

    def finish(status: str, **evidence: object) -> InequalityResult:
        return InequalityResult(
            inequality.text,
            status,
            examined,
            time.process_time() - start,
            **evidence,  # type: ignore[arg-type]
        )

    while queue:
        if examined >= max_boxes or time.process_time() > problem.deadline:
            return finish(UNDECIDED, remaining=tuple(queue), reason="budget exhausted")
        box = queue.popleft()
        examined += 1
        for values in _candidates(box, domain, corners=examined == 1 or len(box.ranges) <= 3):
            witness = witness_at(problem.tree, problem.strict, values, problem.domain)
            if witness is not None:
                return finish(REFUTED, witness=witness)
        try:
            decision = problem.find(kernel_box(box), problem.strict)
        except OutOfTime:
            return finish(UNDECIDED, remaining=(box, *queue), reason="budget exhausted")
        if decision is not None:
            decided.append((box, decision))
            continue
        variable = box.widest(domain)
        if variable is None:
            stuck.append(box)
            continue
        queue.extend(box.split(variable, domain[variable].integer))
    if stuck:
        return finish(UNDECIDED, remaining=tuple(stuck), reason="points where the gap's ball contains 0")
    certificate = Certificate(inequality, domain, tuple(decided))
    verdict = kernel.check(certificate.to_json())
    if not verdict.accepted:
        return finish(UNDECIDED, reason=f"the kernel rejected the certificate: {verdict.reason}")
    return finish(PROVED, certificate=certificate)
