"""Coq export of a chain certificate and of powers whose base reaches 0, checked by coqc.

A small chain (ceiling(x) * (x - log(1 + x)) >= 0 on (0, 1] from the piece y - log(1 + y) >= 0 on [0, 1])
is accepted; planted faults (a wrong identity, a negative factor, a substitution leaving the piece's
domain), which the kernel's chain check rejects (the independent reference), leave the named lemma
unproved in Coq. x^p at x = 0 is 0 in Coq's translation, where Coq's Rpower 0 p is 1."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from tests.helpers.coq_marks import NEEDS_COQC
from theory.prover import prove
from theory.prover.coq.chain import IDENTITY_UNPROVED, export_chain
from theory.prover.coq.coqc import TRUSTED_AXIOMS, check_file
from theory.prover.coq.files import export_to
from theory.prover.coq.preamble import preamble
from theory.prover.coq.terms import rational, term
from theory.prover.kernel import chain as kernel_chain
from theory.prover.kernel import trees
from theory.prover.kernel.substitution import substitute
from theory.prover.kernel.verify import environment, precision, read_domain

pytestmark = NEEDS_COQC
X = ["var", "x"]
DOMAIN = [
    {"name": "x", "lower": "0", "upper": "1", "lower_open": True, "upper_open": False, "integer": False}
]


def _piece() -> dict:
    result = prove("log(1 + y) <= y", "y: [0, 1]", 30.0)
    assert result.status == "proved", result
    (part,) = result.parts
    certificate: dict = part.certificate.to_json()
    return certificate


def _chain(factor: list, value: list, extra: list | None = None) -> dict:
    """factor * piece(y := value), the gap written as that product (plus ``extra``)."""
    piece = _piece()
    product = ["mul", factor, substitute(piece["gap"], {"y": value})]
    return {
        "format": kernel_chain.FORMAT,
        "inequality": "test chain",
        "gap": product if extra is None else ["add", product, extra],
        "domain": DOMAIN,
        "pieces": [{"name": "log", "factor": factor, "substitution": {"y": value}, "certificate": piece}],
    }


CEILING = ["ceiling", X]
TRUE_CHAIN = (CEILING, X, None)
PLANTED = {
    "identity": (CEILING, X, ["num", "1/100"]),
    "factor_log": (["add", CEILING, ["num", "-2"]], X, None),
    "range_log_y": (CEILING, ["add", X, ["num", "1"]], None),
}


def _exported(chain: dict, tmp_path: Path) -> dict:
    record: dict = export_to(chain, tmp_path / "Chain.v", True, "test chain")
    return record


@pytest.mark.coq
@pytest.mark.slow
def test_a_chain_exports_as_one_file_accepted_by_coqc(tmp_path):
    chain = _chain(*TRUE_CHAIN)
    assert kernel_chain.check(chain).accepted
    record = _exported(chain, tmp_path)
    assert record["coq"] == "accepted", record
    assert record["hypotheses"] == []
    assert all(axiom.startswith(TRUSTED_AXIOMS) for axiom in record["axioms"])
    text = (tmp_path / "Chain.v").read_text(encoding="utf-8")
    assert "Module piece_log." in text and "Lemma identity" in text and "Lemma factor_log" in text
    assert "IZR (Raux.Zceil v_x)" in text  # ceiling(x) >= 1 on (0, 1] through sb_ceil_above
    assert "Admitted" not in text and "Axiom" not in text


@pytest.mark.parametrize(
    "lemma",
    [
        "identity",
        pytest.param("factor_log", marks=pytest.mark.slow),
        pytest.param("range_log_y", marks=pytest.mark.slow),
    ],
)
@pytest.mark.coq
@pytest.mark.slow
def test_a_planted_fault_the_kernel_rejects_leaves_its_lemma_unproved_in_coq(lemma, tmp_path):
    chain = _chain(*PLANTED[lemma])
    assert not kernel_chain.check(chain).accepted
    record = _exported(chain, tmp_path)
    assert record["coq"] == "hypotheses", record
    assert [h["name"] for h in record["hypotheses"]] == [lemma]
    if lemma == "identity":
        assert record["hypotheses"][0]["reason"] == IDENTITY_UNPROVED


def test_the_chain_exporter_states_the_pieces_and_the_theorem_over_the_domain_as_given():
    exported = export_chain(_chain(*TRUE_CHAIN))
    assert exported.boxes == len(_piece()["boxes"])
    assert "Theorem statement : forall v_x : R, 0 < v_x -> v_x <= 1 -> 0 <= gap v_x." in exported.text
    range_ = "Lemma range_log_y : forall v_x : R, 0 < v_x -> v_x <= 1 -> 0 <= v_x /\\ v_x <= 1."
    assert range_ in exported.text


@pytest.mark.coq
@pytest.mark.slow
def test_a_power_whose_base_reaches_0_is_0_there_in_coq_and_arbs_value_above(tmp_path):
    """The translation of x^p (base not shown > 0) evaluates at x = 0 to 0 for p > 0 and at a positive
    point inside arb's ball; Coq's Rpower, the mistranslation it replaces, is 1 at x = 0."""
    power = ["pow", X, ["var", "p"]]
    printed = term(power, lambda node: node == ["var", "p"])  # p > 0 (0^0 is refused: see below)
    domain = read_domain(
        [
            {
                "name": n,
                "lower": "0",
                "upper": "oo",
                "lower_open": n == "p",
                "upper_open": True,
                "integer": False,
            }
            for n in ("x", "p")
        ]
    )
    point = {"x": Fraction(3, 7), "p": Fraction(5, 4)}
    with precision(256):
        value = trees.enclose(power, environment({n: (v, v) for n, v in point.items()}, domain))
    slack = Fraction(1, 10**12)
    low, high = trees.dyadic(value.lo, True) - slack, trees.dyadic(value.hi, False) + slack
    text = (
        preamble()
        + f"\nDefinition f (v_x v_p : R) : R := {printed}.\n"
        + "Lemma at_zero : forall v_p, 0 < v_p -> f 0 v_p = 0.\n"
        + "Proof. intros v_p H. unfold f, sb_rpow. destruct (Rlt_dec 0 0); lra. Qed.\n"
        + f"Lemma above : {rational(low)} <= f (3 / 7) (5 / 4) <= {rational(high)}.\n"
        + "Proof. unfold f. rewrite sb_rpow_pos by lra. interval with (i_prec 100). Qed.\n"
        + "Lemma ln_0 : ln 0 = 0.\n"
        + "Proof. unfold ln. destruct (Rlt_dec 0 0) as [H|H].\n"
        + "  destruct (Rlt_irrefl 0 H). reflexivity. Qed.\n"
        + "Lemma planted : forall v_p, Rpower 0 v_p = 1.\n"
        + "Proof. intros v_p. unfold Rpower. rewrite ln_0, Rmult_0_r. apply exp_0. Qed.\n"
    )
    path = tmp_path / "Power.v"
    path.write_text(text, encoding="utf-8")
    verdict = check_file(path)
    assert verdict.status == "accepted", verdict.reason
    assert "Rpower" not in printed


@pytest.mark.coq
@pytest.mark.slow
def test_theorem_4_1s_chain_is_accepted_with_no_hypothesis(tmp_path):
    """Its pieces (the four changes of variables, the tail, the Min facts) and its identity, whose laws
    of exponents (powers of products under ceilings, 96^E over its primes) and logarithms of sums are
    printed along the log-linear normal form, are all proved by coqc; the kernel's chain check accepts
    the certificate (the independent reference)."""
    from theory import interpolation
    from theory.prover.chain import prove_chain
    from theory.prover.lemma_inequalities import LEMMA_BUDGET_SECONDS

    result = prove_chain(interpolation.theorem_chain(), budget_seconds=LEMMA_BUDGET_SECONDS)
    assert result.status == "proved", result.reason
    certificate = result.certificate()
    assert kernel_chain.check(certificate).accepted
    record = _exported(certificate, tmp_path)
    assert record["coq"] == "accepted", record
    assert record["hypotheses"] == []
    assert all(axiom.startswith(TRUSTED_AXIOMS) for axiom in record["axioms"])
    text = (tmp_path / "Chain.v").read_text(encoding="utf-8")
    assert "by sb_power_atom" in text and "Admitted" not in text and "Axiom" not in text
