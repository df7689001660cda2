"""An interval prover for inequalities over whole domains, with data certificates a small kernel re-checks.

``prove("log(1 + x) <= x", "x: (-1, oo)")`` returns a :class:`ProofResult`: ``proved`` with a certificate
(a cover of the domain by boxes, each with the decision that proves it there) that the kernel
(:mod:`theory.prover.kernel`) accepted, ``refuted`` with a witness point where the gap's ball is below 0,
or ``undecided`` with the boxes left when the budget ran out. ``check_certificate(data)`` re-checks a
certificate's JSON alone (the kernel; a chain certificate by :func:`theory.prover.chain.check_chain`).

Modules: language (the safe expression language and its data trees), domain (the per-variable sets),
statement (parsing), box and unbounded (boxes, half-lines), search (branch and bound on the kernel's
primitives), proposals (points an optional solver, z3, proposes and the search checks), kernel (the
re-checker), certificate, result, chain (a statement too large to branch and
bound, decided as a sympy-checked sum of kernel-checked pieces: Theorem 4.1's) and lemma_inequalities (a
lemma's inequality with its reduction, and its verdict; the entries are the caller's); the base layer
numbers, safe_files, cpu_budget, counts and lazy_exports, which numerics and the commands import too. The
prover imports of theory only itself, theory.errors and theory._sympy_tools: it knows no lemma of the paper.
python-flint is imported only when a proof or a check runs.

>>> prove("exp(x) >= 1 + x", "x: real").status
'proved'
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from theory.prover.lazy_exports import lazy_getattr

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
:mod:`theory.prover.cpu_budget`, :mod:`theory.prover.lazy_exports`), which numerics and the commands import,
costs neither sympy nor flint."""


__getattr__ = lazy_getattr(__name__, _HOME)
"""A re-exported name of :data:`_HOME`, imported from its module and cached here; any other name is tried
as a submodule (:func:`theory.prover.lazy_exports.lazy_getattr`)."""


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


TYPED_SHARE = 0.25
"""Share of the budget left that the search on an inequality's typed gap tree gets first; undecided there,
the inequality is read by sympy and searched on sympy's gap (:func:`prove_statement`)."""


def prove_statement(
    statement: Statement,
    budget_seconds: float | None = None,
    max_boxes: int | None = None,
    solver: bool = True,
) -> ProofResult:
    """Decide every inequality of a parsed statement; the budget is shared by its inequalities. A statement
    read from text must be defined, as typed, on its whole domain (:func:`theory.prover.definedness.
    require_defined`: else UndefinedStatement, naming the point). An inequality whose gap tree is its typed
    tree (read without sympy, :mod:`theory.prover.statement`) is searched on it for TYPED_SHARE of the
    budget left; if that search is undecided, the inequality is read by sympy and sympy's gap searched
    with the budget then left (the budget is the whole search's: a command's CPU promise,
    :func:`theory.prover.cpu_budget.whole_run`, holds). The verdict either way is the kernel's on
    the tree its certificate names. With ``solver`` and z3 installed (the ``solver`` extra) and a budget
    of at least :data:`~theory.prover.proposals.MIN_BUDGET` seconds, the search may ask z3 for points it
    then checks itself (:mod:`theory.prover.proposals`): z3 never decides."""
    from theory.errors import require

    require("flint", purpose="the prover (its interval arithmetic)")
    from theory.prover.result import UNDECIDED, ProofResult

    _require_defined(statement)
    from theory.prover.search import DEFAULT_BUDGET_SECONDS, DEFAULT_MAX_BOXES, search

    for inequality in statement.inequalities:
        inequality.gap_tree()  # a part outside the language is a clear error before any search
    seconds = DEFAULT_BUDGET_SECONDS if budget_seconds is None else budget_seconds
    boxes = DEFAULT_MAX_BOXES if max_boxes is None else max_boxes
    from theory.prover import proposals

    proposer = proposals.installed() if solver and seconds >= proposals.MIN_BUDGET else None
    deadline = time.process_time() + seconds
    parts: list[InequalityResult] = []
    symbolic: Statement | None = None
    for index, inequality in enumerate(statement.inequalities):
        left = max(0.0, deadline - time.process_time())
        if not inequality.as_typed:
            parts.append(search(inequality, statement.domain, left, boxes, solver=proposer))
            continue
        first = search(inequality, statement.domain, left * TYPED_SHARE, boxes, solver=proposer)
        if first.status != UNDECIDED:
            parts.append(first)
            continue
        if symbolic is None:
            from theory.prover.statement import parse_statement

            symbolic = parse_statement(statement.text, statement.domain)
        symbolic.inequalities[index].gap_tree()  # a part outside the language: a clear error first
        left = max(0.0, deadline - time.process_time())
        second = search(symbolic.inequalities[index], statement.domain, left, boxes, solver=proposer)
        spent = first.seconds + second.seconds
        parts.append(replace(second, boxes=first.boxes + second.boxes, seconds=spent))
    used = None if proposer is None else (proposer.name, proposer.version)
    return ProofResult(statement.text, statement.domain.to_text(), tuple(parts), used)


def _require_defined(statement: Statement) -> None:
    """:func:`theory.prover.definedness.require_defined`; for a statement read as typed and undefined
    somewhere, the text is first read by sympy, whose MalformedStatement names what it refuses (a division
    by the number 0, a log of 0) as it did when every such statement was read by sympy."""
    from theory.prover.definedness import UndefinedStatement, require_defined

    try:
        require_defined(statement)
    except UndefinedStatement:
        if any(inequality.as_typed for inequality in statement.inequalities):
            from theory.prover.statement import parse_statement

            parse_statement(statement.text, statement.domain)
        raise


def prove(
    statement: str,
    domain: str,
    budget_seconds: float | None = None,
    max_boxes: int | None = None,
    solver: bool = True,
) -> ProofResult:
    """Parse and decide ``statement`` ("lhs <= rhs and ...") over ``domain`` ("x: [0, 1], N: integer >= 1");
    ``solver`` as in :func:`prove_statement`.

    Raises MalformedStatement / MalformedDomain (SpecboundError subclasses) on bad input.
    """
    from theory.prover.domain import parse_domain
    from theory.prover.statement import parse_statement

    parsed_domain = parse_domain(domain)
    return prove_statement(
        parse_statement(statement, parsed_domain, symbolic=False), budget_seconds, max_boxes, solver
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
    if inequality is not None and inequality.as_typed and inequality.gap_tree() != data["gap"]:
        try:  # a certificate of sympy's gap tree (the search's fallback)
            (inequality,) = parse_statement(statement.text, statement.domain).inequalities
        except MalformedStatement as error:
            raise Malformed(f"the certificate's inequality text cannot be read: {error}") from None
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
