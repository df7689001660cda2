"""The Coq exporter's reach over the kernel's newer rules (issue 48): the ``periodic`` step
(``sb_periodic``, ``sb_periodic_lt``), ``bernstein`` decisions (``sb_bernstein_step`` / ``_basis`` /
``_unit``, strict ``sb_bernstein_min``), strict ``polynomial`` boxes (a quartic over the whole line by
two squares given to nra) and strict claims touching 0 at a ``jump``: statements whose truth is by hand
(Hermite's identity floor(x/2) + floor((x + 1)/2) = floor(x); x^3 + y^3 - x^2 y - x y^2 =
(x + y)(x - y)^2 >= 0; x^4 - x^3 >= -27/256 with equality at 3/4) are files coqc accepts with no
hypothesis; the same certificates with their gaps planted false (checked false by exact arithmetic at a
point) are never accepted. coqc runs of 3-25 CPU s each: slow."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from tests.helpers.certificates import box_certificate, domain_variable
from tests.helpers.coq_groups import assert_never_accepted, planted_together
from tests.helpers.coq_marks import NEEDS_COQC
from tests.helpers.coq_runs import assert_accepted, proved_together
from theory.prover import prove
from theory.prover.coq.files import export_to
from theory.prover.kernel import check_certificate

pytestmark = [
    pytest.mark.coq,
    pytest.mark.slow,
    NEEDS_COQC,
]

REACHED = [
    ("floor(x/2) + floor((x+1)/2) <= x", "x: real", "periodic", "refine (sb_periodic "),
    ("floor(x/2) + floor((x+1)/2) > x - 1", "x: real", "periodic", "refine (sb_periodic_lt "),
    ("floor(x/2) + floor((x+1)/2) > x - 1", "x: [0, 3]", "jump", "sb_floor_between"),
    # x^3 + y^3 - x y has its minimum -1/27 on [0, 1]^2 at x = y = 1/3 (by hand: 3 x^2 = y, 3 y^2 = x), so the
    # gap is at least 1/10 - 1/27 > 0; it has no factorization over Q, so the search takes Bernstein boxes
    ("x^3 + y^3 + 1/10 >= x*y", "x: [0, 1], y: [0, 1]", "bernstein", "apply sb_bernstein_step"),
    ("x^4 - x^3 > -27/256 - 1/1000", "x: [-1, 2]", "polynomial", "apply Rmult_lt_0_compat"),
    ("x^4 - x^3 > -27/256 - 1/1000", "x: real", "polynomial", "pose proof (pow2_ge_0 (v_x ^ 2 + "),
]
"""Statements the kernel decides by the step named, and the lemma the accepted file must apply."""


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    """Every case's file, judged by coqc together (tests.helpers.coq_runs.proved_together)."""
    return proved_together(REACHED, tmp_path_factory.mktemp("reach"))


@pytest.mark.parametrize(("statement", "domain", "method", "applied"), REACHED)
def test_a_statement_decided_by_a_newer_rule_is_an_accepted_coq_file(
    statement, domain, method, applied, judged
):
    case = judged[(statement, domain, method, applied)]
    assert_accepted(case)
    assert f'"method": "{method}"' in json.dumps(case.document["inequalities"][0]["certificate"]["boxes"])
    assert applied in case.text


@pytest.fixture(scope="module")
def proved():
    """The prover's certificates of Hermite's identity's bounds: periodic over the reals, jump on [0, 3]."""
    periodic = prove("floor(x/2) + floor((x+1)/2) <= x", "x: real", 30.0)
    jump = prove("floor(x/2) + floor((x+1)/2) > x - 1", "x: [0, 3]", 30.0)
    return {
        name: result.parts[0].certificate.to_json()
        for name, result in [("periodic", periodic), ("jump", jump)]
    }


def _periodic_planted(certificate: dict) -> dict:
    """The periodic certificate with its gap lowered by x/1000."""
    return {**certificate, "gap": ["add", certificate["gap"], ["mul", ["num", "-1/1000"], ["var", "x"]]]}


def _jump_planted(certificate: dict) -> dict:
    """The jump certificate with its gap lowered by 1/1000."""
    return {**certificate, "gap": ["add", certificate["gap"], ["num", "-1/1000"]]}


def _bernstein(constant: str, strict: bool):
    """x^3 + y^3 + c - x^2 y - x y^2 on [0, 1/4]^2, one box decided by its Bernstein coefficients."""
    x, y = ["var", "x"], ["var", "y"]
    gap = [
        "add",
        ["pow", x, ["num", "3"]],
        ["pow", y, ["num", "3"]],
        ["num", constant],
        ["mul", ["num", "-1"], ["pow", x, ["num", "2"]], y],
        ["mul", ["num", "-1"], x, ["pow", y, ["num", "2"]]],
    ]
    domain = [domain_variable("x", "0", "1/4"), domain_variable("y", "0", "1/4")]
    box = {"x": ["0", "1/4"], "y": ["0", "1/4"]}
    return box_certificate(gap, domain, [{"box": box, "decision": {"method": "bernstein"}}], strict)


def _polynomial_touching_zero() -> dict:
    """x^4 - x^3 + 27/256 > 0 on [-1, 2], one box decided by the polynomial step in x."""
    gap = [
        "add",
        ["pow", ["var", "x"], ["num", "4"]],
        ["mul", ["num", "-1"], ["pow", ["var", "x"], ["num", "3"]]],
        ["num", "27/256"],
    ]
    box = {"x": ["-1", "2"]}
    decision = {"method": "polynomial", "variable": "x"}
    return box_certificate(gap, [domain_variable("x", "-1", "2")], [{"box": box, "decision": decision}], True)


@pytest.fixture(scope="module")
def records(proved, tmp_path_factory):
    """The plants exported and checked by coqc in one call (tests.helpers.coq_groups.planted_together,
    which asserts first that the kernel refuses each): name -> export_to's record."""
    certificates: dict[object, dict] = {
        "periodic": _periodic_planted(proved["periodic"]),
        "jump": _jump_planted(proved["jump"]),
        "polynomial": _polynomial_touching_zero(),
        **{strict: _bernstein("-1/100", strict) for strict in (False, True)},
    }
    return planted_together(certificates, tmp_path_factory.mktemp("planted"))


def test_a_periodic_certificate_with_its_gap_planted_false_is_never_accepted(proved, records):
    """x - floor(x/2) - floor((x + 1)/2) - x/1000 is -1 at x = 1000 and is not periodic: the file's
    periodicity (or the period's lemma) fails in coqc."""
    assert proved["periodic"]["boxes"][0]["decision"]["method"] == "periodic"
    x = 1000
    assert x - math.floor(Fraction(x, 2)) - math.floor(Fraction(x + 1, 2)) - Fraction(x, 1000) < 0
    assert_never_accepted(records["periodic"])


@pytest.mark.parametrize(("strict", "applied"), [(False, "sb_bernstein_step"), (True, "sb_bernstein_min")])
def test_a_bernstein_box_is_accepted_and_its_plant_is_not(strict, applied, records, tmp_path):
    """(x + y)(x - y)^2 + 1/100 > 0 on [0, 1/4]^2 is accepted; with -1/100 (negative at x = y) it is not."""
    certificate = _bernstein("1/100", strict)
    assert check_certificate(certificate).accepted
    record = export_to(certificate, tmp_path / "Statement.v", True)
    assert (record["coq"], record["rests_on_hypotheses"]) == ("accepted", False), record
    assert applied in (tmp_path / "Statement.v").read_text()
    t = Fraction(1, 8)
    assert t**3 + t**3 - Fraction(1, 100) - t**3 - t**3 < 0
    assert_never_accepted(records[strict])


def test_a_strict_polynomial_box_touching_zero_is_never_accepted(records):
    """x^4 - x^3 + 27/256 > 0 on [-1, 2] is false at x = 3/4 (exactly 0): its E = x - 3/4 gives no
    0 < E * E, and the box stays unproved."""
    t = Fraction(3, 4)
    assert t**4 - t**3 + Fraction(27, 256) == 0
    assert_never_accepted(records["polynomial"])


def test_a_strict_jump_certificate_with_its_gap_lowered_is_never_accepted(proved, records):
    """floor(x/2) + floor((x + 1)/2) - x + 1 - 1/1000 is negative just below x = 1 (0 - 1/10^4 + ...):
    the open piece (0, 1)'s lemma is false and coqc refuses it."""
    assert proved["jump"]["boxes"][0]["decision"]["method"] == "jump"
    x = 1 - Fraction(1, 10**4)
    assert math.floor(x / 2) + math.floor((x + 1) / 2) - x + 1 - Fraction(1, 1000) < 0
    assert_never_accepted(records["jump"])
