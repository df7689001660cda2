"""The registry and ``specbound theory``: every step 1-11, provenance and source, checks all pass."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from paper_checks.cli import main
from theory.provenance import Provenance
from theory.registry import all_lemmas, lemma_by_name, run_all_checks


def test_every_step_is_covered_in_order():
    steps = [lemma.step for lemma in all_lemmas()]
    assert set(range(1, 12)) <= set(steps)
    assert steps == sorted(steps)
    assert len({lemma.name for lemma in all_lemmas()}) == len(steps)


def test_every_lemma_has_provenance_source_and_statement():
    for lemma in all_lemmas():
        assert isinstance(lemma.tag.provenance, Provenance)
        assert lemma.tag.source.strip()
        assert lemma.statement and lemma.assumptions


def test_all_self_checks_pass():
    report = run_all_checks()
    assert report.total >= 40
    assert [(name, r.name, r.witness) for name, r in report.failed] == []


def test_lemma_by_name():
    assert lemma_by_name("interpolation_covering").step == 4
    with pytest.raises(KeyError, match="no lemma"):
        lemma_by_name("nonexistent")


def test_cli_json(capsys):
    """Every lemma with its checks, derivation and the helper controls. The prover's verdicts on all the
    registry's inequalities (13 CPU s) are the slow tier's (test_prover_lemmas.py,
    test_specbound_theory_reports_the_prover_verdicts); the next test follows one through the command."""
    assert main(["theory", "--json", "--no-prove"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert len(document["lemmas"]) == len(all_lemmas())
    first = document["lemmas"][0]
    assert set(first) >= {"name", "step", "statement", "assumptions", "provenance", "source", "checks"}
    assert all(
        {"name", "passed", "witness"} <= set(c) for lemma in document["lemmas"] for c in lemma["checks"]
    )
    assert document["summary"]["failed"] == 0
    derived = [lemma for lemma in document["lemmas"] if lemma["provenance"] == "derived"]
    assert derived and all(lemma["derivation"]["operation"] for lemma in derived)
    assert document["helper_controls"] and all(c["passed"] for c in document["helper_controls"])


def test_cli_json_carries_the_prover_s_verdict_on_an_inequality(monkeypatch, capsys):
    """The command decides each lemma's inequalities and reports the kernel-checked verdict: here one of
    test_prover_lemmas.py's key inequalities, left alone in the registry."""
    pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")
    from theory.paper_proofs import inequalities

    (entry,) = [e for e in inequalities.all_lemma_inequalities() if e.name == "p_triangle_scalar_core"]
    monkeypatch.setattr(inequalities, "inequalities_of", lambda name: (entry,) if name == entry.lemma else ())
    assert main(["theory", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    (lemma,) = [lemma for lemma in document["lemmas"] if lemma["name"] == entry.lemma]
    (record,) = lemma["inequalities"]
    assert (record["name"], record["status"], record["certificates_checked"]) == (entry.name, "proved", True)
    assert {k: document["summary"][k] for k in ("inequalities", "proved", "refuted")} == {
        "inequalities": 1,
        "proved": 1,
        "refuted": 0,
    }


def test_cli_text_with_regimes(capsys):
    assert main(["theory", "--regimes", "--no-prove"]) == 0
    out = capsys.readouterr().out
    assert "[step 11]" in out and "0 failing" in out
    assert "| rank | 0 | ours_l2 | geometric_alpha | L^(1) |" in out
    assert "[helper control] [pass]" in out and "derived by:" in out


def test_import_theory_builds_no_lemma():
    code = "import sys, theory; print(sorted(m for m in sys.modules if m.startswith('theory.')))"
    modules = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "theory.interpolation" not in modules and "theory.regimes" not in modules
