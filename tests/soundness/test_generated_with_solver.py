"""The generated soundness suite at the fast tier's size with z3 proposing (theory.prover.proposals): no
false or undefined statement proved, no true statement refuted, every witness confirmed by mpmath at 60
digits, and z3 was asked (its minimum budget lowered so that the suite's small budget still asks it)."""

from __future__ import annotations

import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")
pytest.importorskip("z3", reason="the solver extra")

from tests.helpers.soundness_cases import generate
from tests.helpers.soundness_judge import FAST_COUNT, SEED, SLOW_BUDGET, judge


@pytest.mark.slow
def test_no_wrong_verdict_with_the_solver_proposing(monkeypatch):
    from theory.prover import proposals

    asked: list[tuple[str, ...]] = []
    consult = proposals.consult

    def counted(*args, **kwargs):
        consulted = consult(*args, **kwargs)
        asked.append(tuple(proposal.outcome for proposal in consulted.proposals))
        return consulted

    monkeypatch.setattr(proposals, "MIN_BUDGET", 0.0)
    monkeypatch.setattr(proposals, "consult", counted)
    outcomes = [judge(case, SLOW_BUDGET, solver=True) for case in generate(FAST_COUNT, SEED)]
    wrong = [(o.case.statement, o.case.domain, o.wrong) for o in outcomes if o.wrong]
    assert wrong == []
    assert len(asked) >= 20 and any(outcome for outcomes in asked for outcome in outcomes)
