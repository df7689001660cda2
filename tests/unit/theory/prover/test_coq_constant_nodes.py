"""The node-by-node enclosure's constant subtrees (``theory.prover.coq.unbounded``) without coqc: a subtree
with no variable and a function in it is one node whose two facts one Interval call proves on the whole
term (no fact for the nodes inside it), its ends enclosing the constant's value (mpmath at 60 digits, not
the kernel's ball); and a monotone node's comparison with its argument's end is non-strict alone where
the argument's fact is non-strict (the strict form could not follow from it)."""

from __future__ import annotations

import re
from fractions import Fraction

import mpmath
import pytest

pytest.importorskip("flint", reason="the exporter reads certificates with the kernel (python-flint)")

from tests.helpers.coq_runs import exported_on_half_line

JOINT = re.compile(r"assert \((N\d+) : \((-?\d+) / (\d+)\) <= (n\d+) <= \((-?\d+) / (\d+)\)\) by \(([^;]*);")


def test_a_constant_subtree_is_one_node_proved_by_one_interval_call():
    """x + sqrt(3) * log(5) / 7 > 0 on [0, oo): the constant sqrt(3) log(5) / 7 is one node, both its
    facts from one Interval call, its ends around sqrt(3) log(5) / 7; no fact of log 5 or sqrt 3 alone."""
    constant = ["mul", ["pow", ["num", "3"], ["num", "1/2"]], ["log", ["num", "5"]], ["num", "1/7"]]
    text = exported_on_half_line(["add", ["var", "x"], constant])
    (joint,) = JOINT.findall(text)
    _, p, q, node, r, s, proof = joint
    assert proof == f"unfold {node}"
    assert re.search(rf"unfold {node}; try unfold Rpower; interval with \(i_prec \d+\)\)", text)
    with mpmath.workdps(60):
        value = mpmath.sqrt(3) * mpmath.log(5) / 7
        assert mpmath.mpf(int(p)) / int(q) <= value <= mpmath.mpf(int(r)) / int(s)
        assert Fraction(int(r), int(s)) - Fraction(int(p), int(q)) < Fraction(1, 10**15)
    assert not re.search(r"<= \(?ln 5\)?\)|<= \(?sqrt 3\)?\)", text)
    assert "apply ln_increasing" not in text and "apply sqrt_lt_1_alt" not in text


def test_a_non_strict_argument_fact_gets_the_non_strict_comparison_alone():
    """log(1 + x) >= 0 on [0, oo) (non-strict): 1 <= 1 + x is non-strict, so ln 1 <= ln (1 + x) by
    sb_ln_le without trying ln_increasing first."""
    text = exported_on_half_line(["log", ["add", ["num", "1"], ["var", "x"]]], strict=False)
    assert "apply sb_ln_le" in text
    assert "apply ln_increasing" not in text
