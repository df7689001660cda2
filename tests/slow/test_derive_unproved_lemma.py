"""A derivation that names a lemma the kernel does not prove within its budget: the step is decided under
the lemma but reported undecided, depending on the unproved lemma (never proved)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("flint", reason="the prover needs python-flint")

from theory.derive import derive
from theory.prover.lemma_inequalities import decide, inequalities_of

pytestmark = pytest.mark.slow


def test_a_step_under_an_unproved_lemma_is_undecided_and_says_so(tmp_path: Path):
    (entry,) = [e for e in inequalities_of("interpolation_covering") if e.name == "balanced_term_positive"]
    assert decide(entry).status != "proved"  # the premise of this test (17.9 s of CPU over its domain)
    path = tmp_path / "uses_unproved.toml"
    path.write_text(
        '[variables]\np = "(0, 2]"\nepsilon = "(0, oo)"\nN = "[1, oo)"\nS = "(0, oo)"\ns = "(0, oo)"\n'
        '[[steps]]\nexpr = "N"\n[[steps]]\nrelation = "<="\nexpr = "N + 1"\n'
        'uses = ["lemma:balanced_term_positive"]\n',
        encoding="utf-8",
    )
    result = derive(path, 5)
    (step,) = result.steps
    assert step.status == "undecided" and "lemma balanced_term_positive" in step.reason
    assert result.status == "undecided" and result.certificate() is None
