"""The separate checker accepts the certificates the search finds and rejects tampered ones."""

from __future__ import annotations

import copy
import json

import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from theory.prover import check_certificate, prove
from theory.prover.checker import InvalidCertificate


@pytest.fixture(scope="module")
def gelu_certificate() -> dict:
    """GELU' <= 1.13 on the real line: a cover of several boxes, unbounded ends included."""
    result = prove("diff(x*Phi(x), x) <= 1.13", "x: real", budget_seconds=30)
    assert result.status == "proved"
    certificate = result.parts[0].certificate.to_json()
    assert len(certificate["boxes"]) >= 4
    return json.loads(json.dumps(certificate))  # plain JSON data, as a file would hold it


@pytest.fixture(scope="module")
def two_dimensional_certificate() -> dict:
    result = prove("x^2 + y^2 <= 2", "x: [-1, 1], y: [-1, 1]", budget_seconds=30)
    assert result.status == "proved"
    return json.loads(json.dumps(result.parts[0].certificate.to_json()))


def test_found_certificates_are_accepted(gelu_certificate, two_dimensional_certificate):
    for certificate in (gelu_certificate, two_dimensional_certificate):
        report = check_certificate(certificate)
        assert report.accepted, report.reason
        assert report.boxes == len(certificate["boxes"])


def test_a_removed_box_is_rejected(gelu_certificate):
    for index in range(len(gelu_certificate["boxes"])):
        tampered = copy.deepcopy(gelu_certificate)
        del tampered["boxes"][index]
        report = check_certificate(tampered)
        assert not report.accepted
        assert "cover" in report.reason


def test_a_moved_endpoint_is_rejected(gelu_certificate):
    tampered = copy.deepcopy(gelu_certificate)
    finite = next(b for b in tampered["boxes"] if "oo" not in b["box"]["x"][1])
    finite["box"]["x"][1] = finite["box"]["x"][1] + "1"  # e.g. "1/2" -> "1/21"
    assert not check_certificate(tampered).accepted


def test_a_moved_shared_endpoint_is_rejected_even_when_the_cover_stays_exact(two_dimensional_certificate):
    # move one cut in both neighbours: the boxes still partition the square, the claims must be replayed
    tampered = copy.deepcopy(two_dimensional_certificate)
    tampered["domain"] = "x: [-1, 1], y: [-1, 1.5]"
    assert not check_certificate(tampered).accepted


def test_a_false_claim_on_a_box_is_rejected():
    # a lie of the search: "enclosure" on a box where the gap is negative
    result = prove("x <= 2", "x: [0, 1]", budget_seconds=5)
    certificate = result.parts[0].certificate.to_json()
    certificate["domain"] = "x: [0, 3]"
    certificate["boxes"][0]["box"]["x"] = ["0", "3"]
    report = check_certificate(certificate)
    assert not report.accepted
    assert "fails" in report.reason


def test_a_changed_statement_is_rejected(gelu_certificate):
    tampered = copy.deepcopy(gelu_certificate)
    tampered["gap"] = tampered["gap"].replace("Rational(63, 100)", "Rational(62, 100)")
    assert tampered["gap"] != gelu_certificate["gap"]
    assert not check_certificate(tampered).accepted


def test_a_changed_decision_is_rejected(two_dimensional_certificate):
    tampered = copy.deepcopy(two_dimensional_certificate)
    tampered["boxes"][0]["decision"] = {"rule": "monotone", "variable": "x", "face": "upper", "then": {}}
    assert not check_certificate(tampered).accepted


def test_not_a_certificate_is_a_clear_error():
    with pytest.raises(InvalidCertificate, match="format"):
        check_certificate({"boxes": []})
