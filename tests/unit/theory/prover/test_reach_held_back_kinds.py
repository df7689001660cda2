"""Issue 48's kinds varied as a checker would (tests/helpers/held_back_kinds.py): each true statement is
proved and each false one is not, against the truth decided by hand and confirmed here by mpmath at 50
digits on a grid (the gap written by hand, sharing nothing with the parser); a refutation's witness is
re-evaluated by mpmath. The few costly statements are in tests/slow/test_reach_held_back_kinds_slow.py."""

from __future__ import annotations

from fractions import Fraction

import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from tests.helpers.held_back_kinds import HELD, SLOW, Held, grid_check, witness_fails
from theory.prover import PROVED, REFUTED, prove

FAST = [held for held in HELD if held.statement + " over " + held.domain not in SLOW]
BUDGET = 5.0
"""CPU seconds of search: each of these is decided in well under 1 s."""


@pytest.mark.parametrize("held", FAST, ids=[f"{h.statement} over {h.domain}" for h in FAST])
def test_held_back_kind_is_decided_as_mpmath_says(held: Held) -> None:
    assert grid_check(held, per_variable=12), "the hand-decided truth disagrees with mpmath's grid"
    result = prove(held.statement, held.domain, BUDGET)
    if held.true:
        assert result.status == PROVED
        return
    assert result.status != PROVED
    if result.status == REFUTED:
        witness = next(part.witness for part in result.parts if part.witness is not None)
        assert witness_fails(held, {name: Fraction(value) for name, value in witness.point.items()})


def test_the_hunting_set_has_every_kind_true_and_false() -> None:
    """At least 60 statements, both truths present in each kind (a planted check on the set itself)."""
    assert len(HELD) >= 60
    kinds = {
        "jump": ("floor", "ceiling"),
        "choice": ("Max", "Min"),
        "power": ("x^y",),
        "root": ("sqrt", "^(1/2)"),
    }
    for kind, marks in kinds.items():
        truths = {held.true for held in HELD if any(mark in held.statement for mark in marks)}
        assert truths == {True, False}, kind
