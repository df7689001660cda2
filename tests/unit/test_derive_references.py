"""derive's decisions on statements whose truth is known by hand: a half-line certificate is returned only
after the kernel re-checked the whole of it (a decision made for other sides than the gap's is not), and
the steps' composition and cuts (each kills a mutant of benchmarks/mutants.py)."""

from __future__ import annotations

from fractions import Fraction

import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from theory.derive.check import compose, cut, step_gap_tree
from theory.derive.half_line import half_line_certificate
from theory.derive.tail import half_line
from theory.prover.domain import parse_domain
from theory.prover.statement import parse_statement

X = ["var", "x"]


def _gap(text: str) -> list:
    (inequality,) = parse_statement(text, half_line("x", Fraction(1))).inequalities
    return inequality.gap_tree()


def test_a_half_line_certificate_for_other_sides_than_the_gap_is_not_returned():
    # x - 2 >= 0 is false at x = 1 on [1, oo); the sides (0, x) give x >= 0, true there, which the search
    # decides; only the kernel's re-check of the rewrite from x - 2 to x refuses it
    sides = (["num", "0"], X)
    assert half_line_certificate("x - 2 >= 0", _gap("x - 2 >= 0"), False, "x", Fraction(1), sides) is None
    assert half_line_certificate("x >= 0", _gap("x >= 0"), False, "x", Fraction(1), sides) is not None


def test_a_chain_is_strict_only_when_a_step_is():
    assert compose(["<=", "=", "<="]) == "<="
    assert compose(["<=", "<"]) == "<"
    assert compose(["=", "="]) == "="


def test_a_bound_cuts_the_side_it_names():
    domain = parse_domain("x: [0, 10]")
    at_least = cut(domain, "x", ">=", Fraction(3))["x"]
    assert (at_least.lower, at_least.upper) == (3, 10)
    below = cut(domain, "x", "<", Fraction(3))["x"]
    assert (below.lower, below.upper, below.upper_open) == (0, 3, True)


def test_strict_assumptions_leave_a_non_strict_step_non_strict():
    # x <= y under a > 0: Max(y - x, -a) >= 0 suffices (it is > 0 wherever a > 0 fails); with a >= 0, > 0
    lhs, rhs, a = X, ["var", "y"], ["var", "a"]
    assert step_gap_tree(lhs, rhs, "<=", [(a, True)])[1] is False
    assert step_gap_tree(lhs, rhs, "<=", [(a, False)])[1] is True
