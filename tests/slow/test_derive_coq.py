"""``specbound derive FILE --coq FILE.v``: the examples of docs/examples exported (each step a lemma) and
judged by coqc, a planted wrong conclusion refused, and real coqc processes shared by several files
(an error named in its own file, a CPU-limit hit reported ``timeout``). coqc runs of 2-30 CPU s each."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from paper_checks.cli import main
from theory.prover.coq import coqc
from theory.prover.coq.coqc import TRUSTED_AXIOMS, check_file, check_files

pytestmark = [
    pytest.mark.coq,
    pytest.mark.slow,
    pytest.mark.skipif(
        shutil.which("coqc") is None, reason="needs coqc: apt-get install coq libcoq-interval"
    ),
]

EXAMPLES = Path(__file__).parents[2] / "docs" / "examples"
ACCEPTED = [
    "bartlett_spectral_complexity",  # L^(3/2) a = sqrt(L) a (L - 1) + sqrt(L) a by sqrt L * sqrt L = L
    "log_below_quadratic",
    "log_below_tangent",
    "power_above_tangent",
]
"""The examples whose every step coqc proves (measured: 8-10 coqc CPU s each)."""
NOT_YET = {
    "lemma_under_substitution": "untranslated",  # a step by a fact under a substitution
    "theorem_4_1": "untranslated",
}
"""The examples coqc does not accept yet, with the verdict they get (exit 4: coqc is the judge)."""
UNTRIED = {
    "l2_below_edelman_minilm_l6": "its one step's file is 8.3 MB (the certificate's box proved node by node "
    "over [1, oo)); coqc ran over the 900 s wall-clock timeout at load 16 (181 CPU s): timeout, exit 4"
}
"""Examples not run here (measured once by hand), with why."""


def test_every_example_is_accepted_not_yet_or_untried():
    assert {p.stem for p in EXAMPLES.glob("*.toml")} == {*ACCEPTED, *NOT_YET, *UNTRIED}


def _derive(name: str, target: Path, capsys) -> tuple[int, dict]:
    status = main(["derive", str(EXAMPLES / f"{name}.toml"), "--coq", str(target), "--json"])
    return status, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("name", ACCEPTED)
def test_an_example_is_exported_each_step_a_lemma_and_accepted(name, tmp_path, capsys):
    target = tmp_path / f"{name}.v"
    status, document = _derive(name, target, capsys)
    (record,) = document["coq"]
    assert (status, document["coq_verdict"], record["rests_on_hypotheses"]) == (0, "accepted", False)
    assert all(axiom.startswith(TRUSTED_AXIOMS) for axiom in record["axioms"])
    text = target.read_text()
    for word in ("Admitted", "Axiom", "Hypothesis", "Parameter"):
        assert word not in text
    steps = len(document["steps"])
    assert all(f"Lemma step_{k} :" in text for k in range(1, steps + 1))


@pytest.mark.parametrize(("name", "verdict"), sorted(NOT_YET.items()))
def test_an_example_coqc_does_not_accept_yet_is_exit_4_saying_why(name, verdict, tmp_path, capsys):
    status, document = _derive(name, tmp_path / f"{name}.v", capsys)
    assert document["status"] in ("proved", "derived")
    assert (status, document["coq_verdict"]) == (4, verdict)


def test_a_planted_wrong_conclusion_is_refused(tmp_path, capsys):
    """2 ln(1 + x) <= 3 x on [0, 1] with the last expression 2.9 x instead of 3 x: its last step,
    x (2 + x) <= 2.9 x, fails for x in (0.9, 1] (by hand), and coqc refuses it."""
    target = tmp_path / "q.v"
    assert _derive("log_below_quadratic", target, capsys)[0] == 0
    planted = tmp_path / "planted.v"
    text = target.read_text()
    assert "Definition e_4 (v_x : R) : R := (3 * v_x)." in text
    planted.write_text(
        text.replace(
            "Definition e_4 (v_x : R) : R := (3 * v_x).", "Definition e_4 (v_x : R) : R := (29/10 * v_x)."
        )
    )
    verdict = check_file(planted)
    assert verdict.status == "rejected"


GOOD = (
    "From Coq Require Import Reals Lra ZArith.\nOpen Scope R_scope.\n"
    "Lemma statement : 0 <= 1.\nProof. lra. Qed.\nPrint Assumptions statement.\n"
)
BURN = (
    "Goal True. Time Eval vm_compute in (Pos.iter (fun z => Z.add z 1%Z) 0%Z 2000000000%positive). Abort.\n"
)
"""Seconds of CPU in a constant amount of memory (binary integers)."""


def test_files_sharing_a_process_are_judged_each_by_its_own_lines_and_limit(tmp_path, monkeypatch):
    bad = GOOD.replace("0 <= 1", "2 <= 1")  # false: line 4 fails
    burner = GOOD.replace("Lemma statement", BURN + "Lemma statement")
    paths = []
    for name, text in [("a", GOOD), ("b", bad), ("c", burner), ("d", GOOD), ("e", GOOD)]:
        paths.append(tmp_path / f"{name}.v")
        paths[-1].write_text(text)
    monkeypatch.setattr(coqc, "CPU_LIMIT_SECONDS", 4)
    verdicts = check_files([(path, ()) for path in paths], jobs=1)
    assert [v.status for v in verdicts] == ["accepted", "rejected", "timeout", "accepted", "accepted"]
    assert verdicts[1].line == 4
