"""What coqc's answer becomes, without running coqc (its output planted in :func:`coqc._compiled`): an
untrusted axiom or a hypothesis is never "accepted", Print Assumptions is read by its unindented lines,
the exit status is 4 unless every file is accepted; and the exported statement says what the certificate
claims (strict, open ends) with the rule lemma of the step's direction (each kills a mutant of
benchmarks/mutants.py)."""

from __future__ import annotations

import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from theory.prover.coq import coqc
from theory.prover.coq.export import export_certificate, rule_lemma
from theory.prover.coq.preamble import RULES
from theory.prover.coq.report import NOT_ACCEPTED, exit_status
from theory.prover.kernel import verify

CLOSED = "Closed under the global context\n"
UNTRUSTED = "Axioms:\nsb_bad : forall x : R, 0 <= x\n"
TRUSTED = (
    "Axioms:\nClassicalDedekindReals.sig_forall_dec\n"
    "  : forall P : nat -> Prop, {n | ~ P n} + {forall n, P n}\n"
)


def _checked(stdout: str, hypotheses: tuple[str, ...] = ()) -> coqc.CoqCheck:
    """The verdict on a file coqc compiled with ``stdout`` (its Print Assumptions) as its output."""
    return coqc._compiled(stdout, hypotheses, 0.1)


def test_coqcs_answer_is_accepted_only_without_untrusted_axioms_or_hypotheses():
    assert _checked(CLOSED).status == "accepted"
    assert _checked(TRUSTED).status == "accepted"
    assert _checked(UNTRUSTED).status == "rejected"
    assert _checked(CLOSED, ("box_1",)).status == "hypotheses"


def test_print_assumptions_is_read_by_its_unindented_lines():
    assert coqc.axioms_of(TRUSTED) == ("ClassicalDedekindReals.sig_forall_dec",)
    assert coqc.axioms_of(CLOSED) == ()


@pytest.mark.parametrize("status", ["rejected", "hypotheses", "untranslated"])
def test_a_proof_coqc_did_not_accept_is_exit_4(status):
    assert exit_status(0, [{"coq": "accepted"}, {"coq": status}]) == NOT_ACCEPTED
    assert exit_status(0, [{"coq": "accepted"}]) == 0


def test_the_rule_lemma_names_the_direction_and_strictness_and_exists():
    assert rule_lemma("tail", True, True) == "sb_tail_increasing_lt"
    assert rule_lemma("step", False, False) == "sb_step_decreasing"
    assert "sb_tail_increasing_lt" in RULES and "sb_step_decreasing" in RULES


def test_the_theorem_states_the_strict_claim_over_the_open_domain():
    record = {
        "name": "x",
        "lower": "0",
        "upper": "1",
        "lower_open": True,
        "upper_open": False,
        "integer": False,
    }
    certificate = {
        "format": verify.FORMAT,
        "inequality": "x > 0",
        "gap": ["var", "x"],
        "strict": True,
        "domain": [record],
        "boxes": [{"box": {"x": ["0", "1"]}, "decision": {"method": "enclosure"}}],
    }
    text = export_certificate(certificate).text
    theorem = next(line for line in text.splitlines() if line.startswith("Theorem statement"))
    assert "0 < v_x" in theorem and theorem.rstrip(".").endswith("0 < gap v_x")
