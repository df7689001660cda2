"""A lemma's inequality stated for the prover, with the reduction that makes it scalar, and its verdict.

A :class:`LemmaInequality` is a statement over a domain, built from a lemma's sympy expressions
(:func:`inequality`), with the steps (:class:`ReductionStep`: checked by sympy or cited) that reduce the
lemma's inequality to it; :func:`decide` proves, refutes or leaves it undecided with every certificate
re-checked by the kernel and every checked step re-run (:class:`LemmaVerdict`). The entries themselves
are the caller's: the paper's are in :mod:`theory.paper_proofs.inequalities`; the prover knows no lemma.
Provenance: derived (interval branch and bound; certificates re-checked by the kernel).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import sympy as sp

from theory.prover.box import count_of_boxes
from theory.prover.domain import Domain, parse_domain
from theory.prover.result import PROVED, UNDECIDED, InequalityResult, ProofResult, ProverStatus
from theory.prover.statement import Inequality, Statement

if TYPE_CHECKING:
    from theory.prover.chain import Chain, ChainResult

_RELATIONS = {"<=": (False, False), "<": (True, False), ">=": (False, True), ">": (True, True)}


@dataclass(frozen=True)
class ReductionStep:
    """One step from a lemma's inequality to the statement the prover decides: checked mechanically
    (``check`` re-runs the sympy computation and returns whether it holds) or a standard fact, cited
    (``check`` None)."""

    text: str
    provenance: str
    check: Callable[[], bool] | None = None

    def to_json(self, holds: bool | None) -> dict[str, Any]:
        """{"text", "provenance", "checked": true / false / null (a cited standard fact)}."""
        return {"text": self.text, "provenance": self.provenance, "checked": holds}


@dataclass(frozen=True)
class LemmaInequality:
    """One inequality of a lemma, stated for the prover, with the reduction that makes it scalar; ``covers``
    says which instances of the lemma a proof covers, ``steps`` the reduction's checked or cited steps."""

    lemma: str
    name: str
    statement: Statement
    reduction: str
    chain: Callable[[], Chain] | None = None
    """For a statement too large to branch and bound: the chain (theory.prover.chain) that decides it."""
    covers: str = ""
    steps: tuple[ReductionStep, ...] = ()

    @property
    def text(self) -> str:
        """The statement as text (sympy's printing of the expressions)."""
        return self.statement.text


def rebind(expr: sp.Expr, domain: Domain) -> sp.Expr:
    """expr with every free symbol replaced by the domain's symbol of the same name (its assumptions)."""
    symbols = domain.symbols()
    return expr.xreplace({s: symbols[s.name] for s in expr.free_symbols if s.name in symbols})


def inequality(
    lemma: str,
    name: str,
    parts: list[tuple[sp.Expr, str, sp.Expr]],
    domain_text: str,
    reduction: str,
    covers: str = "",
    steps: tuple[ReductionStep, ...] = (),
) -> LemmaInequality:
    """The entry ``name`` of ``lemma``: every part (lhs, relation, rhs) of ``parts`` (relation <=, <, >=, >;
    the sides sympy expressions, their symbols rebound to the domain's) over ``domain_text``."""
    domain = parse_domain(domain_text)
    inequalities = []
    for lhs, relation, rhs in parts:
        left, right = rebind(sp.sympify(lhs), domain), rebind(sp.sympify(rhs), domain)
        strict, reversed_ = _RELATIONS[relation]
        gap = left - right if reversed_ else right - left
        inequalities.append(Inequality(f"{sp.sstr(left)} {relation} {sp.sstr(right)}", gap, strict))
    text = " and ".join(i.text for i in inequalities)
    statement = Statement(text, tuple(inequalities), domain)
    return LemmaInequality(lemma, name, statement, reduction, covers=covers, steps=steps)


def cited(text: str, source: str) -> ReductionStep:
    """A step of a lemma that its registered inequality does not carry: a standard fact, cited."""
    return ReductionStep(text, f"standard (cited): {source}")


@dataclass(frozen=True)
class LemmaVerdict:
    """The prover's verdict on one lemma inequality, with its certificate re-checked by the kernel and the
    reduction's checked steps re-run (``steps_hold``: True / False per step, None for a cited fact)."""

    entry: LemmaInequality
    result: ProofResult | ChainResult
    certificates_checked: bool
    steps_hold: tuple[bool | None, ...] = ()

    @property
    def reduction_checked(self) -> bool:
        """No checked step of the reduction failed."""
        return False not in self.steps_hold

    @property
    def status(self) -> ProverStatus:
        """The lemma's verdict: "proved" only when the proof's certificate was accepted by the kernel and
        every checked reduction step holds (a proof of a wrongly reduced statement proves nothing about the
        lemma: then "undecided"); otherwise the prover's own status."""
        if self.result.status == PROVED and not (self.certificates_checked and self.reduction_checked):
            return UNDECIDED
        return self.result.status

    def line(self) -> str:
        """One line of ``specbound theory``: verdict, boxes, seconds, the statement and its domain, and which
        instances of the lemma it covers (with how many reduction steps are checked and cited)."""
        verdict = "proved, kernel-checked" if self.status == PROVED else str(self.status)
        if self.result.status == PROVED and not self.certificates_checked:
            verdict = "undecided: the proof's certificate was REJECTED by the kernel"
        elif self.result.status == PROVED and not self.reduction_checked:
            failed = [s.text for s, ok in zip(self.entry.steps, self.steps_hold, strict=True) if ok is False]
            verdict = "undecided: the reduced statement is proved but the reduction is REJECTED: "
            verdict += "; ".join(failed)
        text = (
            f"[{verdict}] {self.entry.name}: {self.entry.text}  over  {self.entry.statement.domain.to_text()}"
        )
        text += f"  ({count_of_boxes(self.result.boxes)}, {self.result.seconds:.2f} s)"
        if self.entry.covers:
            text += f"; covers {self.entry.covers}"
        if self.entry.steps:
            checked = sum(ok is True for ok in self.steps_hold)
            cited = sum(ok is None for ok in self.steps_hold)
            text += f": {checked} reduction steps checked by sympy, {cited} standard (cited)"
        for part in self.result.parts:
            if part.witness is not None:
                text += f"; witness {part.witness.to_json()['point']}"
        return text

    def to_json(self) -> dict[str, Any]:
        """{"name", "statement", "domain", "reduction", "status", "boxes", "seconds", "certificates_checked",
        "provenance", "covers"?, "reduction_steps"?, "witness"?; for a chain "pieces", "structure_seconds",
        "probe_seconds", "reason"?}."""
        record: dict[str, Any] = {
            "name": self.entry.name,
            "statement": self.entry.text,
            "domain": self.entry.statement.domain.to_text(),
            "reduction": self.entry.reduction,
            "status": self.status,
            "boxes": self.result.boxes,
            "seconds": round(self.result.seconds, 3),
            "certificates_checked": self.certificates_checked,
            "provenance": "derived (interval branch and bound; certificate re-checked by the kernel)",
        }
        from theory.prover.chain import ChainResult

        if isinstance(self.result, ChainResult):
            record["provenance"] = (
                "derived (chain: pieces by the prover; the kernel re-checks each piece's certificate, the "
                "factors' signs, the substitutions' ranges and the identity)"
            )
            record["pieces"] = [piece.to_json() for piece in self.result.pieces]
            record["structure_seconds"] = round(self.result.structure_seconds, 3)
            record["probe_seconds"] = round(self.result.probe_seconds, 3)
            if self.result.reason:
                record["reason"] = self.result.reason
        if self.entry.covers:
            record["covers"] = self.entry.covers
        if self.entry.steps:
            record["reduction_steps"] = [
                step.to_json(ok) for step, ok in zip(self.entry.steps, self.steps_hold, strict=True)
            ]
        witnesses = [part.witness.to_json() for part in self.result.parts if part.witness is not None]
        if witnesses:
            record["witness"] = witnesses[0]
        return record


LEMMA_BUDGET_SECONDS = 15.0
"""CPU seconds of the prover per registered inequality (``specbound theory``'s default; for a chain, of
its pieces' search). jacobian_l1_norm, the slowest, takes 7.3 s on a 2-core AMD EPYC machine (it fit in
5 s on another): the budget leaves twice that, so the verdicts do not depend on the CPU."""


@functools.cache
def decide(entry: LemmaInequality, budget_seconds: float = LEMMA_BUDGET_SECONDS) -> LemmaVerdict:
    """Prove, refute or leave undecided one lemma inequality; every certificate is re-checked and every
    checked reduction step re-run (computed once per process and budget), all within ``budget_seconds``
    and :data:`~theory.prover.cpu_budget.GRACE` of the process's CPU
    (:func:`~theory.prover.cpu_budget.cpu_limit`), whatever it computes; past them, undecided."""
    import time

    from theory.prover.cpu_budget import GRACE, OutOfBudget, cpu_limit

    start = time.process_time()
    try:
        with cpu_limit(budget_seconds + GRACE, f"lemma inequality {entry.name}"):
            return _decide(entry, budget_seconds)
    except OutOfBudget as error:
        seconds = time.process_time() - start
        if seconds < budget_seconds + GRACE:  # an outer limit's (a command's whole run): not a verdict
            raise
        part = InequalityResult(entry.text, UNDECIDED, 0, seconds, reason=str(error))
        result = ProofResult(entry.text, entry.statement.domain.to_text(), (part,))
        return LemmaVerdict(entry, result, True)


def _decide(entry: LemmaInequality, budget_seconds: float) -> LemmaVerdict:
    from theory.prover import prove_statement
    from theory.prover.kernel import check_certificate

    if entry.chain is not None:
        from theory.prover.chain import check_chain, prove_chain

        outcome = prove_chain(entry.chain(), budget_seconds)
        certificate = outcome.certificate()
        return LemmaVerdict(entry, outcome, certificate is None or check_chain(certificate).accepted)
    result = prove_statement(entry.statement, budget_seconds)
    checked = all(
        check_certificate(part.certificate.to_json()).accepted
        for part in result.parts
        if part.certificate is not None
    )
    steps_hold = tuple(None if step.check is None else bool(step.check()) for step in entry.steps)
    return LemmaVerdict(entry, result, checked, steps_hold)
