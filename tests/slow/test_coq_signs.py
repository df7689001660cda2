"""``sb_sign`` (theory/prover/coq/preamble.py): auto_derive's domain conditions over a range Interval
cannot enclose (t >= 1 with no upper bound), closed by the signs of their parts. The true conditions
below (the shapes of the l2 example's monotone step: a sum of products of t and Rpower constants, a
sqrt of ln t + ln v) are accepted by coqc; each planted variant, false at a point mpmath evaluates (a
factor that can be 0, a negative coefficient, ln t at t = 1 taken as > 0), is refused. coqc runs of
2-3 CPU s each: slow."""

from __future__ import annotations

import mpmath
import pytest

from tests.helpers.coq_marks import NEEDS_COQC
from theory.prover.coq.coqc import check_file
from theory.prover.coq.preamble import preamble_for

pytestmark = [pytest.mark.coq, pytest.mark.slow, NEEDS_COQC]

HYPOTHESES = "forall t v : R, 1 <= t -> 2 <= v <= 3 -> "
"""t on a half-line (no number bounds it above), v on a box."""

TRUE = [
    (
        "0 < 676 / 25 * t * Rpower 2 (1 / 3) * Rpower 13 (2 / 3)"
        " + 52 / 25 * t * Rpower 5 (2 / 3) * Rpower 347 (2 / 3)",
        lambda t, v: (
            676 * t * mpmath.cbrt(2) * mpmath.cbrt(13) ** 2 / 25
            + 52 * t * mpmath.cbrt(5) ** 2 * mpmath.cbrt(347) ** 2 / 25
        ),
    ),
    (
        "sqrt (1 * ln (1 * t) + 1 * ln (1 * v)) <> 0",
        lambda t, v: mpmath.sqrt(mpmath.log(t) + mpmath.log(v)),
    ),
    (
        "0 < / (t * sqrt t) + exp (- t) * ln 2 ^ 3",
        lambda t, v: 1 / (t * mpmath.sqrt(t)) + mpmath.exp(-t) * mpmath.log(2) ** 3,
    ),
]
"""Conditions that hold on the whole range, each with its value in mpmath (positive there)."""

PLANTED = [
    (
        "0 < 676 / 25 * (t - 1) * Rpower 2 (1 / 3) + 52 / 25 * (t - 1) * Rpower 5 (2 / 3)",
        lambda t, v: 676 * (t - 1) * mpmath.cbrt(2) / 25 + 52 * (t - 1) * mpmath.cbrt(5) ** 2 / 25,
        (1, 2),
    ),
    (
        "0 < 676 / 25 * t * Rpower 2 (1 / 3) + -52 / 25 * t * Rpower 5 (2 / 3) * Rpower 347 (2 / 3)",
        lambda t, v: 676 * t * mpmath.cbrt(2) / 25 - 52 * t * mpmath.cbrt(5 * 347) ** 2 / 25,
        (1, 2),
    ),
    (
        "sqrt (ln t) <> 0",
        lambda t, v: mpmath.sqrt(mpmath.log(t)),
        (1, 2),
    ),
]
"""False variants: each with its value in mpmath and a point of the range where it is <= 0 (= 0 for
the <> 0 form)."""


def _lemma_file(tmp_path, goals: list[str]):
    text = "".join(
        f"Lemma sign_{k} : {HYPOTHESES}{goal}.\nProof. intros t v T V. sb_sign. Qed.\n"
        for k, goal in enumerate(goals)
    )
    path = tmp_path / "Signs.v"
    path.write_text(preamble_for(text) + text, encoding="utf-8")
    return path


def test_true_domain_conditions_on_a_half_line_are_accepted(tmp_path):
    with mpmath.workdps(50):  # the oracle: positive (nonzero) at points across the range
        for _, value in TRUE:
            assert all(value(mpmath.mpf(t), mpmath.mpf(v)) > 0 for t in (1, 7, 10**9) for v in (2, 3))
    assert check_file(_lemma_file(tmp_path, [goal for goal, _ in TRUE])).status == "accepted"


@pytest.mark.parametrize(("goal", "value", "point"), PLANTED, ids=["zero factor", "negative term", "ln 1"])
def test_a_planted_false_condition_is_refused(goal, value, point, tmp_path):
    with mpmath.workdps(50):
        assert value(*(mpmath.mpf(x) for x in point)) <= 0
    verdict = check_file(_lemma_file(tmp_path, [goal]))
    assert verdict.status == "rejected"
    assert "No applicable tactic" in (verdict.reason or "")  # sb_sign's own refusal, not a typo
