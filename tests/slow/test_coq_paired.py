"""The paired-atoms route of an identity (theory/prover/coq/paired.py), as a change of variables leaves it
(the l2 example's three substitution identities): atoms whose arguments are written differently
(sqrt (1152 + 1769472 L) against sqrt (L (1152 / L + 1769472)), ln (1 + 2 (L + ln 384)) against
ln (L (14 ln 2 / L + 2 ln 3 / L + 1 / L + 2))) and square roots of products (sqrt 10 sqrt (L r) against
sqrt 2 sqrt 5 sqrt L sqrt r). The identity, equal at points mpmath evaluates, is accepted by coqc with
the route's tactic alone; the same tactic on a false variant (a coefficient changed, mpmath: unequal) and
a tampered split (sqrt 10 = sqrt 2 sqrt 3) are refused. One coqc run of 2-3 CPU s each: slow."""

from __future__ import annotations

import math
from fractions import Fraction
from types import SimpleNamespace

import mpmath
import pytest

from tests.helpers.coq_marks import NEEDS_COQC
from theory.prover.coq.coqc import check_file
from theory.prover.coq.paired import paired
from theory.prover.coq.preamble import preamble_for
from theory.prover.coq.terms import term

pytestmark = [pytest.mark.coq, pytest.mark.slow, NEEDS_COQC]

L, R = ["var", "L"], ["var", "r"]


def _n(value: str) -> list:
    return ["num", value]


def _sqrt(tree: list) -> list:
    return ["pow", tree, _n("1/2")]


def _inverse(tree: list) -> list:
    return ["pow", tree, _n("-1")]


SUBJECT = [
    "add",
    _sqrt(["add", _n("1152"), ["mul", _n("1769472"), L]]),
    ["mul", _n("3"), ["log", ["add", _n("1"), ["mul", _n("2"), ["add", L, ["log", _n("384")]]]]]],
    ["mul", _sqrt(_n("10")), _sqrt(["mul", L, R])],
]
"""sqrt (1152 + 1769472 L) + 3 ln (1 + 2 (L + ln 384)) + sqrt 10 sqrt (L r)."""
TARGET = [
    "mul",
    _n("1"),
    [
        "add",
        _sqrt(["mul", L, ["add", ["mul", _n("1152"), _inverse(L)], _n("1769472")]]),
        [
            "mul",
            _n("3"),
            [
                "log",
                [
                    "mul",
                    L,
                    [
                        "add",
                        ["mul", _n("14"), ["log", _n("2")], _inverse(L)],
                        ["mul", _n("2"), ["log", _n("3")], _inverse(L)],
                        _inverse(L),
                        _n("2"),
                    ],
                ],
            ],
        ],
        ["mul", _sqrt(_n("2")), _sqrt(_n("5")), _sqrt(L), _sqrt(R)],
    ],
]
"""1 (sqrt (L (1152 / L + 1769472)) + 3 ln (L (14 ln 2 / L + 2 ln 3 / L + 1 / L + 2)) + sqrt 2 sqrt 5
sqrt L sqrt r): the same function, its atoms written as a change of variables leaves them."""
BOX = {"L": (Fraction(1), math.inf), "r": (Fraction(2), Fraction(3))}


def _subject(ell, r):
    return (
        mpmath.sqrt(1152 + 1769472 * ell)
        + 3 * mpmath.log(1 + 2 * (ell + mpmath.log(384)))
        + mpmath.sqrt(10) * mpmath.sqrt(ell * r)
    )


def _target(ell, r, coefficient=1769472):
    return (
        mpmath.sqrt(ell * (1152 / ell + coefficient))
        + 3 * mpmath.log(ell * (14 * mpmath.log(2) / ell + 2 * mpmath.log(3) / ell + 1 / ell + 2))
        + mpmath.sqrt(2) * mpmath.sqrt(5) * mpmath.sqrt(ell) * mpmath.sqrt(r)
    )


def _printed(tree: list) -> str:
    return term(tree, lambda base: True)


def _script() -> str:
    script = paired(SimpleNamespace(positive=lambda base: True), SUBJECT, TARGET, BOX)
    assert script is not None
    return script


def _file(tmp_path, claim: str, script: str):
    text = f"Lemma paired_identity : forall v_L v_r : R, 1 <= v_L -> 2 <= v_r <= 3 -> {claim}.\n"
    text += f"Proof.\n  intros v_L v_r H0 H1.\n  {script}.\nQed.\n"
    path = tmp_path / "Paired.v"
    path.write_text(preamble_for(text) + text, encoding="utf-8")
    return path


def test_atoms_paired_by_their_normal_form_prove_the_identity(tmp_path):
    with mpmath.workdps(50):  # the oracle: the two sides agree across the range
        for ell in (1, 7, 10**6):
            for r in (2, 3):
                point = (mpmath.mpf(ell), mpmath.mpf(r))
                assert abs(_subject(*point) - _target(*point)) < mpmath.mpf(10) ** -40
    script = _script()
    assert "replace (sqrt 10) with (sqrt 2 * sqrt 5)" in script  # the split, as the kernel writes it
    claim = f"{_printed(SUBJECT)} = {_printed(TARGET)}"
    assert check_file(_file(tmp_path, claim, script)).status == "accepted"


def test_a_false_variant_or_a_wrong_split_is_refused(tmp_path):
    with mpmath.workdps(50):
        one, two = mpmath.mpf(1), mpmath.mpf(2)
        assert abs(_subject(one, two) - _target(one, two, 1769473)) > mpmath.mpf(10) ** -6
    script = _script()
    printed = _printed(TARGET)
    false = printed.replace("1769472", "1769473")
    assert false != printed
    verdict = check_file(_file(tmp_path, f"{_printed(SUBJECT)} = {false}", script))
    assert verdict.status != "accepted"
    tampered = script.replace("(sqrt 2 * sqrt 5)", "(sqrt 2 * sqrt 3)")
    assert tampered != script
    claim = f"{_printed(SUBJECT)} = {printed}"
    assert check_file(_file(tmp_path, claim, tampered)).status != "accepted"
