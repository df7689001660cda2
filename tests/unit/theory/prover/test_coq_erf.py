"""erf in the Coq export: the preamble's ``sb_erf`` (2/sqrt(pi) RInt (fun t => exp (-(t*t))) 0 x) evaluates
in Coq to arb's erf at rational points, a planted mistranslation of it (the factor 2/sqrt(pi) dropped,
exp(-t) for exp(-t^2)) misses those values and makes a known-true certificate's file fail, and a
certificate with erf is accepted with no hypothesis (its boxes through Interval with each erf(u) an atom
bounded by the integral, or node by node on a half-line with |erf| < 1 from the Gaussian integral).
coqc runs of about 5-40 CPU s each; the planted certificates are slow tests."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

import sympy as sp

from tests.helpers.coq_marks import NEEDS_COQC
from tests.helpers.coq_runs import bracket, coq_checked, proved_certificate
from theory.prover.coq import preamble as preamble_module
from theory.prover.coq.coqc import TRUSTED_AXIOMS, check_file
from theory.prover.coq.export import export_certificate
from theory.prover.coq.preamble import ERF_DEFINITION, preamble
from theory.prover.coq.terms import rational, term
from theory.prover.kernel import trees
from theory.prover.kernel.verify import environment, precision, read_domain
from theory.prover.language import parse_expression, to_tree

pytestmark = [
    pytest.mark.coq,
    pytest.mark.slow,
    NEEDS_COQC,
]

SAMPLES = ["erf(x)", "1 + erf(x - y)/2"]
POINTS = [{"x": Fraction(3, 7), "y": Fraction(5, 4)}, {"x": Fraction(2), "y": Fraction(1, 3)}]
SLACK = Fraction(1, 10**9)
PLANTS = {
    "the factor 2/sqrt(pi) dropped": ("2 / sqrt PI * RInt", "RInt"),
    "exp(-t) for exp(-t^2)": ("exp (-(t*t))", "exp (- t)"),
}


def _points_file(definition: str, path: Path) -> Path:
    """The samples printed, each enclosed at the points in arb's ball (the kernel's erf) widened by 1e-9
    (Interval's integral at 64 bits; each plant moves every sample's value by more than 1%), proved by
    the integral on ``definition`` of sb_erf alone."""
    symbols = {name: sp.Symbol(name, positive=True) for name in ("x", "y")}
    domain = read_domain(
        [
            {"name": n, "lower": "0", "upper": "oo", "lower_open": True, "upper_open": True, "integer": False}
            for n in ("x", "y")
        ]
    )
    lemmas = [definition]
    for index, text in enumerate(SAMPLES):
        tree = to_tree(parse_expression(text, symbols))
        lemmas.append(f"Definition f_{index} (v_x v_y : R) : R := {term(tree, lambda base: True)}.")
        for j, point in enumerate(POINTS):
            with precision(256):
                value = trees.enclose(tree, environment({n: (v, v) for n, v in point.items()}, domain))
            low, high = bracket(value)
            low, high = low - SLACK, high + SLACK
            arguments = " ".join(rational(point[n]) for n in ("x", "y"))
            lemmas.append(
                f"Lemma f_{index}_{j} : {rational(low)} <= f_{index} {arguments} <= {rational(high)}.\n"
                f"Proof. unfold f_{index}, sb_erf. integral with (i_prec 64). Qed."
            )
    path.write_text(preamble() + "\n" + "\n".join(lemmas) + "\n", encoding="utf-8")
    return path


def test_printed_erf_evaluates_in_coq_to_arbs_values_at_rational_points(tmp_path):
    verdict = check_file(_points_file(ERF_DEFINITION, tmp_path / "Erf.v"))
    assert verdict.status == "accepted", verdict.reason


@pytest.mark.parametrize("plant", sorted(PLANTS))
def test_a_planted_erf_misses_arbs_values(plant, tmp_path):
    old, new = PLANTS[plant]
    assert old in ERF_DEFINITION
    verdict = check_file(_points_file(ERF_DEFINITION.replace(old, new), tmp_path / "Erf.v"))
    assert verdict.status == "rejected"


KNOWN_TRUE = ("erf(x) >= 21/25", "x: [1, 2]")
"""erf(1) = 0.8427..., so erf >= 0.84 on [1, 2]; without the factor 2/sqrt(pi) erf(1) would be 0.7468, with
exp(-t) 0.7133."""


def test_a_certificate_with_erf_is_accepted_and_rests_only_on_the_reals_and_interval(tmp_path):
    exported = export_certificate(proved_certificate(*KNOWN_TRUE))
    assert "(sb_erf v_x)" in exported.text and exported.hypotheses == []
    path = tmp_path / "Erf.v"
    path.write_text(exported.text, encoding="utf-8")
    verdict = check_file(path)
    assert verdict.status == "accepted", verdict.reason
    assert all(axiom.startswith(TRUSTED_AXIOMS) for axiom in verdict.axioms)


def test_erf_on_a_half_line_is_accepted_node_by_node(tmp_path):
    """|x Phi(x)| <= |x| for x >= 0 needs erf < 1 on the whole half-line: the Gaussian integral."""
    verdict = coq_checked(proved_certificate("x*(1 + erf(x))/2 <= x", "x: >= 0"), tmp_path)
    assert verdict.status == "accepted", verdict.reason


@pytest.mark.parametrize("plant", sorted(PLANTS))
def test_a_planted_erf_makes_a_known_true_file_fail(plant, tmp_path, monkeypatch):
    old, new = PLANTS[plant]
    monkeypatch.setattr(
        preamble_module, "ERF", preamble_module.ERF.replace(ERF_DEFINITION, ERF_DEFINITION.replace(old, new))
    )
    verdict = coq_checked(proved_certificate(*KNOWN_TRUE), tmp_path)
    assert verdict.status == "rejected"
