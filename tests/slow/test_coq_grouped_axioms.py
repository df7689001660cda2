"""Files checked together are judged by one ``Print Assumptions`` of all their theorems
(theory.prover.coq.coqc): at the end of their process, or, with several shared processes (``jobs`` 2),
in one closing process that loads them all. When that list names an axiom beyond the trusted ones, each
file is compiled again alone, so the rejection names the file the axiom belongs to. Planted here in one
file of three (one process) or four (two processes and the closing one): an admitted lemma the theorem
uses, a ``Parameter`` its statement names, and an axiom of Coq's library (proof irrelevance) that the
file imports and uses while the other files import it and do not. The planted file is rejected with the
axiom named, its neighbours are accepted. Real coqc, files proved by ``lra`` (about 1.5 CPU s a
process, four to seven processes a case)."""

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

HEADER = "From Coq Require Import Reals Lra.\nOpen Scope R_scope.\n"
GOOD = HEADER + "Lemma statement : 0 <= 1.\nProof. lra. Qed.\nPrint Assumptions statement.\n"
IRRELEVANCE = "From Coq Require Import ProofIrrelevance.\n"
PLANTED = {
    "admitted": (
        HEADER + "Lemma helper : 0 <= 2.\nAdmitted.\n"
        "Lemma statement : 0 <= 2.\nProof. exact helper. Qed.\nPrint Assumptions statement.\n",
        "helper",
        1,
        GOOD,
    ),
    "parameter": (
        HEADER + "Parameter c : R.\n"
        "Lemma statement : c - c = 0.\nProof. ring. Qed.\nPrint Assumptions statement.\n",
        "c",
        2,
        GOOD,
    ),
    "library axiom": (
        IRRELEVANCE + HEADER + "Lemma statement : forall p q : 0 <= 1, p = q.\n"
        "Proof. intros p q. apply proof_irrelevance. Qed.\nPrint Assumptions statement.\n",
        "proof_irrelevance",  # Coq prints the short name of an imported axiom
        0,
        IRRELEVANCE + GOOD,  # imports the axiom's library, uses it nowhere
    ),
}
"""kind -> (the planted file, the axiom Print Assumptions must name, its place among three files, the
text of the other two)."""


def _written(texts: list[str], folder) -> list:
    paths = []
    for k, text in enumerate(texts):
        paths.append(folder / f"File_{k}.v")
        paths[-1].write_text(text, encoding="utf-8")
    return [(path, ()) for path in paths]


@pytest.mark.parametrize("files", [3, 4], ids=["one process", "two processes and a closing one"])
@pytest.mark.parametrize("kind", PLANTED)
def test_an_untrusted_axiom_in_one_file_rejects_that_file_alone(kind, files, tmp_path):
    planted, axiom, place, good = PLANTED[kind]
    texts = [good] * (files - 1)
    texts.insert(place, planted)
    verdicts = check_files(_written(texts, tmp_path), jobs=files - 2)
    assert [v.status for v in verdicts] == ["rejected" if k == place else "accepted" for k in range(files)]
    assert axiom in verdicts[place].axioms, verdicts[place]
    assert verdicts[place].reason.startswith("untrusted axioms") and axiom in verdicts[place].reason
    for k, verdict in enumerate(verdicts):
        if k != place:
            assert verdict.axioms and all(a.startswith(TRUSTED_AXIOMS) for a in verdict.axioms), verdict


def test_two_shared_processes_print_their_assumptions_once_in_a_closing_process(tmp_path, monkeypatch):
    """Four accepted files, two a process: three coqc processes (the closing one loads the other two's
    compiled files and prints the assumptions of the four theorems), every file accepted with the trusted
    axioms that list names."""
    commands = []
    run_limited = coqc._run_limited

    def counted(command, directory):
        commands.append(command[-1])
        return run_limited(command, directory)

    monkeypatch.setattr(coqc, "_run_limited", counted)
    verdicts = check_files(_written([GOOD] * 4, tmp_path), jobs=2)
    assert sorted(commands) == ["sb_closing.v", "sb_process_0.v", "sb_process_1.v"]
    assert [v.status for v in verdicts] == ["accepted"] * 4
    assert all(v.axioms and all(a.startswith(TRUSTED_AXIOMS) for a in v.axioms) for v in verdicts)
