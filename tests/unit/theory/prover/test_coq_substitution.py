"""The kernel's change of variables, its tail at infinity and a monotone step on a gap with Min exported to
Coq: known-true certificates (the kernel accepts each: the independent reference) are accepted by coqc with
no hypothesis, and a planted mistake the kernel rejects leaves the lemma it concerns unproved in Coq (a
named hypothesis, found by the probe). Small coqc runs (about 2-10 CPU s each)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("flint", reason="the exporter reads certificates with the kernel (python-flint)")

from tests.helpers.certificates import box_certificate, domain_variable
from tests.helpers.coq_marks import NEEDS_COQC
from theory.prover.coq.coqc import TRUSTED_AXIOMS
from theory.prover.coq.files import export_to
from theory.prover.coq.substitution import IDENTITY_UNPROVED
from theory.prover.kernel import check_certificate

pytestmark = [
    pytest.mark.coq,
    pytest.mark.slow,
    NEEDS_COQC,
]

X, Y, Z, T = (["var", name] for name in ("x", "y", "z", "t"))
HALF_LINE = [domain_variable("z", "0", "oo", upper_open=True)]
CEILING_PART = ["add", ["ceiling", Z], ["mul", ["num", "-1"], Z]]
ONE_MINUS_T = ["add", ["num", "1"], ["mul", ["num", "-1"], T]]


def _exported(certificate: dict, tmp_path: Path) -> tuple[dict, str]:
    record: dict = export_to(certificate, tmp_path / "Certificate.v", True, "test")
    text = (tmp_path / "Certificate.v").read_text(encoding="utf-8")
    assert not re.search(r"\b(Admitted|Axiom|admit)\b", text)
    return record, text


def _accepted(record: dict) -> None:
    assert record["coq"] == "accepted", record
    assert record["hypotheses"] == []
    assert all(axiom.startswith(TRUSTED_AXIOMS) for axiom in record["axioms"])


def _rounding(gap: list, t_upper: str = "1") -> dict:
    """ceiling(z) <= z + 1 on [0, oo) (the chain's rounding pieces): with t = ceiling(z) - z in [0, 1) the
    gap is 1 - t, enclosed on z in [0, oo), t in [0, t_upper)."""
    inner = [
        domain_variable("z", "0", "oo", upper_open=True),
        domain_variable("t", "0", t_upper, upper_open=True),
    ]
    decision = {
        "method": "substitute",
        "multiplier": ["num", "1"],
        "form": ONE_MINUS_T,
        "map": {"z": Z, "t": CEILING_PART},
        "domain": inner,
        "boxes": [{"box": {"z": ["0", "oo"], "t": ["0", t_upper]}, "decision": {"method": "enclosure"}}],
    }
    return box_certificate(gap, HALF_LINE, [{"box": {"z": ["0", "oo"]}, "decision": decision}])


ROUNDING_GAP = ["add", Z, ["num", "1"], ["mul", ["num", "-1"], ["ceiling", Z]]]


def test_a_change_of_variables_is_accepted_with_its_form_in_a_module_of_its_own(tmp_path):
    certificate = _rounding(ROUNDING_GAP)
    assert check_certificate(certificate).accepted
    record, text = _exported(certificate, tmp_path)
    _accepted(record)
    assert "Module box_1_substitution." in text and "Definition gap (v_z v_t : R)" in text
    assert "pose proof (Raux.Zceil_ub v_z); pose proof (Raux.Zceil_lb v_z)" in text  # t in [0, 1)
    assert "Lemma box_1_identity : forall v_z : R, 0 <= v_z -> gap v_z = " in text


@pytest.mark.parametrize(
    ("certificate", "lemma"),
    [
        (_rounding(["add", Z, ["num", "2"], ["mul", ["num", "-1"], ["ceiling", Z]]]), "box_1_identity"),
        pytest.param(_rounding(ROUNDING_GAP, t_upper="1/2"), "box_1_range_t", marks=pytest.mark.slow),
    ],
    ids=["gap_is_not_the_form", "range_leaves_the_form_domain"],
)
def test_a_planted_substitution_fault_leaves_its_lemma_unproved(certificate, lemma, tmp_path):
    """z + 2 - ceiling(z) is not 1 - (ceiling(z) - z); ceiling(z) - z does not stay below 1/2."""
    assert not check_certificate(certificate).accepted
    record, text = _exported(certificate, tmp_path)
    assert record["coq"] == "hypotheses", record
    assert [h["name"] for h in record["hypotheses"]] == [lemma]
    if lemma == "box_1_identity":
        assert record["hypotheses"][0]["reason"] == IDENTITY_UNPROVED
    assert f"Hypothesis {lemma} :" in text


def test_a_change_of_variables_through_a_logarithm_of_a_quotient_is_accepted(tmp_path):
    """ln(b/a) >= 1 - a/b on (0, oo)^2 with u = a/b: ln b - ln a - 1 + a/b = u - 1 - ln u, the identity
    after ln (a / b) = ln a - ln b; u - 1 - ln u >= 0 decided on (0, 1] and [1, oo) by its slope."""
    a, b, u = ["var", "a"], ["var", "b"], ["var", "u"]
    positive = [domain_variable(n, "0", "oo", lower_open=True, upper_open=True) for n in ("a", "b")]
    form = ["add", ["num", "-1"], u, ["mul", ["num", "-1"], ["log", u]]]
    halves = [("0", "1", "decreasing"), ("1", "oo", "increasing")]
    decision = {
        "method": "substitute",
        "multiplier": ["num", "1"],
        "form": form,
        "map": {"u": ["mul", a, ["pow", b, ["num", "-1"]]]},
        "domain": [domain_variable("u", "0", "oo", lower_open=True, upper_open=True)],
        "boxes": [
            {
                "box": {"u": [lo, hi]},
                "decision": {
                    "method": "monotone",
                    "variable": "u",
                    "direction": d,
                    "then": {"method": "enclosure"},
                },
            }
            for lo, hi, d in halves
        ],
    }
    gap = [
        "add",
        ["log", b],
        ["mul", ["num", "-1"], ["log", a]],
        ["num", "-1"],
        ["mul", a, ["pow", b, ["num", "-1"]]],
    ]
    certificate = box_certificate(
        gap, positive, [{"box": {"a": ["0", "oo"], "b": ["0", "oo"]}, "decision": decision}]
    )
    assert check_certificate(certificate).accepted
    record, text = _exported(certificate, tmp_path)
    _accepted(record)
    assert "rewrite ln_mult by" in text


def _tail(gap: list) -> dict:
    """gap on [0, oo), decreasing in x, its face at infinity the tail [4, oo) decided by enclosure."""
    decision = {
        "method": "monotone",
        "variable": "x",
        "direction": "decreasing",
        "tail": "4",
        "then": {"method": "enclosure"},
    }
    return box_certificate(
        gap,
        [domain_variable("x", "0", "oo", upper_open=True)],
        [{"box": {"x": ["0", "oo"]}, "decision": decision}],
    )


RECIPROCAL = ["pow", ["add", ["num", "1"], X], ["num", "-1"]]


def test_a_monotone_step_with_its_face_at_infinity_takes_the_tail_and_the_segment_to_it(tmp_path):
    """1 / (1 + x) >= 0 on [0, oo): decreasing, so below 4 it is above its value at 4, and the tail [4, oo)
    is enclosed in (0, 1/5]."""
    certificate = _tail(RECIPROCAL)
    assert check_certificate(certificate).accepted
    record, text = _exported(certificate, tmp_path)
    _accepted(record)
    assert "Lemma box_1_tail : forall v_x : R, 4 <= v_x -> 0 <= gap v_x." in text
    assert "refine (sb_tail_decreasing (fun v_x => gap v_x) " in text


def test_a_tail_that_does_not_hold_is_left_unproved(tmp_path):
    """1 / (1 + x) - 1/10 is negative beyond x = 9: the kernel rejects the tail, coqc its lemma."""
    certificate = _tail(["add", RECIPROCAL, ["num", "-1/10"]])
    assert not check_certificate(certificate).accepted
    record, _ = _exported(certificate, tmp_path)
    assert [h["name"] for h in record["hypotheses"]] == ["box_1_tail"]


def _below_min(gap: list) -> dict:
    positive = [domain_variable(n, "0", "oo", lower_open=True, upper_open=True) for n in ("x", "y")]
    decision = {
        "method": "monotone",
        "variable": "x",
        "direction": "increasing",
        "then": {"method": "enclosure"},
    }
    return box_certificate(
        gap, positive, [{"box": {"x": ["0", "oo"], "y": ["0", "oo"]}, "decision": decision}]
    )


MIN = ["min", X, Y]


def test_a_monotone_step_on_a_gap_with_min_is_proved_by_cases(tmp_path):
    """Min(x, y) <= x: the kernel's slope of Min is Clarke's hull, which Coquelicot does not differentiate;
    Coq splits |x - y| by its sign."""
    certificate = _below_min(["add", X, ["mul", ["num", "-1"], MIN]])
    assert check_certificate(certificate).accepted
    record, text = _exported(certificate, tmp_path)
    _accepted(record)
    assert "try unfold gap; sb_unabs; first [ lra | nra ]" in text


def test_a_planted_min_fault_is_left_unproved(tmp_path):
    """Min(x, y) <= x - 1/100 fails at y >= x: the kernel rejects the face, coqc the cases."""
    certificate = _below_min(["add", X, ["num", "-1/100"], ["mul", ["num", "-1"], MIN]])
    assert not check_certificate(certificate).accepted
    record, _ = _exported(certificate, tmp_path)
    assert [h["name"] for h in record["hypotheses"]] == ["box_1"]
