"""Identities that hold by sqrt a * sqrt a = a, exported to Coq: the exporter states that relation for every
square root of an identity's sides and, where ``sb_identity_laws`` fails (``field`` takes sqrt a as an
atom), gives the relations to ``field`` as rewriting rules (``sb_identity_roots``), inside an exp's
argument too. The kernel's acceptance of the certificate is the independent reference; a planted identity
that would need sqrt(pi) sqrt(pi) = 2 pi, or the relation for the square root of a negative term (Coq's
sqrt is 0 there), is refused by coqc. A few small coqc runs (about 2-10 CPU s each)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("flint", reason="the exporter reads certificates with the kernel (python-flint)")

from tests.helpers.certificates import box_certificate, domain_variable
from tests.helpers.coq_marks import NEEDS_COQC
from theory.prover.coq.coqc import TRUSTED_AXIOMS, check_file
from theory.prover.coq.export import export_certificate
from theory.prover.kernel import check_certificate

pytestmark = [
    pytest.mark.coq,
    pytest.mark.slow,
    NEEDS_COQC,
]

X = ["var", "x"]
PI = ["const", "pi"]
ROOT_RULES = "sb_identity_roots ltac:(field [R0 R1])"


def _power(base: list, exponent: str) -> list:
    return ["pow", base, ["num", exponent]]


def _rewritten(gap: list, form: list) -> dict:
    """gap > 0 on x in [0, 1] by a rewrite to ``form``, which is enclosed."""
    decision = {"method": "rewrite", "form": form, "then": {"method": "enclosure"}}
    return box_certificate(
        gap, [domain_variable("x", "0", "1")], [{"box": {"x": ["0", "1"]}, "decision": decision}], True
    )


GAUSSIAN = [
    "add",
    ["num", "3"],
    [
        "mul",
        ["num", "-1"],
        X,
        _power(PI, "-1/2"),
        _power(PI, "-1/2"),
        PI,
        ["exp", ["mul", ["num", "-1/2"], _power(["mul", X, _power(["num", "2"], "1/2")], "2")]],
    ],
]
"""3 - x pi^(-1/2) pi^(-1/2) pi exp(-(x sqrt 2)^2 / 2), which is 3 - x exp(-x^2) (in [2, 3] on [0, 1]):
the identity needs sqrt(pi)^2 = pi under field and sqrt(2)^2 = 2 in the exp's argument (the shape of
the gelu derivative's tail slope)."""


def _form(factor: str) -> list:
    """3 - factor x exp(-x^2), > 0 on [0, 1] for factor 1 and 2 (x exp(-x^2) <= 1)."""
    return ["add", ["num", "3"], ["mul", ["num", factor], X, ["exp", ["mul", ["num", "-1"], _power(X, "2")]]]]


def _compiled(text: str, tmp_path: Path, name: str):
    path = tmp_path / f"{name}.v"
    path.write_text(text, encoding="utf-8")
    return check_file(path)


def test_an_identity_by_the_square_roots_relation_is_proved_and_needs_it(tmp_path):
    certificate = _rewritten(GAUSSIAN, _form("-1"))
    assert check_certificate(certificate).accepted
    exported = export_certificate(certificate)
    assert exported.hypotheses == []
    assert "assert (R0 : sqrt PI * sqrt PI = PI)" in exported.text and ROOT_RULES in exported.text
    verdict = _compiled(exported.text, tmp_path, "Roots")
    assert verdict.status == "accepted", verdict.reason
    assert all(axiom.startswith(TRUSTED_AXIOMS) for axiom in verdict.axioms)
    without = _compiled(exported.text.replace(ROOT_RULES, "fail"), tmp_path, "Without")
    assert without.status == "rejected", without  # sb_identity_laws alone does not prove it


def test_a_planted_identity_needing_sqrt_pi_squared_to_be_2_pi_is_refused(tmp_path):
    """3 - x exp(-x^2) rewritten as 3 - 2 x exp(-x^2): the identity holds only if sqrt(pi)^2 were 2 pi;
    the form is still > 0 on [0, 1], so only the identity can fail."""
    certificate = _rewritten(GAUSSIAN, _form("-2"))
    assert not check_certificate(certificate).accepted
    exported = export_certificate(certificate)
    assert ROOT_RULES in exported.text
    verdict = _compiled(exported.text, tmp_path, "Planted")
    assert verdict.status == "rejected", verdict


def test_the_relation_for_the_square_root_of_a_negative_term_is_not_stated(tmp_path):
    """3 + sqrt(x - 2) sqrt(x - 2) rewritten as 1 + x on [0, 1]: the identity holds only with
    sqrt(x - 2)^2 = x - 2, false there (Coq's sqrt of a negative number is 0, so the gap is 3 in Coq)."""
    root = _power(["add", X, ["num", "-2"]], "1/2")
    certificate = _rewritten(["add", ["num", "3"], ["mul", root, root]], ["add", ["num", "1"], X])
    assert not check_certificate(certificate).accepted
    exported = export_certificate(certificate)
    assert "assert (R0 : sqrt (v_x + (-2)) * sqrt (v_x + (-2)) = (v_x + (-2)))" in exported.text
    verdict = _compiled(exported.text, tmp_path, "Negative")
    assert verdict.status == "rejected", verdict
