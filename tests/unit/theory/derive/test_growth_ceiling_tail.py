"""Half-line claims with ceilings and logarithms of sums in L (theory.derive.tail_substitution): one kernel
certificate through the changes of variables t = ceiling(z) - z and r = X / L^d, accepted by prove --check,
not found just below the crossover (false there, by floats), and tampered certificates (a moved start, a
range of t or r that the map does not stay in) rejected by the kernel; the worked example of the l2 bound
against Edelman's gap at minilm-l6's constants, proved by derive and growth (slow)."""

from __future__ import annotations

import copy
import json
import math
import tomllib
from fractions import Fraction

import pytest

from tests.helpers.paths import ROOT

pytest.importorskip("flint", reason="the prover needs python-flint")

from paper_checks.cli import main
from theory.derive import check_derivation, derive
from theory.derive.half_line import tail_certificate
from theory.prover import check_certificate

LOWER, UPPER, START = "10*sqrt(L*log(ceiling(2*L) + 1))", "L^(3/2)", 20
EXAMPLE = ROOT / "docs" / "examples" / "l2_below_edelman_minilm_l6.toml"


def _low(x: float) -> float:
    return 10 * math.sqrt(x * math.log(math.ceil(2 * x) + 1))


def _substitutions(decision: dict) -> list[dict]:
    """The nested substitute decisions, outermost first."""
    found = []
    while decision.get("method") in ("substitute", "rewrite"):
        if decision["method"] == "substitute":
            found.append(decision)
            decision = decision["boxes"][0]["decision"]
        else:
            decision = decision["then"]
    return found


@pytest.fixture(scope="module")
def certificate() -> dict:
    found = tail_certificate(LOWER, UPPER, "L", Fraction(START))
    assert found is not None
    return found


def test_a_ceiling_tail_is_one_kernel_certificate(certificate, tmp_path, capsys):
    assert check_certificate(certificate).accepted
    first, *_ = _substitutions(certificate["boxes"][0]["decision"])
    (fraction,) = [v for v in first["domain"] if v["name"] != "L"]
    assert (fraction["lower"], fraction["upper"], fraction["upper_open"]) == ("0", "1", True)
    assert first["map"][fraction["name"]][1][0] == "ceiling"  # t = ceiling(2 L) - 2 L
    path = tmp_path / "tail.json"
    path.write_text(json.dumps(certificate), encoding="utf-8")
    assert main(["prove", "--check", str(path)]) == 0
    assert "accepted" in capsys.readouterr().out
    assert _low(START - 1) > (START - 1) ** 1.5  # just below the crossover the claim is false ...
    assert tail_certificate(LOWER, UPPER, "L", Fraction(START - 1)) is None  # ... and nothing proves it


def test_tampered_ceiling_tails_are_rejected(certificate):
    tampered = []
    moved = copy.deepcopy(certificate)  # the claim from L = 19, where it is false
    moved["domain"][0]["lower"] = "19"
    moved["boxes"][0]["box"]["L"][0] = "19"
    tampered.append(moved)
    for level in range(len(_substitutions(certificate["boxes"][0]["decision"]))):
        narrowed = copy.deepcopy(certificate)  # a new variable's set the mapped value leaves
        step = _substitutions(narrowed["boxes"][0]["decision"])[level]
        variable = step["domain"][-1]
        low, high = Fraction(variable["lower"]), Fraction(variable["upper"])
        variable["upper"] = str(low + (high - low) / 2)
        for record in step["boxes"]:
            record["box"][variable["name"]][1] = variable["upper"]
        tampered.append(narrowed)
    assert len(tampered) >= 3
    for data in tampered:
        assert not check_certificate(data).accepted


def test_a_false_claim_with_ceilings_gets_no_certificate():
    # 10^4 times smaller than Edelman's gap, the l2 bound's shape stays above it near L = 1
    assert tail_certificate(LOWER, f"{UPPER}/10000", "L", Fraction(1)) is None


@pytest.mark.slow  # minilm-l6's spectra: 76 s wall at load 10
def test_the_worked_example_states_the_commands_expressions():
    from paper_checks.commands._depth_constants import edelman_versus_l2

    definitions = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))["definitions"]
    assert (definitions["l2_bound"], definitions["edelman_shape"]) == edelman_versus_l2("minilm-l6", "0")[:2]


@pytest.mark.slow
def test_the_worked_example_is_proved_and_its_certificate_accepted(tmp_path, capsys):
    result = derive(EXAMPLE, 10)
    assert result.status == "proved", result.to_json(False)
    checked = check_derivation(result.certificate())
    assert checked.accepted and checked.status == "proved"


@pytest.mark.slow
@pytest.mark.parametrize(("model", "p"), [("minilm-l6", "0"), ("minilm-l6", "1"), ("minilm-l3", "0")])
def test_growth_proves_no_crossover_at_the_embedded_models(tmp_path, capsys, model, p):
    out = tmp_path / "tail.json"
    # a generous budget: the proofs take ~17 CPU s (p = 1), and a loaded machine adds system time to it
    argv = ["growth", "--edelman-at", model, "--p", p, "--integer", "--json", "--budget", "60"]
    argv += ["--certificate", str(out)]
    assert main(argv) == 0
    crossing = json.loads(capsys.readouterr().out)["crossover"]
    assert crossing["crossover"] is None and crossing["status"] == "proved"
    assert main(["prove", "--check", str(out)]) == 0
