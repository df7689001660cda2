"""Classical true inequalities: the kernel-provable ones are proved with a certificate the kernel accepts,
and none of them is ever refuted."""

from __future__ import annotations

import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from theory.prover import PROVED, check_certificate, prove
from theory.prover.classical import TRUE_SUITE
from theory.prover.definedness import UndefinedStatement

KERNEL_PROVED = ["log_1_plus_x", "exp_tangent", "singular_boundary_log", "max_min_floor", "integers"]
"""The classical statements the kernel re-checks a proof of; the others touch 0 along a set no ball
enclosure decides (AM-GM's diagonal, Young's curve a^p = b^q) or at an irrational point (x log x at 1/e)."""
PROVABLE = [t for t in TRUE_SUITE if t[0] in KERNEL_PROVED]


@pytest.mark.parametrize(("name", "statement", "domain"), PROVABLE, ids=[t[0] for t in PROVABLE])
def test_true_statement_is_proved_with_a_certificate_the_kernel_accepts(name, statement, domain):
    result = prove(statement, domain, budget_seconds=30)
    assert result.status == PROVED, result.to_json(with_certificate=False)
    for part in result.parts:
        assert part.certificate is not None
        report = check_certificate(part.certificate.to_json())
        assert report.accepted, report.reason


@pytest.mark.slow
@pytest.mark.parametrize(("name", "statement", "domain"), TRUE_SUITE, ids=[t[0] for t in TRUE_SUITE])
def test_no_true_statement_is_refuted(name, statement, domain):
    assert prove(statement, domain, budget_seconds=5).status != "refuted"


def _searched(statement: str, domain: str, seconds: float, boxes: int):
    """The search's verdict on a statement, past the definedness check (the search and kernel alone)."""
    from theory.prover import parse_domain, parse_statement
    from theory.prover.search import search

    parsed = parse_statement(statement, parse_domain(domain))
    return search(parsed.inequalities[0], parsed.domain, seconds, boxes)


def test_a_statement_undefined_inside_its_domain_is_never_proved():
    # 1/x^2 >= 1 holds wherever it is defined on [-1, 1], but x = 0 is a point of the domain
    with pytest.raises(UndefinedStatement, match="undefined at x = 0"):
        prove("1/x^2 >= 1", "x: [-1, 1]", budget_seconds=1, max_boxes=300)
    assert _searched("1/x^2 >= 1", "x: [-1, 1]", 1, 300).status == "undecided"
    # -1/x >= 0 is false on (0, 1]: the singular point 0 must not let a derivative rule skip it
    assert _searched("-1/x >= 0", "x: [-1, 1]", 5, 20000).status == "refuted"


def test_a_singular_point_on_a_closed_end_is_not_treated_as_a_limit():
    # x log x is undefined at x = 0, which [0, 1] contains: refused, while (0, 1] is proved above
    with pytest.raises(UndefinedStatement, match="undefined at x = 0"):
        prove("x*log(x) >= -exp(-1)", "x: [0, 1]", budget_seconds=1, max_boxes=200)
    result = _searched("x*log(x) >= -exp(-1)", "x: [0, 1]", 1, 200)
    assert result.status == "undecided"
    assert result.remaining, "the undecided boxes are reported"
