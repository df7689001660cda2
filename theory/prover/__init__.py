"""An interval prover for inequalities over whole domains, with data certificates a small kernel re-checks.

``prove("log(1 + x) <= x", "x: (-1, oo)")`` returns a :class:`ProofResult`: ``proved`` with a certificate
(a cover of the domain by boxes, each with the decision that proves it there) that the kernel
(:mod:`theory.prover.kernel`) accepted, ``refuted`` with a witness point where the gap's ball is below 0,
or ``undecided`` with the boxes left when the budget ran out. ``check_certificate(data)`` re-checks a
certificate's JSON alone (the kernel; a chain certificate by :func:`theory.prover.chain.check_chain`).

Modules: language (the safe expression language and its data trees), domain (the per-variable sets),
statement (parsing), box and unbounded (boxes, half-lines), search (branch and bound on the kernel's
primitives), kernel (the re-checker), certificate, result, chain (a statement too large to branch and
bound, decided as a sympy-checked sum of kernel-checked pieces: Theorem 4.1's) and lemma_inequalities (a
lemma's inequality with its reduction, and its verdict; the entries are the caller's); the base layer
numbers, safe_files, cpu_budget and counts, which numerics and the commands import too. The prover imports
of theory only itself, theory.errors and theory._sympy_tools: it knows no lemma of the paper.
python-flint is imported only when a proof or a check runs.

>>> prove("exp(x) >= 1 + x", "x: real").status
'proved'
"""

from __future__ import annotations

import importlib
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from theory.prover.domain import Domain as Domain
    from theory.prover.domain import MalformedDomain as MalformedDomain
    from theory.prover.domain import parse_domain as parse_domain
    from theory.prover.kernel import Verdict
    from theory.prover.result import PROVED as PROVED
    from theory.prover.result import REFUTED as REFUTED
    from theory.prover.result import UNDECIDED as UNDECIDED
    from theory.prover.result import InequalityResult as InequalityResult
    from theory.prover.result import ProofResult as ProofResult
    from theory.prover.result import ProverStatus as ProverStatus
    from theory.prover.statement import MalformedStatement as MalformedStatement
    from theory.prover.statement import Statement as Statement
    from theory.prover.statement import parse_statement as parse_statement

_HOME = {
    **dict.fromkeys(("Domain", "MalformedDomain", "parse_domain"), "theory.prover.domain"),
    **dict.fromkeys(
        ("PROVED", "REFUTED", "UNDECIDED", "InequalityResult", "ProofResult", "ProverStatus"),
        "theory.prover.result",
    ),
    **dict.fromkeys(("MalformedStatement", "Statement", "parse_statement"), "theory.prover.statement"),
}
"""The re-exported names and their modules, imported on first use (PEP 562): the base layer
(:mod:`theory.prover.numbers`, :mod:`theory.prover.safe_files`, :mod:`theory.prover.counts`,
:mod:`theory.prover.cpu_budget`), which numerics and the commands import, costs neither sympy nor flint."""


def __getattr__(name: str) -> Any:
    """A re-exported name of :data:`_HOME`, imported from its module and cached here; else AttributeError
    (so ``from theory.prover import chain`` still imports the submodule)."""
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_HOME[name]), name)
    globals()[name] = value
    return value


__all__ = [
    "PROVED",
    "REFUTED",
    "UNDECIDED",
    "Domain",
    "InequalityResult",
    "MalformedDomain",
    "MalformedStatement",
    "ProofResult",
    "ProverStatus",
    "Statement",
    "check_certificate",
    "parse_domain",
    "parse_statement",
    "prove",
    "prove_statement",
]


def prove_statement(
    statement: Statement, budget_seconds: float | None = None, max_boxes: int | None = None
) -> ProofResult:
    """Decide every inequality of a parsed statement; the budget is shared by its inequalities. A statement
    read from text must be defined, as typed, on its whole domain (:func:`theory.prover.definedness.
    require_defined`: else UndefinedStatement, naming the point)."""
    from theory.errors import require

    require("flint", purpose="the prover (its interval arithmetic)")
    from theory.prover.definedness import require_defined
    from theory.prover.result import ProofResult

    require_defined(statement)
    from theory.prover.search import DEFAULT_BUDGET_SECONDS, DEFAULT_MAX_BOXES, search

    for inequality in statement.inequalities:
        inequality.gap_tree()  # a part outside the language is a clear error before any search
    seconds = DEFAULT_BUDGET_SECONDS if budget_seconds is None else budget_seconds
    boxes = DEFAULT_MAX_BOXES if max_boxes is None else max_boxes
    deadline = time.process_time() + seconds
    parts: list[InequalityResult] = []
    for inequality in statement.inequalities:
        left = max(0.0, deadline - time.process_time())
        parts.append(search(inequality, statement.domain, left, boxes))
    return ProofResult(statement.text, statement.domain.to_text(), tuple(parts))


def prove(
    statement: str, domain: str, budget_seconds: float | None = None, max_boxes: int | None = None
) -> ProofResult:
    """Parse and decide ``statement`` ("lhs <= rhs and ...") over ``domain`` ("x: [0, 1], N: integer >= 1").

    Raises MalformedStatement / MalformedDomain (SpecboundError subclasses) on bad input.
    """
    from theory.prover.domain import parse_domain
    from theory.prover.statement import parse_statement

    parsed_domain = parse_domain(domain)
    return prove_statement(
        parse_statement(statement, parsed_domain, symbolic=False), budget_seconds, max_boxes
    )


def check_certificate(data: dict[str, Any]) -> Verdict:
    """Re-check a certificate's JSON from scratch with the kernel (:mod:`theory.prover.kernel`), after
    binding its ``inequality`` text to its gap (the text, read by the safe language over the certificate's
    domain, must give the same tree, defined as typed on the whole domain); raises
    :class:`~theory.prover.kernel.Malformed` (a SpecboundError) when the data is not a certificate."""
    from theory.prover.certificate import domain_of
    from theory.prover.domain import MalformedDomain
    from theory.prover.kernel import Malformed, Verdict
    from theory.prover.kernel import check_certificate as check
    from theory.prover.statement import MalformedStatement, parse_statement

    verdict = check(data)
    if not verdict.accepted:
        return verdict
    try:
        statement = parse_statement(
            str(data.get("inequality", "")), domain_of(data["domain"]), symbolic=False
        )
    except (MalformedStatement, MalformedDomain) as error:
        raise Malformed(f"the certificate's inequality text cannot be read: {error}") from None
    (inequality,) = statement.inequalities if len(statement.inequalities) == 1 else (None,)
    if inequality is None or inequality.gap_tree() != data["gap"] or inequality.strict != data["strict"]:
        return Verdict(
            False, "the inequality text does not state the certified gap and strictness", verdict.boxes
        )
    from theory.prover.definedness import UndefinedStatement, require_defined

    try:
        require_defined(statement)
    except UndefinedStatement as error:
        return Verdict(False, str(error), verdict.boxes)
    return verdict
