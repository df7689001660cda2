"""A scale step's identity g m = f proved term by term (``theory.prover.coq.steps.termwise``): each term
of the gap times m equals one term of the form, by ``field`` with the inverses on both sides named, then
the sum by ``ring``. A kernel-accepted certificate is accepted by coqc with no hypothesis; a planted form
with one term's coefficient changed, forced through the term-by-term route (its matching patched to pair
the terms in order), is refused by coqc. Two coqc runs of a few CPU s each."""

from __future__ import annotations

import pytest

pytest.importorskip("flint", reason="the exporter reads certificates with the kernel (python-flint)")

from tests.helpers.certificates import box_certificate, domain_variable
from tests.helpers.coq_marks import NEEDS_COQC
from tests.helpers.coq_runs import exported_and_checked
from theory.prover.coq import steps
from theory.prover.coq.coqc import TRUSTED_AXIOMS
from theory.prover.kernel import check_certificate

pytestmark = [pytest.mark.coq, pytest.mark.slow, NEEDS_COQC]

X = ["var", "x"]
ONE_PLUS_X = ["add", ["num", "1"], X]
GAP = [
    "add",
    ["pow", X, ["num", "-1"]],
    ["mul", ["pow", X, ["num", "1/2"]], ["pow", X, ["num", "-1"]]],
    ["mul", ["pow", X, ["num", "-1"]], ["pow", ONE_PLUS_X, ["num", "-1"]]],
]
"""1/x + sqrt(x)/x + 1/(x (1 + x)) > 0 on [1, 2]; times x it is 1 + sqrt(x) + 1/(1 + x), term by term
(by hand), the last term's inverse of 1 + x on both sides."""


def _certificate(middle: list) -> dict:
    form = ["add", ["num", "1"], middle, ["pow", ONE_PLUS_X, ["num", "-1"]]]
    decision = {"method": "scale", "by": X, "form": form, "then": {"method": "enclosure"}}
    return box_certificate(
        GAP, [domain_variable("x", "1", "2")], [{"box": {"x": ["1", "2"]}, "decision": decision}], True
    )


def test_a_scale_identity_proved_term_by_term_is_accepted(tmp_path):
    certificate = _certificate(["pow", X, ["num", "1/2"]])
    assert check_certificate(certificate).accepted
    exported, verdict = exported_and_checked(certificate, tmp_path)
    assert exported.hypotheses == []
    assert "f_equal2 Rplus (f_equal2 Rplus E0 E1) E2" in exported.text
    assert verdict.status == "accepted", verdict.reason
    assert all(axiom.startswith(TRUSTED_AXIOMS) for axiom in verdict.axioms)


def test_a_wrong_term_forced_through_the_term_by_term_route_is_refused(tmp_path, monkeypatch):
    """The form with 2 sqrt(x) for sqrt(x) (false at x = 1: 1 + 1 + 1/2 against 1 + 2 + 1/2): the kernel
    rejects it; with the matching patched to pair the terms in order, the exported E_1 states
    sqrt(x)/x * x = 2 sqrt(x), and coqc refuses the file."""
    certificate = _certificate(["mul", ["num", "2"], ["pow", X, ["num", "1/2"]]])
    assert not check_certificate(certificate).accepted

    class Paired:
        """Every normal form the same: the first unused term is each target's match."""

        @staticmethod
        def normal_form(tree, fixed):
            return {}

        @staticmethod
        def normal_form_times(tree, multiplier, fixed):
            return {}

    monkeypatch.setattr(steps, "exact", Paired)
    exported, verdict = exported_and_checked(certificate, tmp_path)
    assert "(2 * (sqrt v_x))) by (" in exported.text  # E1 states the planted term
    assert verdict.status == "rejected"
