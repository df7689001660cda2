"""`prove --coq` on Piecewise statements whose conditions change at a non-dyadic rational (issue 48).

The kernel proves `Piecewise((1/(x - 1/3), 1/3 < x), (Abs(x - 1/3), True)) > -10^-6` by taking the end
0 of x - 1/3 on (1/3, oo) from the box's exact rational ends; the exporter has no Coq form for that yet
(its region premise is the closed `1/3 <= v_x`, where Coq's 1/0 = 0 and no enclosure holds), so the
branch's box must stay a named hypothesis, the file's record say so and the command exit 4, never 0.
coqc runs of 3-7 CPU s: slow."""

from __future__ import annotations

import json
import shutil

import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from paper_checks.cli import main

pytestmark = [
    pytest.mark.coq,
    pytest.mark.slow,
    pytest.mark.skipif(
        shutil.which("coqc") is None, reason="needs coqc: apt-get install coq libcoq-interval"
    ),
]

STATEMENTS = [
    ("Piecewise((1/(x - 1/3), 1/3 < x), (Abs(x - 1/3), True)) > -10^-6", "x: real"),
    ("Piecewise((1/(x - 1/3), x > 1/3), (5, True)) > 1", "x: [0, 1]"),
]


@pytest.mark.parametrize(("statement", "domain"), STATEMENTS)
def test_the_branch_at_a_non_dyadic_boundary_stays_a_named_hypothesis(statement, domain, tmp_path, capsys):
    target = tmp_path / "Statement.v"
    status = main(["prove", statement, "--domain", domain, "--coq", str(target), "--json"])
    document = json.loads(capsys.readouterr().out)
    assert document["status"] == "proved"  # by the kernel
    (record,) = document["coq"]
    assert (status, record["coq"], record["rests_on_hypotheses"]) == (4, "hypotheses", True)
    text = target.read_text()
    assert "Hypothesis box_1_case_0 :" in text  # the branch 1/(x - 1/3), named
    assert "Lemma box_1_case_1 :" in text  # the other branch is proved
    assert "Admitted" not in text
