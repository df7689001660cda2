"""coqc's wall-clock limit (theory.prover.coq.coqc.TIMEOUT_SECONDS) reported ``timeout``, never
``rejected``, alone or in a shared process; and a shared process's one ``Print Assumptions`` judges each
file: a planted axiom in one file rejects that file alone. Real coqc, limits made tiny by monkeypatching
(a few CPU s each)."""

from __future__ import annotations

import pytest

from tests.helpers.coq_marks import NEEDS_COQC
from theory.prover.coq import coqc
from theory.prover.coq.coqc import TRUSTED_AXIOMS, check_files

pytestmark = [
    pytest.mark.coq,
    pytest.mark.slow,
    NEEDS_COQC,
]

GOOD = (
    "From Coq Require Import Reals Lra ZArith.\nOpen Scope R_scope.\n"
    "Lemma statement : 0 <= 1.\nProof. lra. Qed.\nPrint Assumptions statement.\n"
)
BURN = (
    "Goal True. Time Eval vm_compute in (Pos.iter (fun z => Z.add z 1%Z) 0%Z 4000000000%positive). Abort.\n"
)
"""Tens of seconds of CPU in a constant amount of memory (binary integers)."""


def test_a_wall_clock_limit_hit_is_a_timeout_alone_and_in_a_shared_process(tmp_path, monkeypatch):
    burner = GOOD.replace("Lemma statement", BURN + "Lemma statement")
    paths = []
    for name, text in [("slow", burner), ("slow_too", burner)]:
        paths.append(tmp_path / f"{name}.v")
        paths[-1].write_text(text)
    monkeypatch.setattr(coqc, "TIMEOUT_SECONDS", 3.0)
    monkeypatch.setattr(coqc, "CPU_LIMIT_SECONDS", 60)  # the wall-clock limit fires first
    verdicts = check_files([(path, ()) for path in paths], jobs=1)
    assert [v.status for v in verdicts] == ["timeout", "timeout"]
    assert all("wall-clock" in v.reason for v in verdicts)


def test_each_file_of_a_shared_process_is_judged_by_its_assumptions(tmp_path):
    axiom = GOOD.replace("Lemma statement", "Axiom sneaky : 0 <= 1.\nLemma statement").replace(
        "Proof. lra. Qed.", "Proof. exact sneaky. Qed."
    )
    paths = []
    for name, text in [("a", GOOD), ("planted", axiom), ("b", GOOD)]:
        paths.append(tmp_path / f"{name}.v")
        paths[-1].write_text(text)
    verdicts = check_files([(path, ()) for path in paths], jobs=1)
    assert [v.status for v in verdicts] == ["accepted", "rejected", "accepted"]
    assert "sneaky" in verdicts[1].reason
    assert all(a.startswith(TRUSTED_AXIOMS) for v in (verdicts[0], verdicts[2]) for a in v.axioms)
    assert verdicts[0].axioms and not any("sneaky" in a for a in verdicts[0].axioms)
