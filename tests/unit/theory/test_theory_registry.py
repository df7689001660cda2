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
    assert main(["theory", "--json"]) == 0
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


def test_cli_text_with_regimes(capsys):
    assert main(["theory", "--regimes"]) == 0
    out = capsys.readouterr().out
    assert "[step 11]" in out and "0 failing" in out
    assert "| rank | 0 | ours_l2 | geometric_alpha | L^(1) |" in out
    assert "[helper control] [pass]" in out and "derived by:" in out


def test_import_theory_builds_no_lemma():
    code = "import sys, theory; print(sorted(m for m in sys.modules if m.startswith('theory.')))"
    modules = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "theory.interpolation" not in modules and "theory.regimes" not in modules
