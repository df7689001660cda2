"""Files sharing a coqc process are judged by one ``Print Assumptions`` of all their theorems
(theory.prover.coq.coqc, "Several files share one coqc process"); when that list names an axiom beyond
the trusted ones, each file of the process is compiled again alone, so the rejection names the file the
axiom belongs to. Planted here in one file of three (one process; of four, two processes with ``jobs``
2): an admitted lemma the theorem uses, a ``Parameter`` its statement names, and an axiom of Coq's
library (proof irrelevance) that the file imports and uses while the other files import it and do not.
The planted file is rejected with the axiom named, its neighbours are accepted. Real coqc, files proved
by ``lra`` (about 1.5 CPU s a process, four or five processes a case)."""

from __future__ import annotations

import pytest

from tests.helpers.coq_marks import NEEDS_COQC
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


@pytest.mark.parametrize(
    ("kind", "files"),
    [("admitted", 3), ("parameter", 3), ("library axiom", 3), ("library axiom", 4)],
    ids=["admitted", "parameter", "library axiom", "library axiom, two processes"],
)
def test_an_untrusted_axiom_in_one_file_rejects_that_file_alone(kind, files, tmp_path):
    """Three files share one process; four with ``jobs`` 2 share two, each printing its own union."""
    planted, axiom, place, good = PLANTED[kind]
    texts = [good] * (files - 1)
    texts.insert(place, planted)
    paths = []
    for k, text in enumerate(texts):
        paths.append(tmp_path / f"File_{k}.v")
        paths[-1].write_text(text, encoding="utf-8")
    verdicts = check_files([(path, ()) for path in paths], jobs=files - 2)
    assert [v.status for v in verdicts] == ["rejected" if k == place else "accepted" for k in range(files)]
    assert axiom in verdicts[place].axioms, verdicts[place]
    assert verdicts[place].reason.startswith("untrusted axioms") and axiom in verdicts[place].reason
    for k, verdict in enumerate(verdicts):
        if k != place:
            assert verdict.axioms and all(a.startswith(TRUSTED_AXIOMS) for a in verdict.axioms), verdict
