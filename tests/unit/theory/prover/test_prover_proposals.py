"""An optional solver may propose points, never verdicts (theory.prover.proposals).

Planted solvers propose wrong witnesses and arbitrary split points: the verdicts stay those fixed by hand
(a proposed witness is confirmed by the prover's own check or discarded; a certificate is the kernel's).
Statements the prover leaves undecided alone are decided with z3's proposals, their truth fixed by hand and
confirmed with mpmath. With the solver made unavailable the verdicts are the prover's alone.
"""

from __future__ import annotations

import json
import sys
from fractions import Fraction

import mpmath
import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from theory.prover import check_certificate, proposals, prove
from theory.prover.proposals import Proposal


class Planted:
    """A solver that proposes the given points whatever it is asked."""

    name = "planted"
    version = "0"

    def __init__(self, *points: tuple[str, dict[str, Fraction]]) -> None:
        self.points = points
        self.asked = 0

    def propose(self, tree, strict, domain):
        self.asked += 1
        return [Proposal("planted 0", kind, point) for kind, point in self.points]


def _planting(monkeypatch, *points: tuple[str, dict[str, Fraction]]) -> Planted:
    planted = Planted(*points)
    monkeypatch.setattr(proposals, "installed", lambda: planted)
    return planted


F = Fraction
PRODUCT = ("x*(1 - x)*y*(1 - y) <= 1/16", "x: [0, 1], y: [0, 1]")
"""True: x(1 - x) <= 1/4 on [0, 1] (AM-GM), with equality at x = 1/2; the product is 1/16 at (1/2, 1/2)."""


@pytest.fixture(scope="module")
def alone():
    """PRODUCT proved by the prover alone (no solver), once for the tests that compare with it."""
    return prove(*PRODUCT, budget_seconds=5, solver=False)


def test_a_planted_witness_where_the_claim_holds_is_discarded_and_changes_nothing(monkeypatch, alone):
    planted = _planting(
        monkeypatch,
        ("witness", {"x": F(1, 2), "y": F(1, 2)}),  # the gap is exactly 0 there: the claim (<=) holds
        ("witness", {"x": F(1, 3), "y": F(2, 7)}),  # the gap is > 0 there
        ("witness", {"x": F(2), "y": F(1, 2)}),  # outside the domain
    )
    result = prove(*PRODUCT, budget_seconds=5)
    assert planted.asked == 1 and str(result.status) == "proved" == str(alone.status)
    outcomes = [p.outcome for p in result.parts[0].proposals]
    assert outcomes == ["discarded", "discarded", "outside"]
    certificate = result.parts[0].certificate.to_json()
    assert certificate == alone.parts[0].certificate.to_json()  # the same cover and decisions
    assert check_certificate(certificate).accepted


def test_a_planted_witness_at_a_touching_point_of_a_strict_claim_is_discarded(monkeypatch):
    # x y (1 - x - y) <= 1/27 holds on [0, 1]^2 (AM-GM on x, y, 1 - x - y when 1 - x - y >= 0; the
    # product is <= 0 otherwise), with equality at (1/3, 1/3): a witness only for the strict claim.
    _planting(monkeypatch, ("witness", {"x": F(1, 3), "y": F(1, 3)}))
    # the solver is asked before the first box is split: one box shows the witness's outcome
    result = prove("x*y*(1 - x - y) <= 1/27", "x: [0, 1], y: [0, 1]", budget_seconds=2, max_boxes=1)
    assert str(result.status) != "refuted"
    assert [p.outcome for p in result.parts[0].proposals] == ["discarded"]
    strict = prove("x*y*(1 - x - y) < 1/27", "x: [0, 1], y: [0, 1]", budget_seconds=2, max_boxes=20)
    assert str(strict.status) == "refuted"  # the same point, exactly 0, refutes the strict claim
    assert strict.parts[0].witness.point == {"x": F(1, 3), "y": F(1, 3)}
    assert F(1, 3) * F(1, 3) * (1 - F(2, 3)) == F(1, 27)


def test_a_planted_split_point_where_the_gap_is_not_0_is_discarded_and_a_touching_one_kept(
    monkeypatch, alone
):
    planted = {"x": F(1, 5), "y": F(3, 7)}  # the gap is 1/16 - (4/25)(12/49) > 0 there
    _planting(monkeypatch, ("split", planted), ("split", {"x": F(1, 2), "y": F(1, 2)}))
    result = prove(*PRODUCT, budget_seconds=5)
    assert str(result.status) == "proved" == str(alone.status)
    assert [p.outcome for p in result.parts[0].proposals] == ["discarded", "split"]
    assert F(1, 16) - F(1, 5) * F(4, 5) * F(3, 7) * F(4, 7) > 0
    certificate = result.parts[0].certificate.to_json()
    assert check_certificate(certificate).accepted
    assert not {"1/5", "3/7"} & {
        value for box in certificate["boxes"] for r in box["box"].values() for value in r
    }
    false = prove("x*(1 - x)*y*(1 - y) <= 1/17", "x: [0, 1], y: [0, 1]", budget_seconds=5)
    assert str(false.status) == "refuted"  # 1/16 > 1/17 at (1/2, 1/2): the planted points change nothing


def test_without_the_solver_installed_the_verdicts_are_the_prover_s_alone(monkeypatch):
    sample = [
        ("exp(x) >= 1 + x", "x: real", "proved"),  # convexity, by hand
        ("x^2 <= 1/3", "x: [0, 1]", "refuted"),  # x = 1
        ("sqrt(x) <= (1 + x)/2", "x: [0, 4]", "proved"),  # AM-GM
        ("x*(1 - x) < 1/4", "x: [0, 1]", "refuted"),  # x = 1/2, where the gap is exactly 0
    ]
    monkeypatch.setitem(sys.modules, "z3", None)  # importing z3 now fails
    assert proposals.installed() is None
    for statement, domain, verdict in sample:
        result = prove(statement, domain, budget_seconds=2, max_boxes=40)
        assert str(result.status) == verdict and result.to_json()["solver"] is None, statement
        assert not result.parts[0].proposals
        assert str(prove(statement, domain, 2, 40, solver=False).status) == verdict


def test_a_strict_claim_false_only_at_a_midpoint_is_refuted_by_the_exact_normal_form():
    # x (1 - x) < 1/4 fails only at x = 1/2 (gap 0), which the search probes: the ball of the gap holds
    # 0, its exact normal form at 1/2 is 0 (<= 0 refutes the strict claim).
    result = prove("x*(1 - x) < 1/4", "x: [0, 1]", budget_seconds=1, solver=False)
    assert str(result.status) == "refuted" and result.parts[0].witness.point == {"x": F(1, 2)}


# --- z3's own proposals --------------------------------------------------------------------------------

SUM_OF_ROOTS = ("sqrt(x^2 + 1) + sqrt((x - 1)^2 + 4) >= sqrt(10)", "x: [-3, 3]")
"""True: the distances from (x, 0) to (0, 1) and to (1, -2) add up to at least the distance between those
points, sqrt(10), with equality where the segment crosses the axis, x = 1/3."""


def test_z3_s_touching_point_lets_the_search_prove_what_it_left_undecided():
    pytest.importorskip("z3", reason="the solver extra")
    x = mpmath.mpf(1) / 3
    assert (
        abs(mpmath.sqrt(x**2 + 1) + mpmath.sqrt((x - 1) ** 2 + 4) - mpmath.sqrt(10)) < mpmath.mpf(10) ** -14
    )
    alone = prove(*SUM_OF_ROOTS, budget_seconds=5, max_boxes=15, solver=False)
    helped = prove(*SUM_OF_ROOTS, budget_seconds=5, max_boxes=15)
    assert str(alone.status) == "undecided" and str(helped.status) == "proved"
    (proposal,) = helped.parts[0].proposals
    assert (proposal.kind, proposal.point, proposal.outcome) == ("split", {"x": F(1, 3)}, "split")
    assert check_certificate(helped.parts[0].certificate.to_json()).accepted
    record = helped.to_json()["solver"]
    assert record["name"] == "z3" and record["asked"] and (record["proposed"], record["used"]) == (1, 1)


def test_z3_s_witness_refutes_a_strict_claim_false_at_one_point_off_every_dyadic_probe():
    pytest.importorskip("z3", reason="the solver extra")
    statement, domain = "x*y*(1 - x - y) < 1/27", "x: [0, 1], y: [0, 1]"  # false at (1/3, 1/3) only
    # z3's witness refutes on the first box; the prover alone (its probes dyadic) is undecided at that limit
    alone = prove(statement, domain, budget_seconds=5, max_boxes=4, solver=False)
    helped = prove(statement, domain, budget_seconds=5, max_boxes=4)
    assert str(alone.status) == "undecided" and str(helped.status) == "refuted"
    point = helped.parts[0].witness.point
    assert point == {"x": F(1, 3), "y": F(1, 3)} and point["x"] * point["y"] * (
        1 - point["x"] - point["y"]
    ) == F(1, 27)


@pytest.mark.slow
def test_prove_json_names_the_solver_and_no_solver_turns_it_off(capsys):
    pytest.importorskip("z3", reason="the solver extra")
    from paper_checks.cli import main

    arguments = ["prove", "x*y*(1 - x - y) < 1/27", "--domain", "x: [0, 1], y: [0, 1]", "--json"]
    assert main([*arguments, "--budget", "5"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert document["solver"]["name"] == "z3" and document["solver"]["version"]
    assert document["inequalities"][0]["proposals"][0]["outcome"] == "confirmed"
    assert main([*arguments, "--budget", "5", "--max-boxes", "40", "--no-solver"]) == 3
    assert json.loads(capsys.readouterr().out)["solver"] is None


def _ask(statement: str, domain: str) -> list[Proposal]:
    from theory.prover import parse_domain, parse_statement
    from theory.prover.certificate import domain_data
    from theory.prover.kernel import verify as kernel

    parsed = parse_domain(domain)
    (inequality,) = parse_statement(statement, parsed).inequalities
    solver = proposals.installed()
    assert solver is not None
    return solver.propose(inequality.gap_tree(), inequality.strict, kernel.read_domain(domain_data(parsed)))


def test_z3_is_given_only_what_nonlinear_real_arithmetic_expresses():
    pytest.importorskip("z3", reason="the solver extra")
    assert _ask("exp(x) >= 1/2", "x: [-1, 0]") == []  # exp(-1) < 1/2: false, but not z3's to find
    assert _ask("x^100 <= 2", "x: [0, 2]") == []  # an exponent beyond MAX_EXPONENT is not written out
    (witness,) = _ask("x^2 >= 2", "x: [0, 2]")  # false for x^2 < 2
    assert witness.kind == "witness" and witness.point["x"] >= 0 and witness.point["x"] ** 2 < 2
    (witness,) = _ask("1/x <= 3", "x: [1/10, 1]")
    assert witness.point["x"] < F(1, 3)  # 1/x > 3 there
