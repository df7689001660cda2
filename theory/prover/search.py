"""Branch and bound: cover the domain by boxes on which a rule decides the inequality, or find a witness.

Boxes are taken first in first out. On each box the rules of :mod:`theory.prover.rules` are tried in
order: enclosure (of the gap as stated, then in equivalent forms), monotonicity in each variable (the face
is then decided recursively by the same rules, without splitting), then the convexity rule at a critical
point sympy solves for. Before the rules, each box is probed for a counterexample at its midpoint and at
its corners in the domain (corners only on the first box when there are more than three variables); a
point where the gap's ball is < 0 (<= 0 for a strict claim) refutes the inequality. An undecided box is split
in the variable that is widest in compactified coordinates (integers into integer sub-ranges, half-lines
at the compactified midpoint). The search stops when every box is decided (proved, with the cover as
certificate), at a witness (refuted), or when the box or time budget runs out (undecided, with the boxes
left). Times are CPU seconds of this process (a wall-clock budget would expire on a busy machine).
Provenance: derived (the decision procedure itself).
"""

from __future__ import annotations

import itertools
import math
import time
from collections import deque
from fractions import Fraction

import sympy as sp

from theory.prover import rules
from theory.prover.box import Box
from theory.prover.certificate import Certificate, Decision
from theory.prover.domain import Domain
from theory.prover.result import PROVED, REFUTED, UNDECIDED, InequalityResult, Witness
from theory.prover.statement import Inequality
from theory.prover.unbounded import finite_inner_point

DEFAULT_BUDGET_SECONDS = 60.0
DEFAULT_MAX_BOXES = 20000


def decide(expr: sp.Expr, box: Box, domain: Domain, strict: bool, reducible: bool = True) -> Decision | None:
    """A decision proving expr >= 0 (> 0) on the box, or None. ``reducible``: forms and the convexity
    rule are tried (not on faces at a box's own endpoint, whose expressions differ from box to box)."""
    names = rules.REDUCIBLE_FORMS if reducible else rules.FACE_FORMS
    for name in names:
        if rules.holds_by_enclosure(rules.form(expr, name), box, strict):
            return {"rule": "enclosure", "form": name}
    for variable in box.names:
        lo, hi = box.bounds(variable)
        if lo == hi and not rules.symbolic_value(lo):
            continue  # a point range deep in a bisection: stays a point of the enclosure
        sign = (1, False) if lo == hi else rules.derivative_sign(expr, variable, box, names)
        if sign is None:
            continue
        face = rules.monotone_face(expr, variable, box, domain, strict, *sign)
        if face is None:
            continue
        then = decide(face.expr, face.box, domain, face.strict, reducible=False)
        if then is not None:
            return {
                "rule": "monotone",
                "variable": variable,
                "face": "lower" if sign[0] > 0 else "upper",
                **face.record,  # how a face at an infinite end was obtained (tail enclosure or sympy limit)
                "then": then,
            }
    if reducible:
        for variable in box.names:
            for point in rules.critical_points(expr, variable):
                if rules.convex_towards(expr, variable, point, box, domain):
                    reduced = rules.reduced_at(expr, variable, point)
                    then = decide(reduced, box.without(variable), domain, strict)
                    if then is not None:
                        return {
                            "rule": "critical",
                            "variable": variable,
                            "point": sp.srepr(point),
                            "provenance": rules.CRITICAL_PROVENANCE,
                            "then": then,
                        }
    return None


def _candidates(box: Box, domain: Domain, corners: bool) -> list[dict[str, Fraction]]:
    """Points of the domain to probe: the box's inner point, and its corners that lie in the domain."""
    inner = {}
    for name, lo, hi in box.ranges:
        value = finite_inner_point(lo, hi)
        inner[name] = Fraction(math.floor(value)) if domain[name].integer else value
    points = [inner]
    if corners:
        sides = [[v for v in (lo, hi) if not math.isinf(v)] or [inner[n]] for n, lo, hi in box.ranges]
        for combo in itertools.product(*sides):
            points.append({n: Fraction(v) for n, v in zip(box.names, combo, strict=True)})
    return [p for p in points if all(domain[n].contains(Fraction(v)) for n, v in p.items())]


def find_witness(inequality: Inequality, box: Box, domain: Domain, corners: bool) -> Witness | None:
    """A probed point where the gap is rigorously < 0 (<= 0 for a strict inequality)."""
    for values in _candidates(box, domain, corners):
        value = rules.witness_value(inequality.gap, values)
        if value is not None and value.upper_at_most(0, strict=not inequality.strict):
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
        if examined >= max_boxes or time.process_time() - start > budget_seconds:
            return finish(UNDECIDED, remaining=tuple(queue), reason="budget exhausted")
        box = queue.popleft()
        examined += 1
        # probe for a counterexample first: a few point evaluations, cheaper than the rules' sympy work
        witness = find_witness(inequality, box, domain, corners=examined == 1 or len(box.ranges) <= 3)
        if witness is not None:
            return finish(REFUTED, witness=witness)
        decision = decide(inequality.gap, box, domain, inequality.strict)
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
    return finish(PROVED, certificate=Certificate(inequality, domain, tuple(decided)))
