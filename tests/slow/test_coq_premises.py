"""The kernel's premised cases as Coq proofs (theory/prover/coq/premised.py): issue 48's Min and Piecewise
statements, true by hand (x <= y gives x y - x^2 = x (y - x) >= 0 on [0, oo)^2; 1/(x - y) > 0 where x > y),
are accepted by coqc with no hypothesis, through ``sb_min_which_le``, ``sb_shift`` and ``sb_imply``; a
file whose premise lemma is planted wrong (the multiplier's sign premise dropped, the implication
reversed) is refused. coqc runs of 3-10 CPU s: slow."""

from __future__ import annotations

import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from tests.helpers.coq_marks import NEEDS_COQC
from tests.helpers.coq_runs import assert_accepted, proved_together
from theory.prover.coq.coqc import check_file
from theory.prover.coq.preamble import preamble

pytestmark = [
    pytest.mark.coq,
    pytest.mark.slow,
    NEEDS_COQC,
]

PREMISED = [
    ("Min(x, y)^2 <= x*y", "x: [0, 1], y: [0, 1]", "sb_min_which_le"),
    ("Min(x^2, y^2) <= x*y", "x: [0, 2], y: [0, 2]", "sb_imply"),
    ("Piecewise((1/(x - y), x > y), (0, True)) >= 0", "x: [0, 1], y: [0, 1]", "sb_shift"),
    ("Piecewise((1/(x - y), x > y), (0, True)) >= 0", "x: real, y: real", "sb_shift"),
]


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    """Every case's file, judged by coqc together (tests.helpers.coq_runs.proved_together)."""
    return proved_together(PREMISED, tmp_path_factory.mktemp("premises"), "--no-solver")


@pytest.mark.parametrize(("statement", "domain", "applied"), PREMISED)
def test_a_premised_case_is_proved_in_coq(statement, domain, applied, judged):
    case = judged[(statement, domain, applied)]
    assert_accepted(case)
    assert f"({applied} " in case.text


PLANTED = [
    (
        "Lemma sb_multiplier : forall g s c, 0 <= s -> 0 <= c -> 0 <= g - s * c -> 0 <= g.\n"
        "Proof. intros g s c S C G. pose proof (Rmult_le_pos s c S C). lra. Qed.",
        "Lemma sb_multiplier : forall g s c, 0 <= c -> 0 <= g - s * c -> 0 <= g.\n"
        "Proof. intros g s c C G. nra. Qed.",
        None,
    ),
    (
        "Lemma sb_imply : forall c C, (0 < - C -> 0 < - c) -> 0 <= c -> 0 <= C.",
        "Lemma sb_imply : forall c C, (0 < - c -> 0 < - C) -> 0 <= c -> 0 <= C.",
        PREMISED[1],
    ),
]
"""A premise lemma, its planted wrong form (g >= g - s c without s >= 0; the implication reversed), and
the statement whose exported file uses it (None: the whole preamble with the premises' lemmas, since an
exported file carries only the lemmas it uses)."""


@pytest.mark.parametrize(
    ("right", "wrong", "exported"), PLANTED, ids=["multiplier without its sign", "imply reversed"]
)
def test_a_premise_lemma_planted_wrong_is_refused(right, wrong, exported, tmp_path, judged):
    text = preamble(premises=True) if exported is None else judged[exported].text
    assert right in text
    planted = tmp_path / "Planted.v"
    planted.write_text(text.replace(right, wrong, 1), encoding="utf-8")
    assert check_file(planted).status == "rejected"
