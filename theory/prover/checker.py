"""Re-verify a certificate from scratch: the boxes partition the domain, and each box's decision holds.

The checker reads only the certificate's JSON. It re-parses the domain and the gap, and then

1. checks the cover constructively: the boxes must form a guillotine partition of the domain's closure.
   A region is either exactly one box, or some variable has a cut c with every box of the region on one
   side (hi <= c or lo >= c; for integers hi <= c - 1 or lo >= c); both sides are checked recursively.
   A missing box leaves a region with no box, a moved endpoint a region that no box equals: rejected;
2. replays every decision with the primitives of :mod:`theory.prover.rules` (recomputing derivatives,
   faces, limits, critical points and enclosures itself); nothing the search computed is trusted.
   Enclosures, derivative and curvature signs, tails at infinity are re-derived in arb balls. Three steps
   stay sympy's, re-run rather than re-derived, and say so in the certificate's step record: a limit at
   infinity ("sympy limit (Gruntz), not re-derived"; its claimed value must also meet the gap's ball
   enclosure on every tail), the exact zero of the slope at a critical point (rejected first where the
   slope's ball excludes 0), and the simplified reduced gap there.

The certificate's text is read with sympy's ``sympify`` (which evaluates Python expressions): check
certificates from sources you trust, as you would run their code.

Provenance: derived (the checker is the proof; the search only finds it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy as sp

from theory.errors import InvalidArgument
from theory.prover import rules
from theory.prover.box import Box
from theory.prover.certificate import CERTIFICATE_FORMAT
from theory.prover.domain import Bound, Domain, parse_domain


class InvalidCertificate(InvalidArgument):
    """The certificate is not in the certificate format at all (as opposed to: it does not check)."""


@dataclass(frozen=True)
class CheckReport:
    """accepted, with the reason of a rejection (the first failing box or region)."""

    accepted: bool
    reason: str
    boxes: int


def _cover_gap(boxes: list[Box], region: Box, domain: Domain) -> str | None:
    """None when boxes partition region exactly (guillotine), else the description of the failure."""
    stack = [(boxes, region)]
    while stack:
        members, current = stack.pop()
        if not members:
            return f"no box covers {current.to_json()}"
        if len(members) == 1:
            if members[0] != current:
                return f"box {members[0].to_json()} differs from the region {current.to_json()} left to cover"
            continue
        split = _guillotine(members, current, domain)
        if split is None:
            return f"the boxes over {current.to_json()} overlap or leave a gap (no cut separates them)"
        stack.extend(split)
    return None


def _guillotine(members: list[Box], region: Box, domain: Domain) -> list[tuple[list[Box], Box]] | None:
    for name, region_lo, region_hi in region.ranges:
        integer = domain[name].integer
        ordered = sorted(members, key=lambda b: b.bounds(name)[0])
        reach: Bound = -math.inf
        for index in range(len(ordered) - 1):
            reach = max(reach, ordered[index].bounds(name)[1])
            cut = ordered[index + 1].bounds(name)[0]
            separated = reach < cut if integer else reach <= cut
            if separated and region_lo < cut <= region_hi:
                left_hi = cut - 1 if integer else cut
                left = Box(tuple((n, a, left_hi if n == name else b) for n, a, b in region.ranges))
                right = Box(tuple((n, cut if n == name else a, b) for n, a, b in region.ranges))
                return [(ordered[: index + 1], left), (ordered[index + 1 :], right)]
    return None


def _replay(decision: Any, expr: sp.Expr, box: Box, domain: Domain, strict: bool) -> str | None:
    """None when the decision proves expr >= 0 (> 0) on the box, else why it does not."""
    if not isinstance(decision, dict):
        return "no decision"
    rule = decision.get("rule")
    if rule == "enclosure":
        name = decision.get("form")
        if name in rules.FORMS and rules.holds_by_enclosure(rules.form(expr, name), box, strict):
            return None
        return f"enclosure ({name}) does not decide"
    variable = decision.get("variable")
    if variable not in box.names:
        return f"no variable {variable!r} in the box"
    if rule == "monotone":
        return _replay_monotone(decision, expr, variable, box, domain, strict)
    if rule == "critical":
        return _replay_critical(decision, expr, variable, box, domain, strict)
    return f"unknown rule {rule!r}"


def _replay_monotone(
    decision: dict[str, Any], expr: sp.Expr, variable: str, box: Box, domain: Domain, strict: bool
) -> str | None:
    lo, hi = box.bounds(variable)
    wanted = 1 if decision.get("face") == "lower" else -1
    if lo == hi:
        sign: tuple[int, bool] | None = (wanted, False) if rules.symbolic_value(lo) else None
    else:
        sign = rules.derivative_sign(expr, variable, box, rules.REDUCIBLE_FORMS)
    if sign is None or sign[0] != wanted:
        return f"the arb-ball enclosure of d gap/d{variable} does not show the claimed sign"
    end = lo if wanted > 0 else hi
    if math.isinf(end):
        face, reason = _face_at_infinity(decision, expr, variable, box, domain, strict, sign)
    else:
        face, reason = rules.monotone_face(expr, variable, box, domain, strict, *sign), "no face"
    if face is None:
        return reason
    return _replay(decision.get("then"), face.expr, face.box, domain, face.strict)


def _face_at_infinity(
    decision: dict[str, Any],
    expr: sp.Expr,
    variable: str,
    box: Box,
    domain: Domain,
    strict: bool,
    sign: tuple[int, bool],
) -> tuple[rules.Face | None, str]:
    """The face at an infinite end from the certificate's record, verified: a tail start inside the range
    (the then-decision then decides the tail in balls), or a claimed limit that sympy's limit re-derives
    and whose ball meets the gap's enclosure on every tail."""
    end = box.bounds(variable)[0 if sign[0] > 0 else 1]
    towards = 1 if end > 0 else -1
    face_strict = strict and not sign[1]
    wanted = rules.TAIL_PROVENANCE if "tail" in decision else rules.LIMIT_PROVENANCE
    if decision.get("provenance") != wanted:
        return None, "the step record's provenance is not what the checker verifies"
    if "tail" in decision:
        try:
            start = Fraction(str(decision["tail"]))
        except (ValueError, ZeroDivisionError):
            return None, f"tail start {decision['tail']!r} is not a rational"
        face = rules.tail_face(expr, variable, box, start, towards, face_strict)
        return face, f"tail start {decision['tail']} outside the range of {variable}"
    if "limit" not in decision:
        return None, "a face at an infinite end records neither a tail nor a limit"
    try:
        claimed = sp.sympify(decision["limit"])
    except (sp.SympifyError, TypeError, SyntaxError):
        return None, "the claimed limit is not an expression"
    if not rules.limit_encloses(expr, variable, box, towards, claimed):
        return None, f"the claimed limit {claimed} lies outside the arb-ball enclosure of the gap on a tail"
    face = rules.limit_face(expr, variable, box, towards, face_strict)
    if face is None or sp.simplify(face.expr - claimed) != 0:
        return None, f"sympy's limit differs from the claimed limit {claimed}"
    return rules.Face(claimed, face.box, face.strict, face.record), ""


def _replay_critical(
    decision: dict[str, Any], expr: sp.Expr, variable: str, box: Box, domain: Domain, strict: bool
) -> str | None:
    try:
        point = sp.sympify(decision.get("point"))
    except (sp.SympifyError, TypeError, SyntaxError):
        return "the critical point is not an expression"
    if not isinstance(point, sp.Expr):
        return "the critical point is not an expression"
    if decision.get("provenance") != rules.CRITICAL_PROVENANCE:
        return "the step record's provenance is not what the checker verifies"
    if rules.slope_nonzero_in_balls(expr, variable, point, box):
        return f"the arb-ball enclosure of d gap/d{variable} at {point} excludes 0 (not a critical point)"
    if not rules.is_critical(expr, variable, point):
        return f"sympy does not simplify d gap/d{variable} at {point} to 0"
    if not rules.convex_towards(expr, variable, point, box, domain):
        return f"the arb-ball enclosure of d^2 gap/d{variable}^2 is not >= 0 on the widened box"
    reduced = rules.reduced_at(expr, variable, point)
    return _replay(decision.get("then"), reduced, box.without(variable), domain, strict)


def check_certificate(data: dict[str, Any]) -> CheckReport:
    """Re-verify a certificate (the JSON of :class:`~theory.prover.certificate.Certificate`), with every
    cache of the rules cleared first."""
    rules.clear_caches()
    if not isinstance(data, dict) or data.get("format") != CERTIFICATE_FORMAT:
        raise InvalidCertificate(f"not a prover certificate: format must be {CERTIFICATE_FORMAT!r}")
    try:
        domain = parse_domain(data["domain"])
        gap = sp.sympify(data["gap"])
        strict = bool(data["strict"])
        entries = [(Box.from_json(item["box"], domain), item["decision"]) for item in data["boxes"]]
    except (KeyError, TypeError, ValueError, sp.SympifyError) as error:
        raise InvalidCertificate(f"malformed certificate: {type(error).__name__}: {error}") from None
    gap_text = _cover_gap([box for box, _ in entries], Box.of_domain(domain), domain)
    if gap_text is not None:
        return CheckReport(False, f"cover rejected: {gap_text}", len(entries))
    for box, decision in entries:
        reason = _replay(decision, gap, box, domain, strict)
        if reason is not None:
            rule = decision.get("rule") if isinstance(decision, dict) else None
            return CheckReport(False, f"decision {rule} fails on box {box.to_json()}: {reason}", len(entries))
    return CheckReport(True, "every box decided and the boxes partition the domain", len(entries))
