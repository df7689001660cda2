"""The crossover's tail proved by one kernel certificate over [L0, oo) (theory.derive.tail): accepted by
prove --check for the documented crossovers, not found just below L0 (where the claim is false, checked
by floats), and rejected by the kernel when moved below L0."""

from __future__ import annotations

import copy
import json
import math
from fractions import Fraction

import pytest

pytest.importorskip("flint", reason="the prover needs python-flint")

from paper_checks.cli import main
from theory.derive.crossover import crossover
from theory.derive.half_line import tail_certificate
from theory.prover import check_certificate

CROSSOVERS = [
    # lower, upper, integer L0, the two sides as floats (an independent reference)
    (
        "100*sqrt(L)*log(L)^(1/2)",
        "L^(3/2)",
        234,
        lambda x: 100 * math.sqrt(x * math.log(x)),
        lambda x: x**1.5,
    ),
    ("L^10", "exp(L)", 36, lambda x: x**10, math.exp),
]


@pytest.mark.parametrize(("lower", "upper", "start", "low", "high"), CROSSOVERS)
def test_the_tail_above_the_crossover_is_one_kernel_certificate(
    tmp_path, capsys, lower, upper, start, low, high
):
    certificate = tail_certificate(lower, upper, "L", Fraction(start))
    assert certificate is not None and check_certificate(certificate).accepted
    assert certificate["boxes"][0]["box"] == {"L": [str(start), "oo"]}
    path = tmp_path / "tail.json"
    path.write_text(json.dumps(certificate), encoding="utf-8")
    assert main(["prove", "--check", str(path)]) == 0
    assert "accepted" in capsys.readouterr().out
    assert low(start - 1) > high(start - 1)  # just below L0 the claim is false ...
    assert tail_certificate(lower, upper, "L", Fraction(start - 1)) is None  # ... and nothing proves it


def test_a_tail_certificate_moved_below_the_crossover_is_rejected():
    certificate = tail_certificate("100*sqrt(L)*log(L)^(1/2)", "L^(3/2)", "L", Fraction(234))
    moved = copy.deepcopy(certificate)
    moved["domain"][0]["lower"] = "200"
    moved["boxes"][0]["box"]["L"][0] = "200"
    assert not check_certificate(moved).accepted


@pytest.mark.parametrize(("lower", "upper", "start", "low", "high"), CROSSOVERS)
def test_the_crossover_is_proved_above_and_refuted_below(lower, upper, start, low, high):
    found = crossover(lower, upper, "L", integer=True, budget_seconds=4)
    assert found.threshold == start and found.status == "proved"
    assert found.below is not None and found.below.point["L"] == start - 1
    assert check_certificate(found.to_json()["certificate"]).accepted


def test_no_crossover_is_proved_on_the_whole_domain():
    found = crossover("sqrt(L)*log(L)^(1/2)", "L^(3/2)", "L", integer=True, budget_seconds=4)
    assert found.threshold is None and found.status == "proved"
    assert found.to_json()["certificate"]["domain"][0]["lower"] == "1"
