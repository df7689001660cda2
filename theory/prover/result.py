"""The prover's answer: proved (with a certificate), refuted (with a witness point) or undecided.

One :class:`InequalityResult` per inequality of the statement; the :class:`ProofResult` of a conjunction
is refuted if one inequality is, proved if all are, undecided otherwise. Everything is JSON-serialisable
(``to_json``); numbers are exact rationals written as strings, enclosures as [lower, upper] strings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any

from theory.prover.box import Box
from theory.prover.certificate import Certificate
from theory.prover.proposals import Proposal


class ProverStatus(StrEnum):
    """The prover's verdict on an inequality, a statement or a chain (str-valued: JSON and printed text
    carry the word itself)."""

    PROVED = "proved"
    REFUTED = "refuted"
    UNDECIDED = "undecided"

    def __repr__(self) -> str:
        """The word's repr, as when the statuses were strings (a repr printed anywhere stays the same)."""
        return repr(self.value)


PROVED, REFUTED, UNDECIDED = ProverStatus.PROVED, ProverStatus.REFUTED, ProverStatus.UNDECIDED
EXIT_STATUS = {PROVED: 0, REFUTED: 1, UNDECIDED: 3}
"""CLI exit status per verdict (2 is reserved for malformed input)."""


@dataclass(frozen=True)
class Witness:
    """A point of the domain where the negation of the inequality holds in ball arithmetic."""

    point: dict[str, Fraction]
    gap_enclosure: tuple[str, str]

    def to_json(self) -> dict[str, Any]:
        """{"point": {name: "p/q"}, "gap": [lower, upper]}."""
        return {"point": {k: str(v) for k, v in self.point.items()}, "gap": list(self.gap_enclosure)}


@dataclass(frozen=True)
class InequalityResult:
    """The verdict on one inequality with its evidence (certificate, witness or remaining boxes); seconds
    are CPU seconds of the search."""

    text: str
    status: ProverStatus
    boxes: int
    seconds: float
    certificate: Certificate | None = None
    witness: Witness | None = None
    remaining: tuple[Box, ...] = ()
    reason: str = ""
    proposals: tuple[Proposal, ...] = ()
    """What an optional solver proposed, with what the prover made of it (:mod:`theory.prover.proposals`)."""

    def to_json(self, with_certificate: bool = True) -> dict[str, Any]:
        """The record of this inequality (the certificate in full only when asked)."""
        record: dict[str, Any] = {
            "inequality": self.text,
            "status": self.status,
            "boxes": self.boxes,
            "seconds": round(self.seconds, 4),
        }
        if self.witness is not None:
            record["witness"] = self.witness.to_json()
        if self.remaining:
            record["remaining_boxes"] = [box.to_json() for box in self.remaining[:20]]
            record["remaining_count"] = len(self.remaining)
        if self.reason:
            record["reason"] = self.reason
        if self.proposals:
            record["proposals"] = [proposal.to_json() for proposal in self.proposals]
        if self.certificate is not None and with_certificate:
            record["certificate"] = self.certificate.to_json()
        return record


@dataclass(frozen=True)
class ProofResult:
    """The verdict on a statement (a conjunction), with one result per inequality."""

    statement: str
    domain: str
    parts: tuple[InequalityResult, ...] = field(default_factory=tuple)
    solver: tuple[str, str] | None = None
    """(name, version) of the solver the search could ask for proposals (version "" when it was never
    asked), None when there was none."""

    @property
    def status(self) -> ProverStatus:
        """refuted if any part is, proved if all are, undecided otherwise."""
        statuses = {part.status for part in self.parts}
        if REFUTED in statuses:
            return REFUTED
        return PROVED if statuses == {PROVED} else UNDECIDED

    @property
    def boxes(self) -> int:
        """Boxes examined over all parts."""
        return sum(part.boxes for part in self.parts)

    @property
    def seconds(self) -> float:
        """Wall time over all parts."""
        return sum(part.seconds for part in self.parts)

    @property
    def exit_status(self) -> int:
        """0 proved, 1 refuted, 3 undecided."""
        return EXIT_STATUS[self.status]

    def to_json(self, with_certificate: bool = True) -> dict[str, Any]:
        """{"statement", "domain", "status", "boxes", "seconds", "inequalities": [...]}."""
        return {
            "statement": self.statement,
            "domain": self.domain,
            "status": self.status,
            "boxes": self.boxes,
            "seconds": round(self.seconds, 4),
            "solver": self.solver_record(),
            "inequalities": [part.to_json(with_certificate) for part in self.parts],
        }

    def solver_record(self) -> dict[str, Any] | None:
        """None when no solver was available to the search; {"name", "asked": false} when it was but no
        search needed it; else {"name", "version", "asked": true, "proposed": the points it proposed,
        "used": those the prover confirmed as a witness or cut at}."""
        if self.solver is None:
            return None
        name, version = self.solver
        if not version:
            return {"name": name, "asked": False}
        proposals = [proposal for part in self.parts for proposal in part.proposals]
        used = sum(proposal.outcome in ("confirmed", "split") for proposal in proposals)
        return {"name": name, "version": version, "asked": True, "proposed": len(proposals), "used": used}
