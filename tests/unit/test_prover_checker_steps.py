"""The checker's re-verification of the steps at infinity and of the convexity rule: the honest step
records are accepted, each tampered step is rejected, and each says which of its parts are sympy's."""

from __future__ import annotations

import copy
import json

import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from theory.prover import check_certificate, prove, rules


def _certificate(statement: str, domain: str) -> dict:
    result = prove(statement, domain, budget_seconds=20)
    assert result.status == "proved"
    return json.loads(json.dumps(result.parts[0].certificate.to_json()))


def _decisions(certificate: dict, key: str) -> list[dict]:
    """Every decision (nested ones too) that has ``key``."""
    found = []
    for item in certificate["boxes"]:
        decision = item["decision"]
        while isinstance(decision, dict):
            if key in decision:
                found.append(decision)
            decision = decision.get("then")
    return found


@pytest.fixture(scope="module")
def tail_certificate() -> dict:
    """tanh(x) < 1 on [-1, oo): strictly decreasing gap, decided on the tail [16, oo) in balls."""
    return _certificate("tanh(x) < 1", "x: [-1, oo)")


@pytest.fixture(scope="module")
def limit_certificate() -> dict:
    """atan(x) <= pi/2: no enclosure of the gap reaches 0 from above: the face at +oo is sympy's limit."""
    return _certificate("atan(x) <= pi/2", "x: real")


@pytest.fixture(scope="module")
def critical_certificate() -> dict:
    """log(1 + x) <= x: the convexity rule at the critical point x = 0."""
    return _certificate("log(1+x) <= x", "x: (-1, oo)")


def test_a_face_at_infinity_decided_in_balls_records_its_tail_and_is_accepted(tail_certificate):
    (decision,) = _decisions(tail_certificate, "tail")
    assert decision["provenance"] == rules.TAIL_PROVENANCE and "arb balls" in decision["provenance"]
    assert "limit" not in decision
    assert check_certificate(tail_certificate).accepted


def test_a_tail_start_outside_the_range_is_rejected(tail_certificate):
    tampered = copy.deepcopy(tail_certificate)
    _decisions(tampered, "tail")[0]["tail"] = "-2"  # below the box's lower end -1
    report = check_certificate(tampered)
    assert not report.accepted and "outside the range" in report.reason


def test_a_flipped_derivative_sign_at_infinity_is_rejected(tail_certificate):
    tampered = copy.deepcopy(tail_certificate)
    decision = _decisions(tampered, "tail")[0]
    decision["face"] = "lower" if decision["face"] == "upper" else "upper"
    report = check_certificate(tampered)
    assert not report.accepted and "claimed sign" in report.reason


def test_a_face_at_infinity_without_its_record_is_rejected(tail_certificate):
    tampered = copy.deepcopy(tail_certificate)
    decision = _decisions(tampered, "tail")[0]
    del decision["tail"], decision["provenance"]
    assert not check_certificate(tampered).accepted


def test_a_sympy_limit_is_recorded_as_such_and_accepted(limit_certificate):
    decisions = _decisions(limit_certificate, "limit")
    assert decisions
    assert all("sympy limit (Gruntz), not re-derived" in d["provenance"] for d in decisions)
    assert check_certificate(limit_certificate).accepted


def test_a_moved_limit_value_is_rejected_by_the_ball_enclosure_of_the_tail(limit_certificate):
    tampered = copy.deepcopy(limit_certificate)
    _decisions(tampered, "limit")[0]["limit"] = "Rational(1, 1000)"  # the true limit of pi/2 - atan(x) is 0
    report = check_certificate(tampered)
    assert not report.accepted and "outside the arb-ball enclosure" in report.reason


def test_a_moved_limit_inside_the_ball_enclosure_is_rejected_by_sympy():
    # log(x + 1) - log(x): no finite enclosure on any tail, so only sympy's limit can reject a moved value
    certificate = _certificate("log(x+1) - log(x) >= 0", "x: [1, oo)")
    tampered = copy.deepcopy(certificate)
    _decisions(tampered, "limit")[0]["limit"] = "Rational(1, 1000)"
    report = check_certificate(tampered)
    assert not report.accepted and "sympy's limit differs" in report.reason


def test_an_overstated_provenance_is_rejected(limit_certificate):
    tampered = copy.deepcopy(limit_certificate)
    _decisions(tampered, "limit")[0]["provenance"] = rules.TAIL_PROVENANCE  # claims balls for a sympy step
    report = check_certificate(tampered)
    assert not report.accepted and "provenance" in report.reason


def test_the_convexity_rule_records_which_parts_are_sympy_and_is_accepted(critical_certificate):
    decisions = _decisions(critical_certificate, "point")
    assert decisions and all(d["provenance"] == rules.CRITICAL_PROVENANCE for d in decisions)
    assert "not re-derived" in rules.CRITICAL_PROVENANCE
    assert check_certificate(critical_certificate).accepted


def test_a_moved_critical_point_is_rejected_by_the_ball_enclosure_of_the_slope(critical_certificate):
    tampered = copy.deepcopy(critical_certificate)
    _decisions(tampered, "point")[0]["point"] = "Rational(1, 1000)"  # d/dx (x - log(1 + x)) there is ~1e-3
    report = check_certificate(tampered)
    assert not report.accepted and "excludes 0" in report.reason


def test_a_convexity_claim_that_fails_on_the_box_is_rejected():
    # x^3 >= 0 by "critical point 0, convex, reduced gap 0": honest on [0, 1] (curvature 6x >= 0), a lie on
    # [-1, 1] (false there): slope 0 at 0 passes the ball and sympy checks, only the curvature can reject.
    honest = _certificate("x^3 >= 0", "x: [0, 1]")
    critical = {
        "rule": "critical",
        "variable": "x",
        "point": "Integer(0)",
        "provenance": rules.CRITICAL_PROVENANCE,
        "then": {"rule": "enclosure", "form": "as_stated"},
    }
    honest["boxes"] = [{"box": {"x": ["0", "1"]}, "decision": critical}]
    assert check_certificate(honest).accepted
    lie = copy.deepcopy(honest)
    lie["domain"] = "x: [-1, 1]"
    lie["boxes"][0]["box"]["x"] = ["-1", "1"]
    report = check_certificate(lie)
    assert not report.accepted and "d^2 gap" in report.reason
