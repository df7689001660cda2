"""numerics.testing on a user's expression: the right bound passes every check, and planted mistakes
(a wrong exponent, a wrong limit, a non-monotone term, a bound below another or below a measurement)
are each caught with the falsifying example reported."""

from __future__ import annotations

import pytest
import sympy as sp

from numerics import testing
from theory.errors import InvalidArgument
from theory.proxy import SUMMAND

p, S, s, N = SUMMAND.args
DOMAIN = {p: (0.0, 2.0), S: (1.0, 1e3), s: (0.1, 1e3), N: (1.0, 4096.0)}
RIGHT = S ** (1 / (p + 2)) * s ** (p / (p + 2)) * N ** ((p + 1) / (p + 2))


def _caught(check, *args, **kwargs) -> str:
    """Run a check that must fail; returns its message and notes, which hold the falsifying example
    (hypothesis calls it "Falsifying example" or, in newer releases, "Failing test case")."""
    with pytest.raises(AssertionError) as failure:
        check(*args, **kwargs)
    return str(failure.value) + "\n" + "\n".join(getattr(failure.value, "__notes__", []))


def _reports_example(message: str) -> bool:
    return ("Falsifying example" in message or "Failing test case" in message) and "run(" in message


def test_the_right_summand_passes_every_check():
    testing.check_monotone(RIGHT, N, DOMAIN)
    testing.check_monotone(RIGHT, S, DOMAIN)
    testing.check_limit(RIGHT, p, 0.0, sp.sqrt(N * S), DOMAIN)
    testing.check_limit(RIGHT, p, 2.0, N ** sp.Rational(3, 4) * sp.sqrt(s) * S ** sp.Rational(1, 4), DOMAIN)
    testing.check_homogeneous(RIGHT, [s], p / (p + 2), DOMAIN)
    testing.check_dominates(RIGHT, sp.sqrt(N) * S ** (1 / (p + 2)) * sp.Min(1, s) ** (p / (p + 2)), DOMAIN)
    testing.check_dominates_measurements(RIGHT, [({p: 0, S: 32, s: 5.0, N: 384}, 110.8)])


def test_the_project_summand_is_the_right_one():
    testing.check_dominates(SUMMAND.expr, RIGHT, DOMAIN)
    testing.check_dominates(RIGHT, SUMMAND.expr, DOMAIN)


def test_planted_wrong_exponent_is_caught_by_homogeneity():
    wrong = S ** (1 / (p + 2)) * s ** (2 * p / (p + 2)) * N ** ((p + 1) / (p + 2))
    message = _caught(testing.check_homogeneous, wrong, [s], p / (p + 2), DOMAIN)
    assert "is not homogeneous of degree" in message and _reports_example(message)


def test_planted_wrong_limit_is_caught():
    wrong = S ** (1 / (p + 1)) * s ** (p / (p + 2)) * N ** ((p + 1) / (p + 2))  # -> S sqrt(N), not sqrt(N S)
    message = _caught(testing.check_limit, wrong, p, 0.0, sp.sqrt(N * S), DOMAIN)
    assert "does not tend to" in message and _reports_example(message)


def test_planted_non_monotone_term_is_caught():
    wrong = RIGHT * sp.exp(-N / 64)  # rises, then falls beyond N = 64 (p + 1) / (p + 2)
    message = _caught(testing.check_monotone, wrong, N, DOMAIN)
    assert "is not increasing in N" in message and _reports_example(message)


def test_a_bound_below_another_or_below_a_measurement_is_caught():
    message = _caught(testing.check_dominates, sp.sqrt(N), N ** sp.Rational(3, 4), {N: (1.0, 100.0)})
    assert "<" in message and _reports_example(message)
    measured = [({N: 4.0}, 1.0), ({N: 16.0}, 5.0)]  # sqrt(16) = 4 < 5
    message = _caught(testing.check_dominates_measurements, sp.sqrt(N), measured)
    assert "below the measured 5.0 at measurement 1" in message


def test_decreasing_direction_and_bad_domains():
    testing.check_monotone(1 / N, N, {N: (1.0, 10.0)}, increasing=False)
    assert "not decreasing" in _caught(testing.check_monotone, N, N, {N: (1.0, 10.0)}, increasing=False)
    with pytest.raises(InvalidArgument, match="no interval for s"):
        testing.check_monotone(RIGHT, N, {p: (0, 2), S: (1, 2), N: (1, 2)})
    with pytest.raises(InvalidArgument, match="not an end of the interval"):
        testing.check_limit(RIGHT, p, 1.0, RIGHT, DOMAIN)
