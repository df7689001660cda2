"""theorem_3_1.v (``theory --coq DIR``): coqc accepts it with only the axioms of Coq's reals, every lemma
quantified over the cited premises it uses; planted changes (a constant tightened, the proper-cover factor
2 dropped, the premise q_i <= 1 weakened, a cited premise removed, the split's Candes-Plan 9 tightened,
the margin union's weights' partial sums understated, the ramp's monotonicity in the margin reversed) make
coqc reject it. About 3 s of coqc CPU per compile."""

from __future__ import annotations

import json
import re

import pytest

from paper_checks.cli import main
from tests.helpers.coq_marks import NEEDS_COQC
from theory.paper_proofs.theorem_3_1 import PREMISES, theorem_text
from theory.prover.coq.coqc import TRUSTED_AXIOMS, check_file

pytestmark = [
    pytest.mark.slow,
    pytest.mark.coq,
    NEEDS_COQC,
]


def test_theory_coq_writes_theorem_3_1_and_coqc_accepts_it(tmp_path, capsys):
    assert main(["theory", "--no-prove", "--coq", str(tmp_path), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)["theorem_3_1"]
    assert record["coq"] == "accepted" and "theorem_3_1" in record["file"]
    assert record["axioms"] and all(axiom.startswith(TRUSTED_AXIOMS) for axiom in record["axioms"])
    assert [premise["name"] for premise in record["premises"]] == list(PREMISES)
    text = (tmp_path / "theorem_3_1.v").read_text(encoding="utf-8")
    assert not re.search(r"\b(Admitted|admit|Axiom|Parameter)\b", text)
    assert "Print Assumptions blueprint_nodes." in text


MARGIN_BOUND = "Hypothesis margin_bound : Risk <= EmpRamp + 2 * Rad + 3 * sqrt (ln (2 / delta) / (2 * n)).\n"
PLANTED = [
    ("48 * sqrt (rsum B K)", "47 * sqrt (rsum B K)"),  # a constant of GAP_TERM tightened
    ("d a x <= 2 * r)", "d a x <= r)"),  # the proper-cover factor 2 dropped
    ("(forall i, 0 <= q i <= 1)", "(forall i, 0 <= q i <= 2)"),  # a premise weakened: p up to 4
    (MARGIN_BOUND, ""),  # a cited premise removed
    ("ln (9 * R0 / e1)", "ln (8 * R0 / e1)"),  # the head/tail split claims a smaller constant than cited
    ("2 / 3 * (1 - / (INR K + 2))", "2 / 3 * (1 - / (INR K + 3))"),  # the margin union's weights too light
    ("ramp g t <= ramp g' t", "ramp g' t <= ramp g t"),  # the ramp's monotonicity in the margin reversed
]


@pytest.mark.parametrize(("old", "new"), PLANTED)
def test_planted_change_is_rejected_by_coqc(tmp_path, old, new):
    text = theorem_text()
    assert old in text
    path = tmp_path / "planted.v"
    path.write_text(text.replace(old, new), encoding="utf-8")
    assert check_file(path).status == "rejected"
