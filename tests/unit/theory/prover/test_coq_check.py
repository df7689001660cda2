"""Exported Coq files checked by coqc: an accepted proof rests only on the axioms of Coq's reals and
Interval (Print Assumptions), printed terms evaluate in Coq to arb's values, and planted mistranslations
(ln as log10, a swapped bound, a dropped strictness) make a known-true file fail or a known-false one
impossible to prove. A few small coqc runs (about 2-8 CPU s each); the whole registry is the slow test."""

from __future__ import annotations

from fractions import Fraction

import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

import sympy as sp

from tests.helpers.certificates import INTEGER_CUT
from tests.helpers.coq_marks import NEEDS_COQC
from tests.helpers.coq_runs import bracket, coq_checked, proved_certificate
from theory.prover.coq.coqc import TRUSTED_AXIOMS, check_file
from theory.prover.coq.export import export_certificate
from theory.prover.coq.preamble import preamble
from theory.prover.coq.terms import rational, term
from theory.prover.kernel import check_certificate, trees
from theory.prover.kernel.verify import environment, precision, read_domain
from theory.prover.language import parse_expression, to_tree

pytestmark = [
    pytest.mark.coq,
    pytest.mark.slow,
    NEEDS_COQC,
]


def test_a_monotone_certificate_is_accepted_and_rests_only_on_the_reals_and_interval(tmp_path):
    certificate = proved_certificate("log(1 + x) <= x", "x: [0, 1]")
    assert {box["decision"]["method"] for box in certificate["boxes"]} == {"monotone"}
    verdict = coq_checked(certificate, tmp_path)
    assert verdict.status == "accepted", verdict.reason
    assert verdict.axioms, "Print Assumptions listed nothing: the theorem was not printed"
    assert all(axiom.startswith(TRUSTED_AXIOMS) for axiom in verdict.axioms)
    assert any(axiom.startswith("ClassicalDedekindReals.") for axiom in verdict.axioms)


SAMPLES = [
    "log(1 + x) - x/3",
    "exp(-x^2) * atan(y)",
    "sqrt(x + y) / (1 + x^2)",
    "Abs(x - 2*y) + Max(x, y, 1/3) - Min(x, 2)",
    "(x + 1)^(-3) + x^(5/2)",
    "(1 + x)^(y/3)",
    "pi * E^x - log(x)",
]
POINTS = [{"x": Fraction(3, 7), "y": Fraction(5, 4)}, {"x": Fraction(2), "y": Fraction(1, 3)}]


def test_printed_terms_evaluate_in_coq_to_arbs_values_at_rational_points(tmp_path):
    """Each sample, printed, is enclosed by Coq's Interval in arb's ball (the kernel's enclosure of the
    same tree) widened by 1e-12: a mistranslated function or constant would miss it by far more."""
    symbols = {name: sp.Symbol(name, positive=True) for name in ("x", "y")}
    domain = read_domain(
        [
            {"name": n, "lower": "0", "upper": "oo", "lower_open": True, "upper_open": True, "integer": False}
            for n in ("x", "y")
        ]
    )
    lemmas = []
    for index, text in enumerate(SAMPLES):
        tree = to_tree(parse_expression(text, symbols))
        printed = term(tree, lambda base: True)
        lemmas.append(f"Definition f_{index} (v_x v_y : R) : R := {printed}.")
        for j, point in enumerate(POINTS):
            with precision(256):
                value = trees.enclose(tree, environment({n: (v, v) for n, v in point.items()}, domain))
            low, high = bracket(value)
            arguments = " ".join(rational(point[n]) for n in ("x", "y"))
            lemmas.append(
                f"Lemma f_{index}_{j} : {rational(low)} <= f_{index} {arguments} <= {rational(high)}.\n"
                f"Proof. unfold f_{index}. interval with (i_prec 100). Qed."
            )
    path = tmp_path / "Terms.v"
    path.write_text(preamble() + "\n" + "\n".join(lemmas) + "\n", encoding="utf-8")
    verdict = check_file(path)
    assert verdict.status == "accepted", verdict.reason


def _bounds_with(replace: tuple[str, str]):
    """A bounds printer that rewrites each premise ``replace[0]`` as ``replace[1]`` (a planted mistake)."""
    from theory.prover.coq.export import _Writer

    original = _Writer.bounds

    def planted(self, box):
        return [replace[1] if premise == replace[0] else premise for premise in original(self, box)]

    return planted


@pytest.mark.parametrize(
    ("name", "statement", "domain"),
    [
        ("ln as log10", "log(x) >= 1", "x: [3, 4]"),
        ("a swapped bound", "x <= 1", "x: [0, 1]"),
        ("a dropped strictness", "x > 0", "x: (0, 1]"),
    ],
)
def test_a_planted_mistranslation_is_not_accepted(name, statement, domain, tmp_path, monkeypatch):
    """ln printed as log10 makes the true ln x >= 1 on [3, 4] unprovable; the upper bound x <= 1 printed
    as 1 <= x, or the open end 0 < x printed as 0 <= x, states a false theorem: coqc rejects all three."""
    from theory.prover.coq import export, terms

    certificate = proved_certificate(statement, domain)
    if name == "ln as log10":
        monkeypatch.setitem(terms.FUNCTIONS, "log", "(fun z => ln z / ln 10)")
    elif name == "a swapped bound":
        monkeypatch.setattr(export._Writer, "bounds", _bounds_with(("v_x <= 1", "1 <= v_x")))
    else:
        monkeypatch.setattr(export._Writer, "bounds", _bounds_with(("0 < v_x", "0 <= v_x")))
    verdict = coq_checked(certificate, tmp_path)
    assert verdict.status == "rejected"


@pytest.mark.parametrize(
    ("statement", "domain"), [("log(x) >= 1", "x: [3, 4]"), ("x <= 1", "x: [0, 1]"), ("x > 0", "x: (0, 1]")]
)
def test_the_unplanted_files_of_the_mistranslation_tests_are_accepted(statement, domain, tmp_path):
    verdict = coq_checked(proved_certificate(statement, domain), tmp_path)
    assert verdict.status == "accepted", verdict.reason


def test_a_rewrite_certificate_is_accepted(tmp_path):
    """4 q (1 - q) <= 1 on [0, 1]: the kernel rewrites the gap as (1 - 2q)^2; coqc proves the identity by
    ring and the square's sign by Interval (a hypothesis before the rewrite step was translated)."""
    certificate = proved_certificate("4*q*(1 - q) <= 1", "q: [0, 1]")
    assert {box["decision"]["method"] for box in certificate["boxes"]} == {"rewrite"}
    verdict = coq_checked(certificate, tmp_path)
    assert verdict.status == "accepted", verdict.reason


@pytest.mark.parametrize(
    ("statement", "domain"),
    [
        ("log(2 + x*y) > 0", "x: [0, oo), y: [1, oo)"),
        ("exp(-x)*sqrt(y)/(1 + y^2) >= 0", "x: [0, oo), y: [0, oo)"),
    ],
)
def test_an_enclosure_on_a_box_reaching_infinity_is_accepted_node_by_node(statement, domain, tmp_path):
    """Interval ignores one-sided bounds, so these were named hypotheses before; the kernel's enclosure
    carried node by node (lra, nra, monotonicity lemmas, Interval on constants) is accepted."""
    certificate = proved_certificate(statement, domain)
    assert [box["decision"]["method"] for box in certificate["boxes"]] == ["enclosure"]
    verdict = coq_checked(certificate, tmp_path)
    assert verdict.status == "accepted", verdict.reason
    assert all(axiom.startswith(TRUSTED_AXIOMS) for axiom in verdict.axioms)


def test_an_even_power_of_a_negative_half_line_is_accepted_node_by_node(tmp_path):
    """x^4 - 81 >= 0 on x <= -3 (the gelu derivative's slope has such a part): x^4 is (-x)^4 with
    -x >= 3 (by ring), whose bound is the monotonicity of pow on x >= 0; it was a hypothesis before."""
    from tests.helpers.certificates import box_certificate, domain_variable

    gap = ["add", ["pow", ["var", "x"], ["num", "4"]], ["num", "-81"]]
    box = {"box": {"x": ["-oo", "-3"]}, "decision": {"method": "enclosure"}}
    certificate = box_certificate(gap, [domain_variable("x", "-oo", "-3", lower_open=True)], [box])
    assert check_certificate(certificate).accepted
    verdict = coq_checked(certificate, tmp_path)
    assert verdict.status == "accepted", verdict.reason


def test_a_false_bound_on_a_half_line_is_not_proved_node_by_node(tmp_path, monkeypatch):
    """The node facts are checked by Coq, not trusted: a kernel set shifted up by 1 (a planted fault in
    the exported ends) makes log(2 + x y) > 0's file fail where its facts are used."""
    from theory.prover.kernel import trees

    certificate = proved_certificate("log(2 + x*y) > 0", "x: [0, oo), y: [1, oo)")
    real = trees.dyadic
    monkeypatch.setattr(trees, "dyadic", lambda end, lower: real(end, lower) + 1)
    verdict = coq_checked(certificate, tmp_path)
    assert verdict.status == "rejected"


def test_a_cover_with_an_integer_cut_is_accepted(tmp_path):
    """The integer cut 2 | 3 of n - 1 >= 0 over 1..5: coqc accepts the integrality step; the same boxes over
    the reals leave (2, 3) uncovered, and that file is rejected (the cut needs the integrality premise)."""

    verdict = coq_checked(INTEGER_CUT, tmp_path)
    assert verdict.status == "accepted", verdict.reason
    real = {**INTEGER_CUT, "domain": [{**INTEGER_CUT["domain"][0], "integer": False}]}
    assert coq_checked(real, tmp_path).status == "rejected"


def test_a_monotone_box_of_a_general_power_on_a_half_line_is_accepted(tmp_path):
    """s^p <= (d + s)^p, increasing in d from the face d = 0 over d in [0, oo): Coquelicot's derivative of
    exp(p ln(d + s)) equals the kernel's p (d + s)^(p - 1) only after exp((p - 1) L) = exp(p L) / (d + s)
    (sb_powers); the sign is proved node by node on the half-line (a hypothesis before)."""
    certificate = proved_certificate("s^p <= (d + s)^p", "s: (0, oo), d: [0, oo), p: (0, 2]")
    assert [box["decision"]["method"] for box in certificate["boxes"]] == ["monotone"]
    verdict = coq_checked(certificate, tmp_path)
    assert verdict.status == "accepted", verdict.reason


def test_max_on_a_half_line_is_accepted_through_its_normal_form(tmp_path):
    """x + y + 1 <= 3 Max(x, y) on [1, oo)^2: the kernel encloses the exact normal form (with |x - y|); the
    identity with the printed (a + b + Rabs (a - b)) / 2 and the Rabs node are proved by sign splits."""
    certificate = proved_certificate("x + y + 1 <= 3*Max(x, y)", "x: [1, oo), y: [1, oo)")
    assert [box["decision"]["method"] for box in certificate["boxes"]] == ["enclosure"]
    assert "sb_unabs" in export_certificate(certificate).text
    verdict = coq_checked(certificate, tmp_path)
    assert verdict.status == "accepted", verdict.reason


@pytest.mark.parametrize(
    ("statement", "domain"),
    [
        ("c1 + c2 <= sqrt(2)*sqrt(c1^2 + c2^2)", "c1: [0, oo), c2: [0, oo)"),
        ("x + 1 <= sqrt(2)*sqrt(x^2 + 1)", "x: [0, 3]"),
    ],
)
def test_a_squares_step_is_accepted(statement, domain, tmp_path):
    """The kernel's squares step (A >= B from A, B >= 0 and A^2 - B^2 >= 0) on a half-line and on a bounded
    box: sb_squares, the two signs, then the nested decision on A A - B B (a hypothesis before)."""
    certificate = proved_certificate(statement, domain)
    assert [box["decision"]["method"] for box in certificate["boxes"]] == ["squares"]
    verdict = coq_checked(certificate, tmp_path)
    assert verdict.status == "accepted", verdict.reason


def test_a_cover_with_nested_cuts_is_accepted(tmp_path):
    """Three boxes of [0, 3]: two nested cuts, whose case hypotheses need names of their own (one name for
    both made coqc refuse every cover deeper than one cut)."""
    certificate = {
        "format": "specbound-certificate/2",
        "inequality": "",
        "gap": ["var", "x"],
        "strict": False,
        "domain": [
            {
                "name": "x",
                "lower": "0",
                "upper": "3",
                "lower_open": False,
                "upper_open": False,
                "integer": False,
            }
        ],
        "boxes": [
            {"box": {"x": [lo, hi]}, "decision": {"method": "enclosure"}}
            for lo, hi in (("0", "1"), ("1", "2"), ("2", "3"))
        ],
    }
    verdict = coq_checked(certificate, tmp_path)
    assert verdict.status == "accepted", verdict.reason
