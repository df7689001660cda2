"""The generated soundness suite (tests/helpers/soundness_cases.py): no false or undefined statement
proved, no true statement refuted, every refutation's witness confirmed by mpmath at 60 digits.

The fast tier judges FAST_COUNT statements at FAST_BUDGET CPU seconds each (about 5 CPU s in all), the
slow tier SLOW_COUNT (5,000) at SLOW_BUDGET (about 2 CPU minutes); SPECBOUND_SOUNDNESS_SEED picks another
seed. The generator's own truth is checked first, by mpmath alone: a false case fails at its witness, an
undefined one is undefined at its witness, a true one holds at points of its domain out to 2^41.
"""

from __future__ import annotations

import os
import random

import mpmath
import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from tests.helpers.soundness_cases import FALSE, FAMILIES, TRUE, UNDEFINED, Case, generate
from tests.helpers.soundness_judge import (
    FAST_BUDGET,
    FAST_COUNT,
    SEED,
    SLOW_BUDGET,
    SLOW_COUNT,
    markdown,
    run,
    table,
)
from tests.helpers.soundness_terms import DIGITS, UndefinedHere

SEED_USED = int(os.environ.get("SPECBOUND_SOUNDNESS_SEED", SEED))


def _holds_at_samples(case: Case, rng: random.Random) -> None:
    samples = [v.samples(rng) for v in case.variables]
    for _ in range(12):
        point = {v.name: rng.choice(s) for v, s in zip(case.variables, samples, strict=True)}
        gap = case.gap(point)
        tolerance = mpmath.mpf(10) ** (10 - DIGITS)  # an identity's two sides agree to the precision only
        assert gap > -tolerance if case.relation in (">=", "<=") else gap > 0 or abs(gap) < tolerance, (
            case.statement,
            case.domain,
            point,
            gap,
        )


def _confirm_truths(count: int) -> None:
    rng = random.Random(SEED_USED)
    cases = list(generate(count, SEED_USED))
    assert {c.family for c in cases} == set(FAMILIES)
    assert {c.truth for c in cases} == {TRUE, FALSE, UNDEFINED}
    for case in cases:
        if case.truth == FALSE:
            assert case.witness is not None and case.fails_at(case.witness), (case.statement, case.witness)
        elif case.truth == UNDEFINED:
            assert case.witness is not None and case.in_domain(case.witness)
            with pytest.raises(UndefinedHere):
                case.gap(case.witness)
        else:
            _holds_at_samples(case, rng)


def test_the_generator_s_truth_is_confirmed_by_mpmath():
    _confirm_truths(3 * len(FAMILIES) * 20)


@pytest.mark.slow
def test_the_truth_of_every_statement_of_the_slow_suite_is_confirmed_by_mpmath():
    _confirm_truths(SLOW_COUNT)


def test_the_oracle_sees_a_claim_fail_near_a_limit_and_an_identity_hold():
    from fractions import Fraction

    from tests.helpers.soundness_cases import Variable
    from tests.helpers.soundness_terms import add, atan, constant, number, var

    bound = add(constant("-pi/2", lambda: -mpmath.pi / 2), number(Fraction(1, 10**15)))
    line = (Variable("x", None, None),)
    case = Case("t", atan(var("x")), ">=", bound, line, FALSE)
    assert case.fails_at({"x": Fraction(-(2**51))}) and not case.fails_at({"x": Fraction(-(2**48))})
    identity = add(atan(number(2)), atan(number(Fraction(1, 2))), var("x"))
    strict = Case("t", identity, ">", constant("pi/2", lambda: mpmath.pi / 2), line, FALSE, exact_zero=True)
    assert strict.fails_at({"x": Fraction(0)}) and not strict.fails_at({"x": Fraction(1, 10**30)})


def _assert_sound(count: int, budget: float) -> None:
    outcomes = run(count, SEED_USED, budget)
    wrong = [f"{o.case.statement} over {o.case.domain}: {o.wrong}" for o in outcomes if o.wrong]
    assert not wrong, "\n".join(wrong)
    rows = table(outcomes)
    verdicts = {key for row in rows.values() for key in row}
    assert {"proved", "refuted"} <= verdicts  # the suite decides something, so it could catch a wrong verdict
    print(f"\nseed {SEED_USED}, {count} statements at {budget} CPU s each\n{markdown(rows)}")


def test_a_few_hundred_generated_statements_get_no_wrong_verdict():
    _assert_sound(FAST_COUNT, FAST_BUDGET)


@pytest.mark.slow
def test_five_thousand_generated_statements_get_no_wrong_verdict():
    _assert_sound(SLOW_COUNT, SLOW_BUDGET)
