"""The kernel's ``jump`` step as a Coq proof (theory/prover/coq/jumps.py): v compared with each
breakpoint, the printed floor (ceiling) rewritten to its value by ``sb_floor_between``
(``sb_ceil_between``), each piece's lemma concluding. Statements whose truth is by hand (Hermite's
identity: floor(x/2) + floor((x + 1)/2) = floor(x) <= x, and ceiling(x/2) + ceiling((x - 1)/2) =
ceiling(x) >= x) are accepted with no
hypothesis; a file whose rewritten value is planted wrong is refused. coqc runs of 3-10 CPU s: slow."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from tests.helpers.coq_marks import NEEDS_COQC
from tests.helpers.coq_runs import assert_accepted, proved_together
from theory.prover.coq.coqc import check_file

pytestmark = [
    pytest.mark.coq,
    pytest.mark.slow,
    NEEDS_COQC,
]

JUMPS = [
    ("floor(x/2) + floor((x+1)/2) <= x", "x: [0, 3]", "sb_floor_between"),
    ("ceiling(x/2) + ceiling((x-1)/2) >= x", "x: [0, 3]", "sb_ceil_between"),
]


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    """Every case's file, judged by coqc together (tests.helpers.coq_runs.proved_together)."""
    return proved_together(JUMPS, tmp_path_factory.mktemp("jumps"))


@pytest.mark.parametrize(("statement", "domain", "applied"), JUMPS)
def test_a_jump_box_is_proved_in_coq(statement, domain, applied, judged):
    case = judged[(statement, domain, applied)]
    assert_accepted(case)
    assert '"jump"' in json.dumps(case.document["inequalities"][0]["certificate"]["boxes"])
    assert f"rewrite ({applied} " in case.text


def test_a_file_with_a_piece_value_planted_wrong_is_refused(tmp_path, judged):
    """floor((x + 1)/2) (the typed tree: (x + 1) * 1/2) is 0 on [0, 1), not 1: with that piece's value
    planted as 1, the rewrite's side condition 1 <= (x + 1)/2 < 2 fails there and coqc refuses the file."""
    text = judged[JUMPS[0]].text
    right = "= 0) by (rewrite (sb_floor_between ((v_x + 1) * (1 / 2)) (0)%Z)"
    assert right in text
    planted = tmp_path / "Planted.v"
    planted.write_text(
        text.replace(right, "= 1) by (rewrite (sb_floor_between ((v_x + 1) * (1 / 2)) (1)%Z)", 1),
        encoding="utf-8",
    )
    assert check_file(planted).status == "rejected"
