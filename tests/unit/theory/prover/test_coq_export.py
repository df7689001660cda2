"""The Coq exporter without coqc: the printed terms, the theorem's domain, hypotheses for what has no
Coq proof yet, and bad input (``theory.prover.coq``)."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

pytest.importorskip("flint", reason="the exporter reads certificates with the kernel (python-flint)")

from tests.helpers.certificates import INTEGER_CUT, box_certificate, domain_variable
from theory.prover.coq.export import export_certificate
from theory.prover.coq.terms import Untranslatable, rational, term
from theory.prover.kernel import Malformed

LOG_GAP = ["add", ["var", "x"], ["mul", ["num", "-1"], ["log", ["add", ["num", "1"], ["var", "x"]]]]]
"""x - log(1 + x), the gap of log(1 + x) <= x."""


def _never_positive(base):
    raise AssertionError("no general power in this tree")


@pytest.mark.parametrize(
    ("tree", "printed"),
    [
        (["num", "3"], "3"),
        (["num", "-3/4"], "(-3 / 4)"),
        (["const", "pi"], "PI"),
        (["const", "e"], "(exp 1)"),
        (LOG_GAP, "(v_x + ((-1) * (ln (1 + v_x))))"),
        (["pow", ["var", "x"], ["num", "3"]], "(v_x ^ 3)"),
        (["pow", ["var", "x"], ["num", "-2"]], "(/ (v_x ^ 2))"),
        (["pow", ["var", "x"], ["num", "-1"]], "(/ v_x)"),
        (["pow", ["var", "x"], ["num", "1/2"]], "(sqrt v_x)"),
        (["pow", ["var", "x"], ["num", "-3/2"]], "(/ ((sqrt v_x) ^ 3))"),
        (["min", ["var", "x"], ["num", "0"]], "((v_x + 0 - Rabs (v_x - 0)) / 2)"),
        (["abs", ["atan", ["exp", ["var", "x"]]]], "(Rabs (atan (exp v_x)))"),
        (["ceiling", ["var", "x"]], "(IZR (Raux.Zceil v_x))"),
        (["floor", ["var", "x"]], "(IZR (Raux.Zfloor v_x))"),
        (["erf", ["mul", ["num", "2"], ["var", "x"]]], "(sb_erf (2 * v_x))"),
        (
            ["piecewise", [["var", "x"], ["lt", ["var", "x"], ["num", "1/2"]]], [["num", "1"], ["true"]]],
            "(if Rlt_dec v_x (1 / 2) then v_x else 1)",
        ),
    ],
)
def test_each_node_prints_as_the_coq_function_of_the_same_value(tree, printed):
    assert term(tree, _never_positive) == printed


def test_a_general_power_is_rpower_only_where_its_base_is_positive_else_the_definition_by_cases():
    power = ["pow", ["var", "x"], ["var", "p"]]
    assert term(power, lambda base: True) == "(Rpower v_x v_p)"
    assert term(power, lambda tree: tree == ["var", "p"]) == "(sb_rpow v_x v_p)"


def test_a_power_whose_base_and_exponent_may_both_be_0_has_no_coq_form():
    """The language's 0^0 is 1; the preamble's sb_rpow 0 0 is 0: such a gap is refused, not misstated."""
    with pytest.raises(Untranslatable, match="0\\^0"):
        term(["pow", ["var", "x"], ["var", "p"]], lambda base: False)


def test_a_piecewise_without_a_last_true_or_with_another_condition_has_no_coq_form():
    x = ["var", "x"]
    with pytest.raises(Untranslatable, match="not True"):
        term(["piecewise", [x, ["lt", x, ["num", "1"]]]], _never_positive)
    with pytest.raises(Untranslatable, match="'and'"):
        term(["piecewise", [x, ["and", ["lt", x, ["num", "1"]]]], [x, ["true"]]], _never_positive)


CHOICE_STEPS = [
    # Max(x^2, x) - x over the reals: the Max bounded below by x^2 (argument 0)
    (
        [
            "add",
            ["max", ["var", "x"], ["pow", ["var", "x"], ["num", "2"]]],
            ["mul", ["num", "-1"], ["var", "x"]],
        ],
        domain_variable("x", "-oo", "oo", True, True),
        {"method": "bound", "argument": 0, "then": {"method": "enclosure"}},
        ["sb_max_above", "Lemma box_1_bound :"],
    ),
    # x - floor(x) on [0, 3]: the fraction t in [0, 1) in a module of its own
    (
        ["add", ["var", "x"], ["mul", ["num", "-1"], ["floor", ["var", "x"]]]],
        domain_variable("x", "0", "3"),
        {"method": "fractional", "then": {"method": "enclosure"}},
        ["Module box_1_fractions.", "sb_floor_fraction (fun w => box_1_fractions.gap v_x w)"],
    ),
    # 1/2 - Piecewise((x, x < 1/2), (1 - x, True)) on [0, 1]: one lemma per branch, on its region
    (
        [
            "add",
            ["num", "1/2"],
            [
                "mul",
                ["num", "-1"],
                [
                    "piecewise",
                    [["var", "x"], ["lt", ["var", "x"], ["num", "1/2"]]],
                    [["add", ["num", "1"], ["mul", ["num", "-1"], ["var", "x"]]], ["true"]],
                ],
            ],
        ],
        domain_variable("x", "0", "1"),
        {"method": "cases", "branches": [{"method": "enclosure"}, {"method": "enclosure"}]},
        [
            "Lemma box_1_case_0 : forall v_x : R, 0 <= v_x -> v_x < (1 / 2) ->",  # open, as the region
            "Lemma box_1_case_1 : forall v_x : R, (1 / 2) <= v_x -> v_x <= 1 ->",
            "destruct (Rlt_dec v_x (1 / 2)) as [C0|C0]",
        ],
    ),
]


@pytest.mark.parametrize(("gap", "variable", "decision", "expected"), CHOICE_STEPS)
def test_the_kernels_case_splits_are_applied_not_stated_as_hypotheses(gap, variable, decision, expected):
    bounds = [variable["lower"], variable["upper"]]
    exported = export_certificate(
        box_certificate(gap, [variable], [{"box": {"x": bounds}, "decision": decision}])
    )
    assert exported.hypotheses == []
    assert "Hypothesis" not in exported.text
    for text in expected:
        assert text in exported.text


@pytest.mark.parametrize("function", ["erfc", "tanh"])
def test_a_function_without_a_coq_form_is_named(function):
    with pytest.raises(Untranslatable, match=function):
        term([function, ["var", "x"]], _never_positive)


def test_rationals_are_exact():
    assert rational(Fraction(-7, 3)) == "(-7 / 3)"
    assert rational(Fraction(10**40)) == str(10**40)


def test_the_domain_as_given_and_monotone_boxes_with_open_or_infinite_ends_through_the_kernels_derivative():
    certificate = box_certificate(
        LOG_GAP,
        [domain_variable("x", "-1", "oo", lower_open=True, upper_open=True)],
        [
            {
                "box": {"x": ["-1", "0"]},
                "decision": {
                    "method": "monotone",
                    "variable": "x",
                    "direction": "decreasing",
                    "then": {"method": "enclosure"},
                },
            },
            {
                "box": {"x": ["0", "oo"]},
                "decision": {
                    "method": "monotone",
                    "variable": "x",
                    "direction": "increasing",
                    "then": {"method": "enclosure"},
                },
            },
        ],
    )
    exported = export_certificate(certificate)
    assert "Theorem statement : forall v_x : R, (-1) < v_x -> 0 <= gap v_x." in exported.text
    assert "Definition gap (v_x : R) : R := (v_x + ((-1) * (ln (1 + v_x))))." in exported.text
    assert exported.hypotheses == []
    assert "Lemma box_2 : forall v_x : R, 0 <= v_x -> 0 <= gap v_x." in exported.text
    assert "Lemma box_2_slope : forall v_x : R, 0 < v_x -> 0 <= (" in exported.text
    assert "refine (sb_step_increasing (fun v_x => gap v_x) (fun v_x => " in exported.text
    assert "refine (sb_step_decreasing (fun v_x => gap v_x) (fun v_x => " in exported.text
    assert "refine (sb_cut _ v_x 0 _ _); intros C1." in exported.text
    assert "Lemma box_1_face : forall v_x : R, 0 <= v_x -> v_x <= 0 -> 0 <= gap v_x." in exported.text
    assert not re.search(r"\b(Admitted|Axiom|admit)\b", exported.text)


def test_an_unknown_method_exports_as_a_named_hypothesis_and_closed_strict_ends_print_as_written():
    certificate = box_certificate(
        ["var", "x"],
        [domain_variable("x", "1", "2", upper_open=True)],
        [{"box": {"x": ["1", "2"]}, "decision": {"method": "taylor", "order": 3}}],
        strict=True,
    )
    exported = export_certificate(certificate)
    assert [(h.name, h.reason) for h in exported.hypotheses] == [
        ("box_1", "the method 'taylor' has no Coq proof in the exporter yet")
    ]
    assert "Theorem statement : forall v_x : R, 1 <= v_x -> v_x < 2 -> 0 < gap v_x." in exported.text
    assert "Section Certificate." in exported.text and "End Certificate." in exported.text


def test_an_integer_variable_ranges_over_the_integers_and_its_cut_uses_integrality():
    exported = export_certificate(INTEGER_CUT)
    assert (
        "Theorem statement : forall v_n : R, (exists k : Z, v_n = IZR k) -> 1 <= v_n -> v_n <= 5 -> "
        "0 <= gap v_n." in exported.text
    )
    assert "intros v_n I_v_n D0 D1." in exported.text
    assert "refine (sb_cut_integer _ v_n (3)%Z I_v_n _ _); intros C1." in exported.text
    assert exported.hypotheses == []


@pytest.mark.parametrize(
    "broken",
    [
        {"format": "specbound-certificate/1"},
        box_certificate(["num"], [domain_variable("x", "0", "1")], []),
        box_certificate(["var", "x"], [domain_variable("x", "0", "1")], [{"box": {"x": ["0", "2"]}}]),
        box_certificate(["var", "x"], [domain_variable("x", "1", "0")], []),
    ],
)
def test_a_malformed_certificate_is_malformed(broken):
    with pytest.raises(Malformed):
        export_certificate(broken)


def test_a_rewrite_step_proves_the_identity_and_decides_the_form_in_a_lemma_of_its_own():
    """p/(p + 2) < 1 on [0, 2] rewritten as 2/(p + 2) > 0: the box lemma proves gap = form (sb_identity_laws)
    and applies the form's lemma, which the nested enclosure proves; nothing is left as a hypothesis."""
    gap = [
        "add",
        ["num", "1"],
        ["mul", ["num", "-1"], ["var", "p"], ["pow", ["add", ["num", "2"], ["var", "p"]], ["num", "-1"]]],
    ]
    form = ["mul", ["num", "2"], ["pow", ["add", ["num", "2"], ["var", "p"]], ["num", "-1"]]]
    certificate = box_certificate(
        gap,
        [domain_variable("p", "0", "2")],
        [
            {
                "box": {"p": ["0", "2"]},
                "decision": {"method": "rewrite", "form": form, "then": {"method": "enclosure"}},
            }
        ],
        strict=True,
    )
    exported = export_certificate(certificate)
    assert exported.hypotheses == []
    form = "Lemma box_1_form : forall v_p : R, 0 <= v_p -> v_p <= 2 -> 0 < (2 * (/ (2 + v_p)))."
    assert form in exported.text
    assert (
        "assert (E : gap v_p = (2 * (/ (2 + v_p)))) by (try unfold gap; try sb_rpower; sb_identity_laws);"
        in exported.text
    )
    assert "apply (box_1_form v_p); lra" in exported.text


def test_a_slope_step_decides_the_kernels_derivative_on_the_open_interior_in_a_lemma_of_its_own():
    certificate = box_certificate(
        LOG_GAP,
        [domain_variable("x", "0", "1")],
        [
            {
                "box": {"x": ["0", "1"]},
                "decision": {
                    "method": "monotone",
                    "variable": "x",
                    "direction": "increasing",
                    "slope": {"method": "enclosure"},
                    "then": {"method": "enclosure"},
                },
            }
        ],
    )
    exported = export_certificate(certificate)
    assert exported.hypotheses == []
    assert "Lemma box_1_slope : forall v_x : R, 0 < v_x -> v_x < 1 -> 0 <= (" in exported.text
    assert "apply (box_1_slope t); lra" in exported.text


def test_an_enclosure_on_a_half_line_is_stated_node_by_node():
    """log(2 + x) > 0 on [0, oo): the facts 0 <= x, 2 <= 2 (a number's, by ``sb_node_num_z``), 2 <= 2 + x
    (a local definition n1, by ``sb_node_add_lo``), ln 2's printed end <= ln (2 + x) (its constant goal by
    Interval), and the claim from the root's lower fact; no hypothesis (Interval alone would need a bounded
    range)."""
    certificate = box_certificate(
        ["log", ["add", ["num", "2"], ["var", "x"]]],
        [domain_variable("x", "0", "oo", upper_open=True)],
        [{"box": {"x": ["0", "oo"]}, "decision": {"method": "enclosure"}}],
        strict=True,
    )
    exported = export_certificate(certificate)
    assert exported.hypotheses == []
    assert (
        "assert (N1 : (2 / 1) <= 2) by (apply (sb_node_num_z false); vm_compute; reflexivity)"
        in exported.text
    )
    assert "assert (N3 : (0 / 1) <= v_x) by (lra)" in exported.text
    assert "pose (n1 := (2 + v_x))" in exported.text
    assert (
        "assert (N4 : (2 / 1) <= n1) by (unfold n1; refine (sb_node_add_lo false false false"
        " _ _ _ _ _ _ _ _ N1 N3 _); vm_compute; reflexivity)"
    ) in exported.text
    assert "<= (ln 2)) by interval with (i_prec 128)" in exported.text  # 64-bit ends show the sign


def _monotone_on_the_line(gap, direction):
    """gap >= 0 over the reals in one box: monotone in x with the tail from X = 0 decided by enclosure."""
    decision = {"method": "monotone", "variable": "x", "direction": direction, "tail": "0"}
    decision["then"] = {"method": "enclosure"}
    domain = [domain_variable("x", "-oo", "oo", lower_open=True, upper_open=True)]
    return box_certificate(gap, domain, [{"box": {"x": ["-oo", "oo"]}, "decision": decision}])


@pytest.mark.parametrize(
    ("direction", "tail"),
    [("increasing", "forall v_x : R, v_x <= 0 ->"), ("decreasing", "forall v_x : R, 0 <= v_x ->")],
)
def test_a_tail_lies_on_the_side_of_the_faces_infinite_end(direction, tail):
    """An increasing gap's face is at -oo: its tail is (-oo, X], whatever the certificate's nested decision
    was meant for. For x >= 0 over the reals (the kernel's error of issue 40 decided [0, oo)) the tail
    lemma on (-oo, 0] has no proof: the file rests on it as a hypothesis, never a theorem."""
    gap = ["var", "x"] if direction == "increasing" else ["mul", ["num", "-1"], ["var", "x"]]
    exported = export_certificate(_monotone_on_the_line(gap, direction))
    assert f"Hypothesis box_1_tail : {tail} 0 <= gap v_x." in exported.text
    assert [h.name for h in exported.hypotheses] == ["box_1_tail"]
    assert f"refine (sb_tail_{direction} (fun v_x => gap v_x) " in exported.text


@pytest.mark.parametrize(
    ("statement", "domain"),
    [
        ("log(1 + x) >= x - x^2/2", "x: [0, 1]"),
        ("exp(x) >= 1 + x + x^2/2", "x: [0, oo)"),
        ("phi(x) <= 1/sqrt(2*pi)", "x: real"),
    ],
)
def test_the_statements_that_crashed_the_exporter_are_exported(statement, domain):
    """issue 40: RecursionError on an even power of a node enclosed by [0, 0] (the first two), and a lemma
    that does not mention x with an untyped binder (coqc: "Cannot infer the type of v_x")."""
    from theory.prover import prove

    result = prove(statement, domain, 30.0)
    assert result.status == "proved"
    (part,) = result.parts
    exported = export_certificate(part.certificate.to_json())
    assert exported.hypotheses == []
    assert "Theorem statement : forall v_x : R," in exported.text


def test_atan_on_a_box_reaching_infinity_is_stated_node_by_node():
    """atan(x) + 2 >= 0 over the reals: atan's facts from atan_bound (its limits -PI/2 and PI/2) with PI
    bounded by Interval, no hypothesis (atan had no node rule: the box was one)."""
    certificate = box_certificate(
        ["add", ["atan", ["var", "x"]], ["num", "2"]],
        [domain_variable("x", "-oo", "oo", lower_open=True, upper_open=True)],
        [{"box": {"x": ["-oo", "oo"]}, "decision": {"method": "enclosure"}}],
    )
    exported = export_certificate(certificate)
    assert exported.hypotheses == []
    assert "pose proof (atan_bound v_x); assert (" in exported.text


def test_an_internal_error_of_the_exporter_on_a_lemma_leaves_that_lemma_a_hypothesis(monkeypatch):
    """The file is still written, the failing lemma named with the reason, never a traceback."""
    from theory.prover.coq import export, unbounded

    def broken(self, tree, strict):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(unbounded.NodeProof, "claim", broken)
    certificate = box_certificate(
        ["log", ["add", ["num", "2"], ["var", "x"]]],
        [domain_variable("x", "0", "oo", upper_open=True)],
        [{"box": {"x": ["0", "oo"]}, "decision": {"method": "enclosure"}}],
    )
    exported = export.export_certificate(certificate)
    reason = f"{export.INTERNAL}: RecursionError"
    assert [(h.name, h.reason) for h in exported.hypotheses] == [("box_1", reason)]
    assert "Hypothesis box_1 : forall v_x : R, 0 <= v_x -> 0 <= gap v_x." in exported.text


def test_a_face_at_an_open_end_with_a_strict_slope_need_only_be_nonnegative():
    """log(1 + x) < x over (0, 1]: the gap is 0 at the excluded end 0, where the kernel's face need only be
    >= 0 because the slope is strictly positive inside; the file asks the same (0 < slope, 0 <= face)."""
    from theory.prover import prove

    result = prove("log(1 + x) < x", "x: (0, 1]", 30.0)
    (part,) = result.parts
    exported = export_certificate(part.certificate.to_json())
    assert exported.hypotheses == []
    assert "refine (sb_step_increasing_strictly (fun v_x => gap v_x) " in exported.text
    assert "Lemma box_1_face : forall v_x : R, 0 <= v_x -> v_x <= 0 -> 0 <= gap v_x." in exported.text
    assert "Lemma box_1_slope : forall v_x : R, 0 < v_x -> v_x < 1 -> 0 < (" in exported.text
