"""The kernel's steps scale, unsigned and sum exported to Coq (``theory.prover.coq.steps``): a known-true
certificate taking the step is accepted by coqc with no hypothesis, and a planted mistake in what the step
carries (a wrong scale factor, a flipped sign of an abs argument, a part dropped from a sum) makes coqc
refuse the file. Each certificate is also re-checked by the kernel, so the accepted ones are real kernel
decisions. A few small coqc runs (about 3-10 CPU s each)."""

from __future__ import annotations

import pytest

pytest.importorskip("flint", reason="the exporter reads certificates with the kernel (python-flint)")

from tests.helpers.certificates import box_certificate, domain_variable
from tests.helpers.coq_marks import NEEDS_COQC
from tests.helpers.coq_runs import exported_and_checked
from theory.prover.coq import steps
from theory.prover.coq.coqc import TRUSTED_AXIOMS
from theory.prover.kernel import check_certificate

pytestmark = NEEDS_COQC


P = ["var", "p"]
TWO_PLUS_P = ["add", ["num", "2"], P]


def _scale(factor: list) -> dict:
    """p / (2 + p) < 1 on [0, 2] (integrand_exponent_below_1's gap), scaled by ``factor`` to the form 2."""
    gap = ["add", ["num", "1"], ["mul", ["num", "-1"], P, ["pow", TWO_PLUS_P, ["num", "-1"]]]]
    decision = {"method": "scale", "by": factor, "form": ["num", "2"], "then": {"method": "enclosure"}}
    return box_certificate(
        gap, [domain_variable("p", "0", "2")], [{"box": {"p": ["0", "2"]}, "decision": decision}], True
    )


@pytest.mark.coq
@pytest.mark.slow
def test_a_scale_step_is_accepted(tmp_path):
    certificate = _scale(TWO_PLUS_P)
    assert check_certificate(certificate).accepted
    exported, verdict = exported_and_checked(certificate, tmp_path)
    assert exported.hypotheses == []
    assert "apply (sb_scale_strict (gap v_p) (2 + v_p) 2)" in exported.text
    assert verdict.status == "accepted", verdict.reason
    assert all(axiom.startswith(TRUSTED_AXIOMS) for axiom in verdict.axioms)


@pytest.mark.coq
@pytest.mark.slow
def test_a_wrong_scale_factor_is_refused(tmp_path):
    """gap * 2 (2 + p) is 4, not the form 2: the kernel rejects the certificate, and coqc the identity."""
    certificate = _scale(["mul", ["num", "2"], TWO_PLUS_P])
    assert not check_certificate(certificate).accepted
    _, verdict = exported_and_checked(certificate, tmp_path)
    assert verdict.status == "rejected"


X = ["var", "x"]
UNIT = [domain_variable("x", "0", "1")]


def _one_box(gap: list, decision: dict, domain: list = UNIT, strict: bool = False) -> dict:
    whole = {variable["name"]: [variable["lower"], variable["upper"]] for variable in domain}
    return box_certificate(gap, domain, [{"box": whole, "decision": decision}], strict)


UNSIGNED = _one_box(
    ["add", ["num", "2"], ["mul", ["num", "-1"], ["abs", ["add", X, ["num", "-1"]]]]],
    {"method": "unsigned", "then": {"method": "enclosure"}},
    [domain_variable("x", "1", "2")],
    strict=True,
)
"""2 - |x - 1| > 0 on [1, 2]: x - 1 >= 0 there, so |x - 1| is x - 1 and the form 3 - x is enclosed."""


def test_an_unsigned_step_is_accepted():
    assert check_certificate(UNSIGNED).accepted


@pytest.mark.coq
@pytest.mark.slow
def test_an_unsigned_step_is_proved_in_coq(tmp_path):
    exported, verdict = exported_and_checked(UNSIGNED, tmp_path)
    assert exported.hypotheses == []
    assert "try rewrite (Rabs_pos_eq _ A1)" in exported.text
    assert verdict.status == "accepted", verdict.reason


@pytest.mark.coq
@pytest.mark.slow
def test_a_flipped_sign_of_an_abs_argument_is_refused(tmp_path, monkeypatch):
    """The exporter planted to read the sign of x - 1 as <= 0: the lemma 0 <= -(x - 1) on [1, 2] is false."""
    real = steps._recording

    def flipped(box, domain, found):
        sign = real(box, domain, found)

        def opposite(argument):
            value = sign(argument)
            found[-1] = (found[-1][0], -value)
            return -value

        return opposite

    monkeypatch.setattr(steps, "_recording", flipped)
    _, verdict = exported_and_checked(UNSIGNED, tmp_path)
    assert verdict.status == "rejected"


SQUARE = ["pow", X, ["num", "2"]]


def _sum(parts: list) -> dict:
    """x^2 + x >= 0 on [0, 1] as the sum of the decided parts ``parts``."""
    decision = {"method": "sum", "parts": [{"form": part, "then": {"method": "enclosure"}} for part in parts]}
    return _one_box(["add", SQUARE, X], decision)


@pytest.mark.coq
@pytest.mark.slow
def test_a_sum_step_is_proved_in_coq(tmp_path):
    certificate = _sum([SQUARE, X])
    assert check_certificate(certificate).accepted
    exported, verdict = exported_and_checked(certificate, tmp_path)
    assert exported.hypotheses == []
    assert verdict.status == "accepted", verdict.reason


@pytest.mark.coq
@pytest.mark.slow
def test_a_sum_with_a_part_dropped_is_refused(tmp_path):
    certificate = _sum([SQUARE])
    assert not check_certificate(certificate).accepted
    _, verdict = exported_and_checked(certificate, tmp_path)
    assert verdict.status == "rejected"


LOG = _one_box(
    ["add", ["mul", ["num", "2"], ["exp", X]], ["num", "-1"]],
    {
        "method": "log",
        "left": ["mul", ["num", "2"], ["exp", X]],
        "right": ["num", "1"],
        "then": {"method": "enclosure"},
    },
    strict=True,
)
"""2 e^x - 1 > 0 on [0, 1] as log(2 e^x) - log 1 = log 2 + x - 0 > 0 (the kernel expands both logs)."""


@pytest.mark.coq
@pytest.mark.slow
def test_a_log_step_is_proved_in_coq(tmp_path):
    assert check_certificate(LOG).accepted
    exported, verdict = exported_and_checked(LOG, tmp_path)
    assert exported.hypotheses == []
    assert "apply (sb_log_strict " in exported.text
    assert verdict.status == "accepted", verdict.reason


@pytest.mark.coq
@pytest.mark.slow
def test_a_wrong_expansion_of_a_log_is_refused(tmp_path, monkeypatch):
    """The expansion planted as log 3 + x for log(2 e^x): Coq's ln_mult and ln_exp do not give it."""
    real = steps.logs.expanded

    def planted(tree, positive):
        result = real(tree, positive)
        return ["add", ["log", ["num", "3"]], X] if result == ["add", ["log", ["num", "2"]], X] else result

    monkeypatch.setattr(steps.logs, "expanded", planted)
    _, verdict = exported_and_checked(LOG, tmp_path)
    assert verdict.status == "rejected"
