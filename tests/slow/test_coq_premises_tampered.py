"""Exported premised cases tampered with in their proof scripts are refused by coqc: a Piecewise condition
made non-strict (x >= y: the shift's premise 0 < x - y no longer follows at the tie), a shift instantiated
at c(x) + 1 instead of c(x), a Min's premise made strict (0 < y - x fails at the tie), and a Min case given
the other case's premise. The untampered files, judged by coqc together, are accepted; each tampered
file is judged alone. coqc runs of 2-10 CPU s each: slow."""

from __future__ import annotations

import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from tests.helpers.coq_marks import NEEDS_COQC
from tests.helpers.coq_runs import assert_accepted, proved_together
from theory.prover.coq.coqc import check_file

pytestmark = [pytest.mark.coq, pytest.mark.slow, NEEDS_COQC]

PIECEWISE = ("Piecewise((1/(x - y), x > y), (0, True)) >= 0", "x: [0, 1], y: [0, 1]")
MINIMUM = ("Min(x, y)^2 <= x*y", "x: [0, 1], y: [0, 1]")
SHIFTED = "(box_1_case_0_shift.gap v_y ((v_x + ((-1) * v_y))))"
PREMISE = "P_box_1_case_0_0 : 0 <= (v_y + ((-1) * v_x))"

TAMPERED = [
    ("the condition made non-strict", PIECEWISE,
     [("Rlt_dec v_y v_x", "Rle_dec v_y v_x"), ("Rnot_lt_le in C0", "Rnot_le_lt in C0")]),
    ("the shift at c(x) + 1", PIECEWISE, [(SHIFTED, SHIFTED.replace("* v_y))))", "* v_y)) + 1)))"))]),
    ("the Min's premise strict", MINIMUM, [(PREMISE, PREMISE.replace("0 <=", "0 <"))]),
    ("the other case's premise", MINIMUM,
     [(PREMISE, "P_box_1_case_0_0 : 0 <= (v_x + ((-1) * v_y))")]),
]  # fmt: skip


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    """Both statements' untampered files, judged by coqc together (tests.helpers.coq_runs.proved_together)."""
    return proved_together([PIECEWISE, MINIMUM], tmp_path_factory.mktemp("premised"), "--no-solver")


@pytest.mark.parametrize("statement", [PIECEWISE, MINIMUM], ids=["Piecewise", "Min"])
def test_the_untampered_premised_file_is_accepted(statement, judged) -> None:
    assert_accepted(judged[statement])


@pytest.mark.parametrize(("what", "statement", "edits"), TAMPERED, ids=[t[0] for t in TAMPERED])
def test_a_tampered_premised_proof_is_refused_by_coqc(what, statement, edits, tmp_path, judged) -> None:
    text = judged[statement].text
    for old, new in edits:
        assert old in text, (what, old)
        text = text.replace(old, new)
    tampered = tmp_path / "Tampered.v"
    tampered.write_text(text, encoding="utf-8")
    assert check_file(tampered).status == "rejected", what
