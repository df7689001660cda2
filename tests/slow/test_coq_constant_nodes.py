"""A constant subtree of the node-by-node enclosure proved by one Interval call on the whole term
(``theory.prover.coq.unbounded``): the exported file is accepted, and refused when the joint fact
L <= c <= U of a constant c is planted false at either end (the planted end checked wrong against c with
mpmath at 60 digits, not by the exporter): coqc stops at that fact. coqc runs of 3-10 CPU s each: slow."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

import mpmath

from tests.helpers.coq_marks import NEEDS_COQC
from tests.helpers.coq_runs import proved_with_coq
from theory.prover.coq.coqc import check_file

pytestmark = [pytest.mark.coq, pytest.mark.slow, NEEDS_COQC]

with mpmath.workdps(60):
    CONSTANTS = {"(ln 2)": mpmath.log(2), "(Rpower 2 (1 / 3))": mpmath.cbrt(2)}
"""The constants of log(2) x + 2^(1/3) as the file prints them, with their values (mpmath, 60 digits)."""


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> str:
    """log(2) x + 2^(1/3) >= 0 on [0, oo), exported and accepted (``proved_with_coq``)."""
    target = tmp_path_factory.mktemp("constants") / "Statement.v"
    return proved_with_coq("log(2)*x + 2^(1/3) >= 0", "x: [0, oo)", target)[1]


def _joint(text: str, constant: str) -> tuple[str, str, Fraction, Fraction]:
    """The joint fact of the node defined as ``constant``: its text, the node's name and its two ends."""
    node = re.search(rf"pose \((n\d+) := {re.escape(constant)}\)", text)
    assert node is not None, constant
    fact = re.search(rf"\((-?\d+) / (\d+)\) <= {node.group(1)} <= \((-?\d+) / (\d+)\)", text)
    assert fact is not None, constant
    p, q, r, s = (int(g) for g in fact.groups())
    return fact.group(0), node.group(1), Fraction(p, q), Fraction(r, s)


def _value(end: Fraction):
    return mpmath.mpf(end.numerator) / end.denominator


@pytest.mark.parametrize(("constant", "side"), [("(ln 2)", "lo"), ("(Rpower 2 (1 / 3))", "hi")])
def test_a_constant_fact_planted_false_is_refused(exported, constant, side, tmp_path: Path):
    fact, node, low, high = _joint(exported, constant)
    with mpmath.workdps(60):
        value = CONSTANTS[constant]
        assert _value(low) <= value <= _value(high)
        tiny = Fraction(1, 10**25)
        if side == "lo":
            low = high + tiny  # above the constant: L <= c false
            assert _value(low) > value
        else:
            high = low - tiny  # below the constant: c <= U false
            assert _value(high) < value
    planted = f"({low.numerator} / {low.denominator}) <= {node} <= ({high.numerator} / {high.denominator})"
    text = exported.replace(fact, planted, 1)
    assert text != exported
    path = tmp_path / "Planted.v"
    path.write_text(text, encoding="utf-8")
    verdict = check_file(path)
    assert verdict.status == "rejected"
    assert verdict.line == text[: text.index(planted)].count("\n") + 1  # at the planted fact
