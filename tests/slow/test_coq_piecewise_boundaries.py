"""`prove --coq` on Piecewise statements whose conditions change at a non-dyadic rational (issue 48).

The kernel proves `Piecewise((1/(x - 1/3), 1/3 < x), (Abs(x - 1/3), True)) > -10^-6` by taking the end
0 of x - 1/3 on (1/3, oo) from the box's exact rational ends. The exporter states the branch's lemma on
the kernel's region (`1/3 < v_x`, open as the kernel's) and proves the exact 0 by lra from that premise,
so coqc accepts the file with no hypothesis. Planted: the same file with the premise weakened to
`1/3 <= v_x` (where Coq's 1/0 = 0 and no enclosure holds) is refused. coqc runs of 3-10 CPU s: slow."""

from __future__ import annotations

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

STATEMENTS = [
    ("Piecewise((1/(x - 1/3), 1/3 < x), (Abs(x - 1/3), True)) > -10^-6", "x: real"),
    ("Piecewise((1/(x - 1/3), x > 1/3), (5, True)) > 1", "x: [0, 1]"),
    ("Piecewise((1/(3*x - 1), 3*x > 1), (0, True)) >= 0", "x: real"),
]
PREMISE = "forall v_x : R, (1 / 3) < v_x ->"


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    """Every case's file, judged by coqc together (tests.helpers.coq_runs.proved_together)."""
    return proved_together(STATEMENTS, tmp_path_factory.mktemp("piecewise"))


@pytest.mark.parametrize(("statement", "domain"), STATEMENTS)
def test_the_branch_at_a_non_dyadic_boundary_is_proved_in_coq(statement, domain, judged):
    case = judged[(statement, domain)]
    assert_accepted(case)
    assert f"Lemma box_1_case_0 : {PREMISE}" in case.text  # the region open at 1/3, as the kernel's


def test_a_file_with_the_region_closed_at_the_boundary_is_refused(tmp_path, judged):
    text = judged[STATEMENTS[0]].text
    assert text.count(PREMISE) == 1
    planted = tmp_path / "Planted.v"
    planted.write_text(text.replace(PREMISE, "forall v_x : R, (1 / 3) <= v_x ->"))
    assert check_file(planted).status == "rejected"
