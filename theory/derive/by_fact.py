"""Deciding a step ``by`` a fact under a substitution (the conditions of :mod:`theory.derive.instance`).

The fact is a registered lemma inequality (``lemma:NAME``), a piece of a chain (``piece:NAME``), both
from the facts the caller gives (:class:`theory.derive.facts.Facts`), an earlier derivation (``file:PATH``,
unconditional) or a named assumption of the file (then without substitution: a hypothesis holds at the
point, not at another one). The fact is decided on its own domain (the prover, or sympy for the chain's
ceiling facts, which makes the step derived), the identity by the kernel's exact normal form, and every
obligation by the prover over the step's domain (the file's, cut by the step's bound assumptions).
Provenance: derived (decided by the code).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from theory.derive.check import gap_inequality, step_gap_tree
from theory.derive.facts import Facts
from theory.derive.file_format import DerivationFile, MalformedDerivation, Step
from theory.derive.instance import SYMPY, defined_on, identity, obligations, sign_by_sympy
from theory.errors import UnknownName
from theory.prover.domain import Domain
from theory.prover.language import from_tree, to_tree
from theory.prover.result import PROVED, UNDECIDED

FACT = "fact"
DERIVED = "derived"


@dataclass(frozen=True)
class Fact:
    """h >= 0 (> 0 when strict) over ``domain``; ``record`` its part of the step's certificate; status
    proved (a certificate), derived (sympy decides it) or undecided (``reason``)."""

    gap: Any
    strict: bool
    domain: Domain
    record: dict[str, Any]
    status: str
    reason: str = ""


@functools.cache
def piece_fact(facts: Facts, name: str, budget: float) -> Fact:
    """The piece ``name`` of the facts' chain as a fact over its own domain
    (:class:`~theory.errors.UnknownName` when there is none)."""
    from theory.prover.search import search

    pieces = {piece.name: piece for piece in facts.chain().pieces} if facts.chain else {}
    if name not in pieces:
        raise UnknownName(f"{facts.chain_name} has no piece {name!r}; its pieces are {sorted(pieces)}")
    piece = pieces[name]
    gap, domain = to_tree(piece.sub.gap), piece.sub_domain
    record: dict[str, Any] = {"kind": "piece", "name": name, "gap": gap, "strict": False}
    result = search(piece.sub, domain, budget)
    if result.status != PROVED or result.certificate is None:
        return Fact(gap, False, domain, record, UNDECIDED, f"the chain piece {name} is {result.status}")
    certificate = result.certificate.to_json()
    record = {**record, "gap": certificate["gap"], "certificate": certificate}
    return Fact(certificate["gap"], False, domain, record, PROVED)


def given_fact(derivation: DerivationFile, name: str) -> Fact:
    """The file's assumption ``name`` as a fact over the file's domain (a hypothesis of the conclusion)."""
    assumption = derivation.assumptions[name]
    gap = to_tree(assumption.gap)
    record = {"kind": "given", "name": name, "gap": gap, "strict": assumption.strict}
    return Fact(gap, assumption.strict, derivation.domain, record, PROVED)


@dataclass(frozen=True)
class InstanceVerdict:
    """A step's verdict as an instance of its fact: status, reason, boxes the prover examined, and its
    certificate record (proved or derived)."""

    status: str
    reason: str
    boxes: int = 0
    record: dict[str, Any] | None = None


def decide_by_fact(
    derivation: DerivationFile,
    step: Step,
    fact: Fact,
    domain: Domain,
    bounds: list[dict[str, Any]],
    budget: float,
) -> InstanceVerdict:
    """The step's verdict as an instance of ``fact`` (its ``by``) over ``domain`` (the file's, cut by the
    ``bounds`` records of its assumptions)."""
    from theory.prover.search import search

    use = step.by
    assert use is not None
    given = fact.record["kind"] == "given"

    lhs, rhs = to_tree(step.lhs), to_tree(step.rhs)
    gap, strict = step_gap_tree(lhs, rhs, step.relation, [])
    # an assumption is used at the point itself: the identity substitution over the step's domain
    substitution = (
        {name: ["var", name] for name in domain.names}
        if given
        else {name: to_tree(value) for name, value in use.substitution.items()}
    )
    factor = to_tree(use.factor)
    multiplier = None if use.multiplier is None else to_tree(use.multiplier)
    needed = obligations(factor, multiplier, substitution, domain if given else fact.domain, domain, strict)
    if isinstance(needed, str):
        raise MalformedDerivation(f"{derivation.where(step.line)}: {use.name}: {needed}")
    if strict and not fact.strict:
        return InstanceVerdict(UNDECIDED, f"a strict step needs a strict fact; {use.name} is not")
    if not defined_on(gap, domain):
        return InstanceVerdict(UNDECIDED, "the step's gap is not shown defined on the whole of its domain")
    method = identity(gap, factor, fact.gap, substitution, multiplier, domain)
    if method is None:
        return InstanceVerdict(
            UNDECIDED, f"the step's gap is not {use.name}'s times the factor (normal forms differ)"
        )
    proofs, boxes = [], 0
    for what, tree, strict_obligation in needed:
        claim = gap_inequality(from_tree(tree, domain.symbols(), what), strict_obligation)
        result = search(claim, domain, budget)
        boxes += result.boxes
        if result.status == PROVED and result.certificate is not None:
            proofs.append({"what": what, "certificate": result.certificate.to_json()})
        elif sign_by_sympy(tree, strict_obligation, domain):
            proofs.append({"what": what, "method": SYMPY})
        else:
            return InstanceVerdict(
                UNDECIDED, f"{what} is not proved over the step's domain ({result.status})", boxes
            )
    if fact.status == UNDECIDED:
        return InstanceVerdict(
            UNDECIDED, f"the instance holds but {use.name} is not decided: {fact.reason}", boxes
        )
    record = {
        "name": step.name,
        "lhs": lhs,
        "relation": step.relation,
        "rhs": rhs,
        "method": FACT,
        "assumptions": bounds,
        "fact": fact.record,
        "substitution": {} if given else substitution,
        "factor": factor,
        "obligations": proofs,
    }
    if multiplier is not None:
        record["multiplier"] = multiplier
    by_sympy = [
        part
        for part, used in (
            ("the fact", fact.status == DERIVED),
            ("the identity", method == SYMPY),
            ("a sign", any(proof.get("method") == SYMPY for proof in proofs)),
        )
        if used
    ]
    if by_sympy:
        return InstanceVerdict(DERIVED, f"by sympy only: {', '.join(by_sympy)}", boxes, record)
    return InstanceVerdict(PROVED, "", boxes, record)
