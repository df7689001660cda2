"""Coq files for the statements the exporter used to leave as named hypotheses (exit 4): the ``polynomial``
step with coefficients in Q(sqrt 3), on a range reaching infinity by Taylor tails at a cut
(theory/prover/coq/polynomials.py), and a root on one side alone (the ``squares`` step of
x sqrt(1 - x^2) <= 1/2). Truth by hand and mpmath at 50 digits: x^6 - x^2 + 2 sqrt(3)/9 =
(x^2 - 1/sqrt 3)^2 (x^2 + 2/sqrt 3); x^3 - 3 x + 2 = (x - 1)^2 (x + 2) >= 0 on [-2, oo);
1/2 - x sqrt(1 - x^2) = (x - sqrt(1 - x^2))^2 / 2. Each is accepted by coqc with no hypothesis and only
the trusted axioms; the same certificates with their gaps planted false (checked false by mpmath), and a
file whose tail identity is tampered, are never accepted (the planted certificates exported and checked
together: tests/helpers/coq_groups.py). coqc runs of 2-10 CPU s each: slow."""

from __future__ import annotations

import json

import mpmath
import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from tests.helpers.certificates import box_certificate, domain_variable
from tests.helpers.coq_groups import assert_never_accepted, planted_together
from tests.helpers.coq_marks import NEEDS_COQC
from tests.helpers.coq_runs import assert_accepted, proved_together
from theory.prover import prove
from theory.prover.coq.coqc import check_file

pytestmark = [
    pytest.mark.coq,
    pytest.mark.slow,
    NEEDS_COQC,
]

ACCEPTED = [
    ("x^6 - x^2 >= -2*sqrt(3)/9", "x: real", '"polynomial"', "sqrt 3"),
    ("x^6 - x^2 > -2*sqrt(3)/9 - 1/1000", "x: real", '"polynomial"', "Rle_or_lt"),
    ("x^3 + 2 > 3*x - 1/100", "x: [-2, oo)", '"polynomial"', "Rplus_lt_le_0_compat"),
    ("x*sqrt(1 - x^2) <= 1/2", "x: [-1, 1]", '"squares"', "sb_squares"),
]
"""(statement, domain, the kernel's step in the certificate, a lemma or term the accepted file holds)."""


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    """Every case's file, judged by coqc together (tests.helpers.coq_runs.proved_together)."""
    return proved_together(ACCEPTED, tmp_path_factory.mktemp("tails"), "--no-solver")


@pytest.mark.parametrize(("statement", "domain", "method", "applied"), ACCEPTED)
def test_the_statement_is_an_accepted_coq_file_without_hypotheses(statement, domain, method, applied, judged):
    case = judged[(statement, domain, method, applied)]
    assert_accepted(case)
    assert method in json.dumps(case.document["inequalities"][0]["certificate"]["boxes"])
    assert applied in case.text


X = ["var", "x"]
ROOT3 = ["pow", ["num", "3"], ["num", "1/2"]]
POLYNOMIAL = {"method": "polynomial", "variable": "x"}
CUBIC = ["add", ["pow", X, ["num", "3"]], ["mul", ["num", "-3"], X], ["num", "2"], ["num", "-1/100"]]
"""x^3 - 3 x + 2 - 1/100: its margin negated."""
SEXTIC = [
    "add",
    ["pow", X, ["num", "6"]],
    ["mul", ["num", "-1"], ["pow", X, ["num", "2"]]],
    ["mul", ["num", "2/9"], ROOT3],
    ["num", "-1/1000"],
]
"""x^6 - x^2 + 2 sqrt(3)/9 - 1/1000: lowered below its minimum."""


def _lowered_root_bound() -> dict:
    """The certificate of x sqrt(1 - x^2) <= 1/2 with its gap lowered by 10^-6."""
    certificate = prove("x*sqrt(1 - x^2) <= 1/2", "x: [-1, 1]", 10.0, solver=False).parts[0].certificate
    assert certificate is not None
    data: dict = certificate.to_json()
    data["gap"] = ["add", data["gap"], ["num", "-1/1000000"]]
    return data


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    """The planted certificates' records, exported and checked by coqc together
    (tests.helpers.coq_groups.planted_together; the kernel refuses each)."""
    cubic = [{"box": {"x": ["-2", "oo"]}, "decision": POLYNOMIAL}]
    sextic = [{"box": {"x": ["-oo", "oo"]}, "decision": POLYNOMIAL}]
    certificates = {
        "cubic": box_certificate(CUBIC, [domain_variable("x", "-2", "oo", upper_open=True)], cubic, True),
        "sextic": box_certificate(SEXTIC, [domain_variable("x", "-oo", "oo", True, True)], sextic, False),
        "root": _lowered_root_bound(),
    }
    return planted_together(certificates, tmp_path_factory.mktemp("planted"))


def test_the_cubic_with_its_margin_negated_is_never_accepted(planted):
    """x^3 - 3 x + 2 - 1/100 > 0 on [-2, oo) is false at x = 1 (-1/100)."""
    assert 1 - 3 + 2 - mpmath.mpf(1) / 100 < 0
    assert_never_accepted(planted["cubic"])


def test_the_sextic_lowered_below_its_minimum_is_never_accepted(planted):
    """x^6 - x^2 + 2 sqrt(3)/9 - 1/1000 >= 0 over the reals is false at x = 3^(-1/4) (mpmath: -1/1000)."""
    with mpmath.workdps(50):
        x = mpmath.root(3, 4) ** -1
        assert x**6 - x**2 + 2 * mpmath.sqrt(3) / 9 - mpmath.mpf(1) / 1000 < 0
    assert_never_accepted(planted["sextic"])


def test_a_file_whose_tail_expansion_is_tampered_is_refused(tmp_path, judged):
    """The cubic's tail q(1 + t) = 1/100 + 3 t^2 + t^3 with its constant raised to 1/10 in the file: the
    identity ``field`` must prove is false, and coqc refuses the file."""
    text = judged[ACCEPTED[2]].text  # x^3 + 2 > 3 x - 1/100 on [-2, oo)
    right = "replace g with ((1 / 100) + (v_x - 1) *"
    assert right in text
    planted = tmp_path / "Planted.v"
    planted.write_text(text.replace(right, "replace g with ((1 / 10) + (v_x - 1) *"), encoding="utf-8")
    assert check_file(planted).status == "rejected"


def test_the_root_bound_lowered_is_never_accepted(planted):
    """The certificate of x sqrt(1 - x^2) <= 1/2 with its gap lowered by 10^-6 (false at 1/sqrt(2))."""
    with mpmath.workdps(50):
        x = 1 / mpmath.sqrt(2)
        assert mpmath.mpf(1) / 2 - x * mpmath.sqrt(1 - x * x) - mpmath.mpf(1) / 10**6 < 0
    assert_never_accepted(planted["root"])
