"""The kernel's univariate ``polynomial`` step as a Coq proof (theory/prover/coq/polynomials.py): the
identity gap = c * O * (E * E) from Yun's decomposition, ``sb_even_power`` and 0 <= c * O by nra or
Interval. Touching minima (whose truth is checked by hand: each gap factors as a square times a factor
positive on the range) are accepted by coqc with no hypothesis; a file whose factor is planted wrong is
refused. coqc runs of 3-10 CPU s each: slow."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from tests.helpers.coq_marks import NEEDS_COQC
from tests.helpers.coq_runs import assert_accepted, proved_together
from theory.prover.coq.coqc import check_file
from theory.prover.coq.polynomials import factored

pytestmark = [
    pytest.mark.coq,
    pytest.mark.slow,
    NEEDS_COQC,
]

TOUCHING = [
    # x^4 - x^3 + 27/256 = (x - 3/4)^2 (x^2 + x/2 + 3/16), the last factor (x + 1/4)^2 + 1/8 > 0
    ("x^4 - x^3 >= -27/256", "x: real"),
    # (x - 1)^2 (x^3 - 3 x + 3): x^3 - 3 x + 3 has its minimum 1 on [0, 2] at x = 1
    ("(x - 1)^2*(x^3 - 3*x + 3) >= 0", "x: [0, 2]"),
    # x^3 - 3 x + 2 = (x - 1)^2 (x + 2) >= 0 for x >= -2
    ("x^3 + 2 >= 3*x", "x: >= -2"),
]


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    """Every case's file, judged by coqc together (tests.helpers.coq_runs.proved_together)."""
    return proved_together(TOUCHING, tmp_path_factory.mktemp("polynomial"))


def test_the_decomposition_matches_the_hand_factors():
    p = [Fraction(27, 256), Fraction(0), Fraction(0), Fraction(-1), Fraction(1)]
    signed, even = factored(p, "x")
    assert signed == [
        "mul",
        ["num", "1"],
        [
            "add",
            ["num", "3/16"],
            ["mul", ["num", "1/2"], ["pow", ["var", "x"], ["num", "1"]]],
            ["mul", ["num", "1"], ["pow", ["var", "x"], ["num", "2"]]],
        ],
    ]
    assert even == ["add", ["num", "-3/4"], ["mul", ["num", "1"], ["pow", ["var", "x"], ["num", "1"]]]]


@pytest.mark.parametrize(("statement", "domain"), TOUCHING)
def test_a_touching_polynomial_is_proved_in_coq_by_its_decomposition(statement, domain, judged):
    case = judged[(statement, domain)]
    assert_accepted(case)
    assert '"polynomial"' in json.dumps(case.document["inequalities"][0]["certificate"]["boxes"])
    assert "sb_even_power" in case.text


def test_a_file_with_its_odd_factor_planted_wrong_is_refused(tmp_path, judged):
    """With x^2 + x/2 + 3/16 replaced by x^2 + x/2 - 3/16 (which has real roots) in the file, the identity
    and the sign no longer hold: coqc refuses it."""
    text = judged[TOUCHING[0]].text
    right = "3 / 16"
    assert right in text
    planted = tmp_path / "Planted.v"
    planted.write_text(text.replace(right, "(-3) / 16"), encoding="utf-8")
    assert check_file(planted).status == "rejected"
