"""The kernel's rules as Coq lemmas (docs/prover.md, "The kernel's rules and their Coq lemmas"): every
lemma of the exported files' preamble compiles with no Admitted, Axiom or Hypothesis and rests only on the
axioms of Coq's reals; a rule stated wrong (a tail on the wrong side of its infinite end) or applied on the
wrong side by the exporter is refused by coqc; the exporter's crashes of issue 40 are regression tests.
coqc runs of 2-10 CPU s each: slow."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from paper_checks.cli import main
from tests.helpers.certificates import box_certificate, domain_variable
from tests.helpers.coq_marks import NEEDS_COQC
from tests.helpers.coq_runs import UNPROVED, assert_accepted, proved_with
from theory.prover.coq import export
from theory.prover.coq.coqc import TRUSTED_AXIOMS, check_file
from theory.prover.coq.export import export_certificate
from theory.prover.coq.preamble import preamble
from theory.prover.kernel import check_certificate

pytestmark = [
    pytest.mark.coq,
    pytest.mark.slow,
    NEEDS_COQC,
]

RULES = (
    "sb_step_increasing",
    "sb_step_increasing_lt",
    "sb_step_decreasing",
    "sb_step_decreasing_lt",
    "sb_step_increasing_strictly",
    "sb_step_decreasing_strictly",
    "sb_tail_increasing",
    "sb_tail_increasing_lt",
    "sb_tail_decreasing",
    "sb_tail_decreasing_lt",
    "sb_cut",
    "sb_cut_integer",
    "sb_rewrite",
    "sb_rewrite_lt",
    "sb_add",
    "sb_add_lt",
    "sb_increasing",
    "sb_decreasing",
    "sb_increasing_strict",
    "sb_decreasing_strict",
    "sb_scale",
    "sb_scale_strict",
    "sb_log",
    "sb_log_strict",
    "sb_squares",
    "sb_squares_strict",
    "sb_abs_neg",
    "sb_cases",
    "sb_max_cases",
    "sb_min_cases",
    "sb_max_bound",
    "sb_min_bound",
    "sb_floor_fraction",
    "sb_ceil_fraction",
    "sb_floor_between",
    "sb_ceil_between",
    "sb_integral",
    "sb_no_root_sign",
    "sb_even_power",
    "sb_bernstein_basis",
    "sb_bernstein_unit",
    "sb_bernstein_step",
    "sb_bernstein_min",
    "sb_periodic",
    "sb_max_which_le",
    "sb_min_which_le",
    "sb_multiplier",
    "sb_shift",
    "sb_imply",
    "sb_imply_lt",
)
"""The rule lemmas of the table in docs/prover.md (the premised cases' in the preamble with ``premises``)."""

REAL = [domain_variable("x", "-oo", "oo", lower_open=True, upper_open=True)]


def _tail(gap: list, direction: str) -> dict:
    """gap >= 0 over the reals in one box: monotone in x, the tail from X = 0 decided by enclosure."""
    decision = {
        "method": "monotone",
        "variable": "x",
        "direction": direction,
        "tail": "0",
        "then": {"method": "enclosure"},
    }
    return box_certificate(gap, REAL, [{"box": {"x": ["-oo", "oo"]}, "decision": decision}])


TAILS = {
    "increasing": _tail(["exp", ["var", "x"]], "increasing"),
    "decreasing": _tail(["exp", ["mul", ["num", "-1"], ["var", "x"]]], "decreasing"),
}
"""exp(x) >= 0 (increasing: its face at -oo, the tail (-oo, 0] where exp(x) is in (0, 1]) and
exp(-x) >= 0 (decreasing: the tail [0, oo))."""


def _compiled(text: str, tmp_path: Path) -> object:
    path = tmp_path / "Rules.v"
    path.write_text(text, encoding="utf-8")
    return check_file(path)


def _rules_file() -> str:
    """The preamble with its premised cases and a ``Print Assumptions`` of every rule lemma."""
    every = f"Definition sb_rules := ({', '.join(RULES)}).\nPrint Assumptions sb_rules.\n"
    return preamble(premises=True) + every


def test_every_rule_lemma_is_proved_and_rests_only_on_the_axioms_of_the_reals(judged):
    text = preamble(premises=True)
    stated = set(re.findall(r"^Lemma (\w+)", text, flags=re.MULTILINE))
    assert set(RULES) <= stated
    assert not UNPROVED.search(text)
    verdict = judged[1]["rules"]
    assert verdict.status == "accepted", verdict.reason
    assert verdict.axioms and all(axiom.startswith(TRUSTED_AXIOMS) for axiom in verdict.axioms)


@pytest.mark.parametrize(
    ("right", "wrong"),
    [
        ("(forall t, t <= X -> 0 <= f t) -> 0 <= f x.", "(forall t, X <= t -> 0 <= f t) -> 0 <= f x."),
        ("(forall t, X <= t -> 0 <= f t) -> 0 <= f x.", "(forall t, t <= X -> 0 <= f t) -> 0 <= f x."),
        (
            "(v <= IZR n - 1 -> P) -> (IZR n <= v -> P) -> P.",
            "(v <= IZR n - 2 -> P) -> (IZR n <= v -> P) -> P.",
        ),
        (
            "(forall t, a < t < x -> 0 <= df t) ->\n  a <= x -> 0 <= f a -> 0 <= f x.",
            "(forall t, a < t < x -> df t <= 0) ->\n  a <= x -> 0 <= f a -> 0 <= f x.",
        ),
    ],
    ids=["tail increasing", "tail decreasing", "integer cut", "step"],
)
def test_a_rule_stated_wrong_is_refused(right, wrong, tmp_path):
    """The tail lemma of an increasing gap stated with the tail [X, oo) (the kernel's error of issue 40),
    its mirror, an integer cut that leaves the integer c - 1 out, and a step from the face of a decreasing
    gap: their proofs no longer go through, and coqc refuses the file."""
    text = preamble()
    assert text.count(right) == 1
    verdict = _compiled(text.replace(right, wrong), tmp_path)
    assert verdict.status == "rejected"


@pytest.mark.parametrize(
    ("right", "wrong"),
    [
        (
            "0 < c -> 0 <= r + c * a -> 0 <= r + c * Rmax a b.",
            "c < 0 -> 0 <= r + c * a -> 0 <= r + c * Rmax a b.",
        ),
        (
            "(forall t, 0 <= t < 1 -> 0 <= h t) ->\n  0 <= h (u - IZR",
            "(forall t, 0 <= t < 1/2 -> 0 <= h t) ->\n  0 <= h (u - IZR",
        ),
        ("-1 < IZR k -> 0 <= IZR k.", "-2 < IZR k -> 0 <= IZR k."),
        ("forall (f : R -> R) a b, continuity f ->\n", "forall (f : R -> R) a b, True ->\n"),
    ],
    ids=[
        "max bound by the wrong sign",
        "floor fraction below 1/2",
        "integer above -2",
        "sign without continuity",
    ],
)
def test_a_case_split_lemma_stated_wrong_is_refused(right, wrong, tmp_path):
    """A Max bounded through a negative coefficient, a floor's fraction taken in [0, 1/2), an integer
    > -2 called >= 0, a root-free function's sign without continuity: each proof fails, coqc refuses."""
    text = preamble()
    assert text.count(right) == 1
    verdict = _compiled(text.replace(right, wrong), tmp_path)
    assert verdict.status == "rejected"


@pytest.fixture(scope="module")
def tails():
    """Each tail certificate exported (the texts coqc judges in ``judged``)."""
    return {direction: export_certificate(certificate) for direction, certificate in TAILS.items()}


@pytest.mark.parametrize("direction", ["increasing", "decreasing"])
def test_a_tail_step_is_accepted_and_refused_when_the_exporter_applies_the_other_sides_lemma(
    direction, tails, judged, tmp_path, monkeypatch
):
    certificate = TAILS[direction]
    assert check_certificate(certificate).accepted
    exported = tails[direction]
    assert f"refine (sb_tail_{direction} " in exported.text
    assert exported.hypotheses == []
    verdict = judged[1][direction]
    assert verdict.status == "accepted", verdict.reason

    def swapped(kind: str, increasing: bool, strict: bool) -> str:
        return rule_lemma(kind, not increasing if kind == "tail" else increasing, strict)

    rule_lemma = export.rule_lemma
    monkeypatch.setattr(export, "rule_lemma", swapped)
    planted = export_certificate(certificate)
    assert planted.text != exported.text
    assert _compiled(planted.text, tmp_path).status == "rejected"


ISSUE_40 = [
    ("log(1 + x) >= x - x^2/2", "x: [0, 1]"),
    ("exp(x) >= 1 + x + x^2/2", "x: [0, oo)"),
    ("phi(x) <= 1/sqrt(2*pi)", "x: real"),
    ("atan(x) + atan(y) <= 4", "x: real, y: real"),
    ("log(1 + x) < x", "x: (0, oo)"),
]
"""Statements the exporter failed on in issue 40."""
CASE_SPLITS = [
    ("Max(x^2, x) >= x", "x: real", "sb_max_above"),
    ("floor(x) <= x", "x: [0, 3]", "sb_floor_fraction"),
    ("Piecewise((x, x < 1/2), (1 - x, True)) <= 1/2", "x: [0, 1]", "destruct (Rlt_dec v_x (1 / 2))"),
    ("ceiling(x + y) <= ceiling(x) + ceiling(y)", "x: [0, 2], y: [0, 2]", "sb_integral_le"),
]
"""Statements of issue 48 the kernel decides by a case split, and the lemma the file must apply."""


@pytest.fixture(scope="module")
def judged(tails, tmp_path_factory):
    """Every case's file, the rule lemmas' file and the tails' files, judged by coqc together
    (tests.helpers.coq_runs.proved_with): (case -> Judged, name -> coqc's verdict)."""
    texts = {"rules": _rules_file(), **{direction: tail.text for direction, tail in tails.items()}}
    return proved_with(ISSUE_40 + CASE_SPLITS, texts, tmp_path_factory.mktemp("rules"))


@pytest.mark.parametrize(("statement", "domain"), ISSUE_40)
def test_the_exporters_failures_of_issue_40_are_accepted_files(statement, domain, judged):
    """RecursionError on an even power of a set enclosed by [0, 0] (the first two) and coqc's "Cannot
    infer the type of v_x" on a lemma that does not mention x (the third); atan on the plane had no
    node-by-node rule (its box was a hypothesis); log(1 + x) < x at the open end 0 asked a strict face where
    the gap is 0 (the kernel's face there need only be >= 0, the slope being strict); phi on its typed tree
    (a rewrite of (2 pi)^(1/2) inverted, then squares) stated sqrt a sqrt a sqrt b sqrt b = a b for one
    root printed twice, (2 * PI) and ((2 * PI)), and its second rewrite failed. Each is now a file coqc
    accepts with no hypothesis."""
    assert_accepted(judged[0][(statement, domain)])


@pytest.mark.parametrize(("statement", "domain", "applied"), CASE_SPLITS)
def test_a_case_split_box_is_proved_in_coq_by_its_rule_lemma(statement, domain, applied, judged):
    """coqc accepts the file with no hypothesis; the box is decided by the kernel's cases / bound /
    fractional / integral step and the file applies that step's lemma."""
    case = judged[0][(statement, domain, applied)]
    assert_accepted(case)
    assert applied in case.text


def test_a_piecewise_file_with_a_branch_changed_is_refused(tmp_path, judged):
    """1/2 - Piecewise((2 x, x < 1/2), (1 - x, True)) is -1/2 near x = 1/2 (by hand): with the gap's first
    branch planted as 2 x, the file's branch lemma no longer proves the box and coqc refuses it."""
    text = judged[0][CASE_SPLITS[2]].text
    right = "(if Rlt_dec v_x (1 / 2) then v_x else"
    assert text.count(right) == 1
    assert _compiled(text.replace(right, "(if Rlt_dec v_x (1 / 2) then (2 * v_x) else"), tmp_path).status == (
        "rejected"
    )


def test_a_power_whose_base_and_exponent_reach_0_is_not_exported(tmp_path, capsys):
    """x^y <= 1 on [0, 1] x [0, 3]: the language's 0^0 is 1 and Coq's sb_rpow 0 0 is 0, so the file would
    state another function at (0, 0): untranslated, exit 4, never a file coqc accepts."""
    target = tmp_path / "Statement.v"
    status = main(["prove", "x^y <= 1", "--domain", "x: [0, 1], y: [0, 3]", "--coq", str(target), "--json"])
    document = json.loads(capsys.readouterr().out)
    assert document["status"] == "proved"
    assert (status, document["coq_verdict"]) == (4, "untranslated")
