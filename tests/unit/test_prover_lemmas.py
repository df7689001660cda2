"""The lemma chain's inequalities in prover form: stated from the lemmas' own expressions, and decided."""

from __future__ import annotations

import json

import pytest
import sympy as sp

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from theory.prover import lemma_inequalities as registry
from theory.registry import lemma_by_name


def test_lemmas_expose_their_inequalities_through_the_lemma_object():
    gelu = lemma_by_name("gelu_lipschitz")
    names = [entry.name for entry in gelu.prover_inequalities()]
    assert names == ["gelu_derivative_within_l_phi", "gelu_below_identity"]
    assert lemma_by_name("attention_lipschitz").prover_inequalities() == ()
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


KEY_INEQUALITIES = ["tail_bound", "c_p_in_1_2", "gelu_derivative_within_l_phi", "head_dimension"]


@pytest.mark.parametrize("name", KEY_INEQUALITIES)
def test_key_lemma_inequalities_are_proved_with_checked_certificates(name):
    (entry,) = [e for e in registry.all_lemma_inequalities() if e.name == name]
    verdict = registry.decide(entry)
    assert verdict.result.status == "proved"
    assert verdict.certificates_checked
    record = verdict.to_json()
    assert record["status"] == "proved" and record["boxes"] >= 1 and "derived" in record["provenance"]


def test_a_planted_false_lemma_inequality_is_refuted_and_reported_with_its_witness():
    from theory.lipschitz import GELU, x

    false_entry = registry._inequality(
        "gelu_lipschitz", "planted", [(sp.diff(GELU, x), "<=", sp.Rational(112, 100))], "x: real", "planted"
    )
    verdict = registry.decide(false_entry)
    assert verdict.result.status == "refuted"
    assert "witness" in verdict.line() and "witness" in verdict.to_json()


def test_a_rejected_certificate_is_never_reported_as_a_plain_proof():
    (entry,) = [e for e in registry.all_lemma_inequalities() if e.name == "head_dimension"]
    honest = registry.decide(entry)
    lying = registry.LemmaVerdict(entry, honest.result, certificates_checked=False)
    assert "REJECTED" in lying.line() and not lying.line().startswith("[proved")
    assert lying.status == "undecided" and lying.to_json()["status"] == "undecided"
    assert lying.to_json()["certificates_checked"] is False


@pytest.mark.slow
def test_every_lemma_inequality_is_proved():
    verdicts = [registry.decide(entry) for entry in registry.all_lemma_inequalities()]
    assert [v.entry.name for v in verdicts if v.status != "proved"] == []
    assert all(v.certificates_checked for v in verdicts)


@pytest.mark.slow
def test_specbound_theory_reports_the_prover_verdicts(capsys):
    from paper_checks.cli import main

    assert main(["theory", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    summary = document["summary"]
    assert summary["inequalities"] == len(registry.all_lemma_inequalities())
    assert summary["proved"] == summary["inequalities"]
    gelu = next(lemma for lemma in document["lemmas"] if lemma["name"] == "gelu_lipschitz")
    assert [i["status"] for i in gelu["inequalities"]] == ["proved", "proved"]
