"""A derivation that names a lemma the kernel does not prove within its budget: the step is decided under
the lemma but reported undecided, depending on the unproved lemma (never proved)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("flint", reason="the prover needs python-flint")

from theory.derive import derive
from theory.paper_proofs import facts
from theory.prover import lemma_inequalities
from theory.prover.result import UNDECIDED, InequalityResult, ProofResult

pytestmark = pytest.mark.slow


def test_a_step_under_an_unproved_lemma_is_undecided_and_says_so(tmp_path: Path, monkeypatch):
    def undecided(entry: lemma_inequalities.LemmaInequality, budget_seconds: float = 5.0):
        # the lemma as if its budget ran out (the registry's entries are proved at 5 s today)
        statement = entry.statement
        part = InequalityResult(statement.text, UNDECIDED, 0, 0.0, reason="budget exhausted")
        result = ProofResult(statement.text, statement.domain.to_text(), (part,))
        return lemma_inequalities.LemmaVerdict(entry, result, True)

    monkeypatch.setattr(lemma_inequalities, "decide", undecided)
    path = tmp_path / "uses_unproved.toml"
    path.write_text(
        '[variables]\nx = "real"\n'
        '[[steps]]\nexpr = "x^2"\n[[steps]]\nrelation = "<="\nexpr = "x^2 + 1"\n'
        'uses = ["lemma:gelu_below_identity"]\n',
        encoding="utf-8",
    )
    result = derive(path, 5, facts())
    (step,) = result.steps
    assert step.status == "undecided" and "lemma gelu_below_identity" in step.reason
    assert result.status == "undecided" and result.certificate() is None
