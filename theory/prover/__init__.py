"""An interval prover for inequalities over whole domains, with certificates a separate checker verifies.

``prove("log(1 + x) <= x", "x: (-1, oo)")`` returns a :class:`ProofResult`: ``proved`` with a certificate
(a cover of the domain by boxes, each with the rule that decides it), ``refuted`` with a witness point
where the negation holds in ball arithmetic, or ``undecided`` with the boxes left when the budget ran out.
``check_certificate(result.parts[0].certificate.to_json())`` re-verifies a proof from its JSON alone.

Modules: domain (the per-variable sets), statement (parsing), intervals and evaluate (arb-ball interval
arithmetic), rules (the decision rules), unbounded (half-lines), search (branch and bound), certificate,
checker, result, and chain (a statement too large to branch and bound, decided as a sympy-checked sum of
proved pieces: Theorem 4.1's). python-flint is imported only when a proof or a check runs.

>>> prove("exp(x) >= 1 + x", "x: real").status
'proved'
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from theory.prover.domain import Domain, MalformedDomain, parse_domain
from theory.prover.result import PROVED, REFUTED, UNDECIDED, InequalityResult, ProofResult
from theory.prover.statement import MalformedStatement, Statement, parse_statement

if TYPE_CHECKING:
    from theory.prover.checker import CheckReport

__all__ = [
    "PROVED",
    "REFUTED",
    "UNDECIDED",
    "Domain",
    "InequalityResult",
    "MalformedDomain",
    "MalformedStatement",
    "ProofResult",
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
    """Decide every inequality of a parsed statement; the budget is shared by its inequalities."""
    from theory.errors import require

    require("flint", purpose="the prover (its interval arithmetic)")
    from theory.prover.evaluate import compile_expression
    from theory.prover.search import DEFAULT_BUDGET_SECONDS, DEFAULT_MAX_BOXES, search

    for inequality in statement.inequalities:
        compile_expression(inequality.gap)  # an unsupported function is a clear error before any search
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
    parsed_domain = parse_domain(domain)
    return prove_statement(parse_statement(statement, parsed_domain), budget_seconds, max_boxes)


def check_certificate(data: dict[str, Any]) -> CheckReport:
    """Re-verify a certificate's JSON from scratch (see :mod:`theory.prover.checker`)."""
    from theory.prover.checker import check_certificate as check

    return check(data)
