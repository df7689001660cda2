"""The node-by-node enclosure's shared lemmas (theory.prover.coq.node_rules): they are proved on the axioms
of Coq's reals; a fact of a sum, a product (the four corners, each sign quadrant) or a literal that holds
is accepted and one that a point of the box refutes (an exact rational counterexample, checked with
mpmath at 60 digits, not by the exporter's own check) is refused; an exported file using them is accepted,
and refused when one of its node facts is planted false. coqc runs of 1-5 CPU s each: slow."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

import mpmath

from tests.helpers.coq_marks import NEEDS_COQC
from tests.helpers.coq_runs import assert_accepted, proved_with
from theory.prover.coq.coqc import TRUSTED_AXIOMS, check_file
from theory.prover.coq.preamble import preamble, preamble_for

pytestmark = [
    pytest.mark.coq,
    pytest.mark.slow,
    NEEDS_COQC,
]

LEMMAS = (
    "sb_node_num",
    "sb_node_num_z",
    "sb_node_z_num",
    "sb_node_add_lo",
    "sb_node_add_hi",
    "sb_node_mul_lo",
    "sb_node_mul_hi",
    "sb_node_pp_lo",
    "sb_node_nn_lo",
    "sb_node_pn_hi",
    "sb_node_np_hi",
)


def q(value: Fraction) -> str:
    return f"({value.numerator} / {value.denominator})"


F = Fraction
BOX = (
    "(1 / 3) <= x -> x <= (1 / 2) -> (-1 / 5) < y -> y <= (3 / 1) -> (0 / 1) < z -> "
    "(-1 / 1) <= w -> w <= (-1 / 2)"
)
"""x in [1/3, 1/2], y in (-1/5, 3], z in (0, oo), w in [-1, -1/2]: the premises A1 A2 B1 B2 Z W1 W2."""
CASES = [
    # (claim, its proof by a node lemma before the check)
    (
        "(-1 / 10) <= x * y",
        "refine (sb_node_mul_lo false false false true false" + " _" * 12 + " A1 A2 B1 B2 _)",
    ),
    (
        "x * y <= (3 / 2)",
        "refine (sb_node_mul_hi false false false true false" + " _" * 12 + " A1 A2 B1 B2 _)",
    ),
    ("(2 / 15) < x + y", "refine (sb_node_add_lo true false true" + " _" * 8 + " A1 B1 _)"),
    ("x + y <= (7 / 2)", "refine (sb_node_add_hi false false false" + " _" * 8 + " A2 B2 _)"),
    ("(0 / 1) < z * x", "refine (sb_node_pp_lo true true false" + " _" * 8 + " Z A1 _)"),
    ("(1 / 4) <= w * w", "refine (sb_node_nn_lo false false false" + " _" * 8 + " W2 W2 _)"),
    ("z * w < (0 / 1)", "refine (sb_node_pn_hi true true false" + " _" * 8 + " Z W2 _)"),
    ("w * x <= (-1 / 6)", "refine (sb_node_np_hi false false false" + " _" * 8 + " W2 A1 _)"),
    ("(-1 / 3) <= (-1 / 4)", "apply (sb_node_num false)"),
    ("(-1 / 1) < 3", "apply (sb_node_num_z true)"),
    ("(-2) <= (-3 / 2)", "apply (sb_node_z_num false)"),
]
PLANTED = [
    # the claim of a case with its end moved past the truth, and a point of the box refuting it
    (0, "(-1 / 10) <= x * y", "(-1 / 11) <= x * y", {"x": F(1, 2), "y": F(-1, 5) + F(1, 10**6)}),
    (1, "x * y <= (3 / 2)", "x * y <= (7 / 5)", {"x": F(1, 2), "y": F(3)}),
    (2, "(2 / 15) < x + y", "(3 / 15) < x + y", {"x": F(1, 3), "y": F(-1, 5) + F(1, 10**6)}),
    (3, "x + y <= (7 / 2)", "x + y < (7 / 2)", {"x": F(1, 2), "y": F(3)}),
    (4, "(0 / 1) < z * x", "(1 / 1000000) < z * x", {"z": F(1, 10**7), "x": F(1, 3)}),
    (5, "(1 / 4) <= w * w", "(1 / 4) < w * w", {"w": F(-1, 2)}),
    (6, "z * w < (0 / 1)", "z * w < (-1 / 1000000)", {"z": F(1, 10**7), "w": F(-1, 2)}),
    (7, "w * x <= (-1 / 6)", "w * x <= (-1 / 5)", {"w": F(-1, 2), "x": F(1, 3)}),
    (8, "(-1 / 3) <= (-1 / 4)", "(-1 / 5) <= (-1 / 4)", {}),
    (9, "(-1 / 1) < 3", "(3 / 1) < 3", {}),
    (10, "(-2) <= (-3 / 2)", "(-2) <= (-5 / 2)", {}),
]


def _file(claims: list[tuple[str, str]]) -> str:
    """The claims asserted by their tactics in one lemma over BOX, after the preamble's items they use (as
    an exported file carries them: ``preamble_for``; the whole preamble's compile, 1.2 CPU s, is not
    what these files test)."""
    asserts = "".join(
        f"assert ({claim}) by ({tactic}; vm_compute; reflexivity).\n" for claim, tactic in claims
    )
    body = (
        f"Lemma planted : forall x y z w : R, {BOX} -> True.\nProof.\n"
        + "intros x y z w A1 A2 B1 B2 Z W1 W2.\n"
        + asserts
        + "exact I.\nQed.\n"
    )
    return preamble_for(body) + body


def _compiled(text: str, tmp_path: Path):
    path = tmp_path / "Nodes.v"
    path.write_text(text, encoding="utf-8")
    return check_file(path)


def _refuted(claim: str, point: dict[str, Fraction]) -> bool:
    """The claim is false at the point, evaluated with mpmath at 60 digits (an independent reading of the
    printed Coq claim: its rationals and its one operation)."""
    relation = "<=" if "<=" in claim else "<"
    left, right = (side.strip() for side in claim.split(relation))

    def value(side: str):
        side = side.strip()
        for name, number in point.items():
            side = re.sub(rf"\b{name}\b", f"mpmath.mpf({number.numerator})/{number.denominator}", side)
        side = re.sub(r"\((-?\d+) / (\d+)\)", r"(mpmath.mpf(\1)/\2)", side)
        side = re.sub(r"^\((-?\d+)\)$", r"mpmath.mpf(\1)", side)
        side = re.sub(r"^(\d+)$", r"mpmath.mpf(\1)", side)
        return eval(side, {"mpmath": mpmath})

    with mpmath.workdps(60):
        a, b = value(left), value(right)
        return not (a <= b if relation == "<=" else a < b)


def _in_box(point: dict[str, Fraction]) -> bool:
    ranges = {"x": (F(1, 3), F(1, 2), False), "y": (F(-1, 5), F(3), True), "w": (F(-1), F(-1, 2), False)}
    for name, value in point.items():
        if name == "z":
            if value <= 0:
                return False
            continue
        lo, hi, open_lo = ranges[name]
        if value < lo or value > hi or (open_lo and value == lo):
            return False
    return True


EXPORTED = ("exp(x) >= 1 + x + x^2/2", "x: [0, oo)")
"""A statement whose exported file has products' facts by the corner and quadrant lemmas."""


def _lemmas_file() -> str:
    """The node lemmas and a ``Print Assumptions`` of them all."""
    every = f"Definition sb_nodes := ({', '.join(LEMMAS)}).\nPrint Assumptions sb_nodes.\n"
    return preamble(nodes=True) + every


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    """The node lemmas' file, the true facts' file and EXPORTED's file, judged by coqc together
    (tests.helpers.coq_runs.proved_with): (case -> Judged, name -> coqc's verdict)."""
    texts = {"lemmas": _lemmas_file(), "facts": _file(CASES)}
    return proved_with([EXPORTED], texts, tmp_path_factory.mktemp("nodes"))


def test_the_node_lemmas_are_proved_on_the_axioms_of_the_reals(judged):
    text = preamble(nodes=True)
    assert "Admitted" not in text and "Axiom" not in text
    verdict = judged[1]["lemmas"]
    assert verdict.status == "accepted", verdict.reason
    assert verdict.axioms and all(axiom.startswith(TRUSTED_AXIOMS) for axiom in verdict.axioms)


def test_true_node_facts_are_accepted(judged):
    verdict = judged[1]["facts"]
    assert verdict.status == "accepted", verdict.reason


@pytest.mark.parametrize(("index", "right", "wrong", "point"), PLANTED, ids=[case[1] for case in PLANTED])
def test_a_node_fact_that_a_point_refutes_is_refused(index, right, wrong, point, tmp_path):
    assert CASES[index][0] == right
    assert _in_box(point) and _refuted(wrong, point) and not _refuted(right, point)
    claims = [(wrong, tactic) if k == index else (claim, tactic) for k, (claim, tactic) in enumerate(CASES)]
    verdict = _compiled(_file(claims), tmp_path)
    assert verdict.status == "rejected"


def test_an_exported_file_is_refused_when_a_node_fact_is_planted_false(tmp_path, judged):
    """exp(x) >= 1 + x + x^2/2 on [0, oo) (its facts by the corner and quadrant lemmas): accepted; then
    one product's lower fact raised above that node's own upper fact (no real value lies in both):
    refused."""
    exported = judged[0][EXPORTED]
    assert_accepted(exported)
    text = exported.text
    facts = re.findall(
        r"assert \((N\d+) : \((-?\d+) / (\d+)\) (<=?) (n\d+)\) by \([^;]*; refine \(sb_node_mul_lo", text
    )
    assert facts, "no product fact by sb_node_mul_lo"
    name, _, _, relation, node = facts[0]
    upper = re.search(rf"assert \(N\d+ : {node} <=? \((-?\d+) / (\d+)\)\)", text)
    assert upper is not None
    above = Fraction(int(upper.group(1)), int(upper.group(2))) + 1
    planted = re.sub(
        rf"assert \({name} : \((-?\d+) / (\d+)\) {relation} {node}\)",
        f"assert ({name} : ({above.numerator} / {above.denominator}) {relation} {node})",
        text,
        count=1,
    )
    assert planted != text
    path = tmp_path / "Planted.v"
    path.write_text(planted, encoding="utf-8")
    assert check_file(path).status == "rejected"
