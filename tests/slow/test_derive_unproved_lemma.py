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
    (entry,) = [e for e in inequalities_of("interpolation_covering") if e.name == "c_p_in_1_2"]
    assert decide(entry).status != "proved"  # the premise: c_p touches 1 at p -> 0, where no step reaches
    path = tmp_path / "uses_unproved.toml"
    path.write_text(
        '[variables]\nx = "real"\n'
        '[[steps]]\nexpr = "x^2"\n[[steps]]\nrelation = "<="\nexpr = "x^2 + 1"\n'
        'uses = ["lemma:c_p_in_1_2"]\n',
        encoding="utf-8",
    )
    result = derive(path, 5)
    (step,) = result.steps
    assert step.status == "undecided" and "lemma c_p_in_1_2" in step.reason
    assert result.status == "undecided" and result.certificate() is None
