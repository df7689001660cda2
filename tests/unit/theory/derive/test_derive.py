"""specbound derive: the worked examples, the planted mistakes (each refuted at its own step with a
witness where the step fails), the derivation certificate re-checked by prove --check, and its tampering
rejected."""

from __future__ import annotations

import copy
import json
import math

import pytest

from tests.helpers.paths import ROOT

pytest.importorskip("flint", reason="the prover needs python-flint")

from paper_checks.cli import main
from theory.derive import check_derivation, derive
from theory.paper_proofs import facts

EXAMPLES = ROOT / "docs" / "examples"
SMALL = EXAMPLES / "log_below_quadratic.toml"


def test_the_small_example_is_proved_and_its_certificate_is_accepted(tmp_path, capsys):
    result = derive(SMALL, 5)
    assert result.status == "proved"
    assert [s.method for s in result.steps] == ["prover", "prover", "exact", "prover"]
    assert result.hypotheses == ("at_most_one",)
    checked = check_derivation(result.certificate())
    assert checked.accepted and checked.status == "proved"
    assert checked.hypotheses == ("x <= 1",)  # the bound cut the last step's domain to [0, 1]
    out = tmp_path / "chain.json"
    assert main(["derive", str(SMALL)]) == 0  # no --certificate: the line says nothing was written
    line = capsys.readouterr().out.splitlines()[-1]
    assert line.startswith("certificate: 4 steps") and "not written" in line and not out.exists()
    assert main(["derive", str(SMALL), "--certificate", str(out)]) == 0
    assert f"written to {out}; re-check with specbound prove --check {out}" in capsys.readouterr().out
    assert main(["prove", "--check", str(out)]) == 0
    assert "accepted: 2*log(x + 1) <= 3*x  over  x: [0, oo)" in capsys.readouterr().out
    edited = {**json.loads(out.read_text(encoding="utf-8")), "title": "2*log(1 + x) <= x"}
    out.write_text(json.dumps(edited), encoding="utf-8")  # false at x = 1: 2 ln 2 > 1
    assert main(["prove", "--check", str(out)]) == 1
    assert "title states an inequality other than the conclusion" in capsys.readouterr().out


def test_a_tampered_derivation_certificate_is_rejected(tmp_path, capsys):
    certificate = derive(SMALL, 5).certificate()
    assert certificate is not None
    tampered = []
    dropped = copy.deepcopy(certificate)  # the last step without its assumption x <= 1: not its domain
    dropped["steps"][3]["assumptions"] = []
    tampered.append(dropped)
    stronger = copy.deepcopy(certificate)  # a strict conclusion the steps do not give
    stronger["conclusion"]["relation"] = "<"
    tampered.append(stronger)
    gap = copy.deepcopy(certificate)  # the identity step's right side changed to x^2 + 3 x
    gap["steps"][2]["rhs"] = ["add", ["pow", ["var", "x"], ["num", "2"]], ["mul", ["num", "3"], ["var", "x"]]]
    gap["steps"][3]["lhs"] = gap["steps"][2]["rhs"]
    tampered.append(gap)
    for data in tampered:
        assert not check_derivation(data).accepted
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(stronger), encoding="utf-8")
    assert main(["prove", "--check", str(path)]) == 1
    assert "REJECTED" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("old", "new", "step", "fails"),
    [
        # a dropped factor 2: 2 ln(1 + x) <= x is false (x = 1: 1.386 > 1)
        (
            'relation = "<="\nexpr = "2*x"',
            'relation = "<="\nexpr = "x"',
            "log below its tangent",
            lambda x: 2 * math.log1p(x) > x,
        ),
        # an inequality in the wrong direction: subtracting x^2 instead of adding it
        ('expr = "x^2 + 2*x"', 'expr = "2*x - x^2"', "add x^2 >= 0", lambda x: 2 * x > 2 * x - x**2),
    ],
)
def test_planted_inequality_mistakes_are_refuted_at_their_step(edited_file, old, new, step, fails):
    result = derive(edited_file(SMALL, old, new), 5)
    assert result.status == "refuted"
    failure = result.first_failure
    assert failure is not None and failure.step.name == step
    assert fails(float(failure.witness.point["x"]))  # the step fails at the witness, by floats


def test_a_wrong_exponent_in_an_identity_is_refuted_where_the_sides_differ(edited_file):
    path = edited_file(SMALL, 'q = "x*(x + 2)"', 'q = "x^3 + 2*x"')
    result = derive(path, 5)
    failure = result.first_failure
    assert failure is not None and failure.step.name == "factor" and failure.step.relation == "="
    x = float(failure.witness.point["x"])
    assert x**2 + 2 * x != x**3 + 2 * x


def test_an_assumption_that_does_not_imply_the_step_is_refuted_inside_it(edited_file):
    path = edited_file(SMALL, 'at_most_one = "x <= 1"', 'at_most_one = "x <= 2"')
    result = derive(path, 5)
    failure = result.first_failure
    assert failure is not None and failure.step.name == "x <= 1 gives x^2 <= x"
    x = failure.witness.point["x"]
    assert x <= 2 and x**2 + 2 * x > 3 * x  # the assumption holds there, the step does not


def test_a_step_true_only_from_three_on_is_refuted_when_stated_from_one(tmp_path):
    text = """title = "L + 3 <= 2 L"
[variables]
L = "integer >= 1"
[assumptions]
deep = "L >= 3"
[[steps]]
expr = "L + 3"
[[steps]]
name = "needs L >= 3"
relation = "<="
expr = "2*L"
"""
    stated = tmp_path / "from_one.toml"
    stated.write_text(text, encoding="utf-8")
    result = derive(stated, 5)
    assert result.status == "refuted" and result.first_failure.step.name == "needs L >= 3"
    assert result.first_failure.witness.point["L"] in (1, 2)
    fixed = tmp_path / "from_three.toml"
    fixed.write_text(text + 'uses = ["deep"]\n', encoding="utf-8")
    assert derive(fixed, 5).status == "proved"


def test_a_proved_lemma_and_an_earlier_derivation_enter_as_assumptions(tmp_path):
    (tmp_path / "earlier.toml").write_text(
        '[variables]\nt = "(0, 1]"\np = "(0, 2]"\n[[steps]]\nexpr = "t^2"\n'
        '[[steps]]\nrelation = "<="\nexpr = "t^p"\n',
        encoding="utf-8",
    )
    for use in ("lemma:sharp_tail_termwise", "file:earlier.toml"):
        path = tmp_path / "uses.toml"
        path.write_text(
            '[variables]\nt = "(0, 1]"\np = "(0, 2]"\n[[steps]]\nexpr = "t^2/2"\n'
            f'[[steps]]\nrelation = "<="\nexpr = "t^p/2 + 1"\nuses = ["{use}"]\n',
            encoding="utf-8",
        )
        result = derive(path, 5, facts())
        assert result.status == "proved", (use, result.to_json(False))
        record = result.certificate()["steps"][0]["assumptions"][0]
        assert record["kind"] == ("lemma" if use.startswith("lemma") else "derivation")
        assert check_derivation(result.certificate()).accepted


def test_the_bartlett_example_is_proved_and_accepted():
    # both identities reach 0 in the kernel's exact normal form (B^a B^b = B^(a+b) for one base)
    result = derive(EXAMPLES / "bartlett_spectral_complexity.toml", 5)
    assert [s.status for s in result.steps] == ["proved", "proved", "proved"]
    assert result.status == "proved"
    checked = check_derivation(result.certificate())
    assert checked.accepted and checked.status == "proved"
