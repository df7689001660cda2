"""Re-verify a certificate from scratch: the boxes partition the domain, and each box's decision holds.

The checker reads only the certificate's JSON. It re-parses the domain and the gap, and then

1. checks the cover constructively: the boxes must form a guillotine partition of the domain's closure.
   A region is either exactly one box, or some variable has a cut c with every box of the region on one
   side (hi <= c or lo >= c; for integers hi <= c - 1 or lo >= c); both sides are checked recursively.
   A missing box leaves a region with no box, a moved endpoint a region that no box equals: rejected;
2. replays every decision with the primitives of :mod:`theory.prover.rules` (recomputing derivatives,
   faces, limits, critical points and enclosures itself); nothing the search computed is trusted.

The certificate's text is read with sympy's ``sympify`` (which evaluates Python expressions): check
certificates from sources you trust, as you would run their code.

Provenance: derived (the checker is the proof; the search only finds it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
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


def _replay(decision: Any, expr: sp.Expr, box: Box, domain: Domain, strict: bool) -> bool:
    if not isinstance(decision, dict):
        return False
    rule = decision.get("rule")
    if rule == "enclosure":
        name = decision.get("form")
        return name in rules.FORMS and rules.holds_by_enclosure(rules.form(expr, name), box, strict)
    variable = decision.get("variable")
    if variable not in box.names:
        return False
    if rule == "monotone":
        lo, hi = box.bounds(variable)
        wanted = 1 if decision.get("face") == "lower" else -1
        if lo == hi:
            sign: tuple[int, bool] | None = (wanted, False) if rules.symbolic_value(lo) else None
        else:
            sign = rules.derivative_sign(expr, variable, box, rules.REDUCIBLE_FORMS)
        if sign is None or sign[0] != wanted:
            return False
        face = rules.monotone_face(expr, variable, box, domain, strict, *sign)
        return face is not None and _replay(decision.get("then"), face[0], face[1], domain, face[2])
    if rule == "critical":
        try:
            point = sp.sympify(decision.get("point"))
        except (sp.SympifyError, TypeError, SyntaxError):
            return False
        if not rules.is_critical(expr, variable, point):
            return False
        if not rules.convex_towards(expr, variable, point, box, domain):
            return False
        reduced = rules.reduced_at(expr, variable, point)
        return _replay(decision.get("then"), reduced, box.without(variable), domain, strict)
    return False


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
        if not _replay(decision, gap, box, domain, strict):
            return CheckReport(
                False, f"decision {decision.get('rule')} fails on box {box.to_json()}", len(entries)
            )
    return CheckReport(True, "every box decided and the boxes partition the domain", len(entries))
