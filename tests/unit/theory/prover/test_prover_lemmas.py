"""The lemma chain's inequalities in prover form: stated from the lemmas' own expressions, and decided."""

from __future__ import annotations

import json

import pytest
import sympy as sp

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from theory.paper_proofs import inequalities as registry
from theory.prover import lemma_inequalities as lemmas
from theory.registry import lemma_by_name


def test_the_prover_registry_gives_each_lemma_its_inequalities():
    names = [entry.name for entry in registry.inequalities_of("gelu_lipschitz")]
    assert names == ["gelu_derivative_within_l_phi", "gelu_below_identity"]
    assert registry.inequalities_of("attention_lipschitz") == ()
    entries = registry.all_lemma_inequalities()
    every_lemma = {lemma_by_name(entry.lemma).name for entry in entries}
    assert len(every_lemma) >= 10  # every entry names a lemma of the chain (lemma_by_name raises otherwise)


def test_c_p_is_the_derived_expression_not_a_retyped_one():
    from theory.interpolation import derive_balance

    (entry,) = [e for e in registry.all_lemma_inequalities() if e.name == "c_p_in_1_2"]
    lower = entry.statement.inequalities[0].gap  # c_p - 1
    p = entry.statement.domain.symbols()["p"]
    derived = derive_balance().c_p.xreplace({s: p for s in derive_balance().c_p.free_symbols})
    assert sp.simplify(lower - (derived - 1)) == 0


KEY_INEQUALITIES = [
    "p_triangle_scalar_core",
    "sharp_tail_termwise",
    "jacobian_l1_norm",
]
KERNEL_PROVED = {
    *KEY_INEQUALITIES,
    "frobenius_radius",
    "vector_norm_reduction",
    "tail_prefactor_below_144",
    "exponent_monotonicity",
    "entropy_exponent_below_2",
    "c_p_increasing",
    "ceiling_tail_decreasing",
    "jacobian_l1_norm_every_length",
    "ramp_between_indicators",
    "integrand_exponent_below_1",
    "rounding_derivative_brackets",
    "log_factor_dominates",
    "lambda_positive",
    "token_growth_coefficient_positive",
    "tail_bound",
    "monotone_in_p_scalar_core",
    "head_dimension",
    "l2_aggregation_below_l1",
    "k_star_is_a_minimum",
    "balanced_term_positive",
    "gelu_derivative_within_l_phi",
    "optimal_split_below_equal_split",
    "grid_rounding_factor",
    "norm_21_below_sqrt_d2_frobenius",
    "gelu_below_identity",
    "c_p_in_1_2",
    "theorem_4_1_statement",
}
"""The registered inequalities the kernel re-checks a proof of at 5 s (all 30; Theorem 4.1's chain
included: its budget bounds the pieces' search, its structural check timed apart)."""


@pytest.mark.parametrize(
    "name",
    [
        # jacobian_l1_norm: 14 s wall at load 10
        pytest.param(name, marks=pytest.mark.slow) if name == "jacobian_l1_norm" else name
        for name in KEY_INEQUALITIES
    ],
)
def test_key_lemma_inequalities_are_proved_with_checked_certificates(name):
    (entry,) = [e for e in registry.all_lemma_inequalities() if e.name == name]
    verdict = lemmas.decide(entry)
    assert verdict.result.status == "proved"
    assert verdict.certificates_checked
    record = verdict.to_json()
    assert record["status"] == "proved" and record["boxes"] >= 1 and "derived" in record["provenance"]


def test_a_planted_false_lemma_inequality_is_refuted_and_reported_with_its_witness():
    from theory.lipschitz import GELU, x

    false_entry = lemmas.inequality(
        "gelu_lipschitz", "planted", [(sp.diff(GELU, x), "<=", sp.Rational(112, 100))], "x: real", "planted"
    )
    verdict = lemmas.decide(false_entry)
    assert verdict.result.status == "refuted"
    assert "witness" in verdict.line() and "witness" in verdict.to_json()


def test_a_rejected_certificate_is_never_reported_as_a_plain_proof():
    (entry,) = [e for e in registry.all_lemma_inequalities() if e.name == "p_triangle_scalar_core"]
    honest = lemmas.decide(entry)
    lying = lemmas.LemmaVerdict(
        entry, honest.result, certificates_checked=False, steps_hold=honest.steps_hold
    )
    assert "REJECTED" in lying.line() and not lying.line().startswith("[proved")
    assert lying.status == "undecided" and lying.to_json()["status"] == "undecided"
    assert lying.to_json()["certificates_checked"] is False


@pytest.mark.slow
def test_no_lemma_inequality_is_refuted_and_the_kernel_proves_the_measured_ones():
    verdicts = [lemmas.decide(entry) for entry in registry.all_lemma_inequalities()]
    assert [v.entry.name for v in verdicts if v.status == "refuted"] == []
    assert {v.entry.name for v in verdicts if v.status == "proved"} >= KERNEL_PROVED
    assert all(v.certificates_checked for v in verdicts)


@pytest.mark.slow
def test_specbound_theory_reports_the_prover_verdicts(capsys):
    from paper_checks.cli import main

    assert main(["theory", "--json", "--prove-budget", str(lemmas.LEMMA_BUDGET_SECONDS)]) == 0
    document = json.loads(capsys.readouterr().out)
    summary = document["summary"]
    assert summary["inequalities"] == len(registry.all_lemma_inequalities())
    assert summary["proved"] >= len(KERNEL_PROVED) and summary["refuted"] == 0
    softmax = next(lemma for lemma in document["lemmas"] if lemma["name"] == "softmax_lipschitz")
    assert [i["status"] for i in softmax["inequalities"]] == ["proved", "proved"]
    assert "kernel" in softmax["inequalities"][0]["provenance"]
