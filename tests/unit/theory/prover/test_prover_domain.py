"""Parsing of domains and statements (no python-flint needed)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from theory.prover import MalformedDomain, MalformedStatement, parse_domain, parse_statement


def test_domain_syntax_round_trips():
    text = "x: [0, 10], p: (0, 2], N: integer >= 1, y: real, z: > -1, k: integer in (0.5, 3)"
    domain = parse_domain(text)
    assert domain.to_text() == (
        "x: [0, 10], p: (0, 2], N: integer in [1, oo), y: (-oo, oo), z: (-1, oo), k: integer in [1, 2]"
    )
    assert parse_domain(domain.to_text()) == domain
    assert domain["p"].lower_open and not domain["p"].upper_open
    assert domain["y"].lower == -math.inf


def test_domain_symbols_carry_the_assumptions_the_sets_imply():
    symbols = parse_domain("p: (0, 2], s: [0, 1], N: integer >= 1, y: real").symbols()
    assert symbols["p"].is_positive and symbols["s"].is_nonnegative and symbols["s"].is_positive is None
    assert symbols["N"].is_integer and symbols["N"].is_positive
    assert symbols["y"].is_real and symbols["y"].is_positive is None


def test_membership_respects_open_ends_and_integers():
    domain = parse_domain("p: (0, 2], N: integer >= 1")
    assert not domain["p"].contains(Fraction(0)) and domain["p"].contains(Fraction(2))
    assert domain["N"].contains(Fraction(3)) and not domain["N"].contains(Fraction(3, 2))


def test_statement_gap_and_strictness():
    domain = parse_domain("x: real, e: [0, 1]")
    statement = parse_statement("exp(x) >= 1 + x and x < x + 1 and e^2 <= 1", domain)
    gaps = [(str(i.gap), i.strict) for i in statement.inequalities]
    assert gaps == [("-x + exp(x) - 1", False), ("1", True), ("1 - e**2", False)]  # e is the variable


@pytest.mark.parametrize("text", ["x: (0, 0)", "x: [1, 0]", "N: integer in (1, 2)", "x: [0, 1], x: [0, 2]"])
def test_empty_or_repeated_domains_are_rejected(text):
    with pytest.raises(MalformedDomain):
        parse_domain(text)


def test_a_decimal_is_exact():
    statement = parse_statement("x <= 1.13", parse_domain("x: [0, 1]"))
    assert str(statement.inequalities[0].gap) == "113/100 - x"


def test_an_unknown_variable_is_named():
    with pytest.raises(MalformedStatement, match="variable y has no domain"):
        parse_statement("x <= y", parse_domain("x: [0, 1]"))
