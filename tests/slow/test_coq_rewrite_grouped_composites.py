"""A rewrite step's identity proved term by term (``theory.prover.coq.grouped``) where the kernel's normal
form factors composite integers (6^(1/3) = 2^(1/3) 3^(1/3), sqrt 10 = sqrt 2 sqrt 5, ln 6 = ln 2 + ln 3)
and adds a variable's exponents (/ x sqrt x = x^(-1/2), with / sqrt x on both sides), the search routes
after it disabled so that coqc's verdict is that route's: the kernel's normal form (true: mpmath at 60
digits at random points) is accepted; a planted coefficient (false: mpmath) is declined by the route
itself and, forced through it, refused by coqc. Two coqc runs of a few CPU s each."""

from __future__ import annotations

from fractions import Fraction

import pytest

pytest.importorskip("flint", reason="the exporter reads certificates with the kernel (python-flint)")

from tests.helpers.coq_marks import NEEDS_COQC
from tests.helpers.coq_runs import (
    agree_on_1_2,
    exported_and_checked,
    only_the_grouped_route,
    rewritten_on_1_2,
)
from theory.prover.coq import export, grouped
from theory.prover.coq.coqc import TRUSTED_AXIOMS
from theory.prover.kernel import check_certificate

pytestmark = [pytest.mark.coq, pytest.mark.slow, NEEDS_COQC]

X = ["var", "x"]
LN6 = ["log", ["num", "6"]]
T1 = ["mul", ["pow", ["num", "6"], ["num", "1/3"]], ["pow", ["num", "2"], ["num", "1/3"]], LN6]
"""6^(1/3) 2^(1/3) ln 6 = 2^(2/3) 3^(1/3) ln 2 + 2^(2/3) 3^(1/3) ln 3."""
T2 = [
    "mul",
    ["add", ["mul", ["pow", X, ["num", "-1"]], ["pow", X, ["num", "1/2"]]], ["pow", X, ["num", "-1/2"]]],
    ["pow", LN6, ["num", "-1/2"]],
    ["pow", ["num", "10"], ["num", "1/2"]],
]
"""(/ x sqrt x + / sqrt x) / sqrt (ln 6) sqrt 10 = 2 x^(-1/2) (ln 2 + ln 3)^(-1/2) 2^(1/2) 5^(1/2)."""
GAP = ["add", T1, T2]
LOG = ["add", ["mul", ["num", "1"], ["log", ["num", "2"]]], ["mul", ["num", "1"], ["log", ["num", "3"]]]]


def _form(coefficient: str) -> list:
    """The gap's normal form (by hand, above), with ``coefficient`` for the 2 of the last monomial."""
    radicals = [["pow", ["num", "2"], ["num", "2/3"]], ["pow", ["num", "3"], ["num", "1/3"]]]
    return [
        "add",
        [
            "mul",
            ["num", coefficient],
            ["pow", LOG, ["num", "-1/2"]],
            ["pow", X, ["num", "-1/2"]],
            ["pow", ["num", "2"], ["num", "1/2"]],
            ["pow", ["num", "5"], ["num", "1/2"]],
        ],
        ["mul", ["log", ["num", "2"]], *radicals],
        ["mul", ["log", ["num", "3"]], *radicals],
    ]


def _certificate(coefficient: str) -> dict:
    return rewritten_on_1_2(GAP, _form(coefficient))


def _agrees(coefficient: str) -> bool:
    return agree_on_1_2(GAP, _form(coefficient), 41)


@pytest.fixture
def grouped_only(monkeypatch):
    only_the_grouped_route(monkeypatch)


def test_composite_bases_and_a_variables_exponents_proved_by_grouping_are_accepted(tmp_path, grouped_only):
    assert _agrees("2")
    certificate = _certificate("2")
    assert check_certificate(certificate).accepted
    exported, verdict = exported_and_checked(certificate, tmp_path)
    assert exported.hypotheses == []
    assert "apply (f_equal2 Rplus)" in exported.text  # term by term
    assert "(Rpower 6 (1 / 3)) = (((Rpower 2 (1 / 6)) ^ 2) * ((Rpower 3 (1 / 3)) ^ 1))" in exported.text
    assert "sb_opaque_compound_inverses" in exported.text
    assert verdict.status == "accepted", verdict.reason
    assert all(axiom.startswith(TRUSTED_AXIOMS) for axiom in verdict.axioms)


def test_a_planted_coefficient_is_declined_and_forced_through_refused(tmp_path, grouped_only, monkeypatch):
    """3 for 2 (false: mpmath): the kernel rejects it and the route declines it (the terms' normal forms
    do not add up to the form's); with T2's normal form patched to 3/2 of its own, the term equation
    states T2 = 3 x^(-1/2) ..., and coqc refuses the file."""
    assert not _agrees("3")
    certificate = _certificate("3")
    assert not check_certificate(certificate).accepted
    assert "apply (f_equal2 Rplus)" not in export.export_certificate(certificate).text
    normal_form = grouped.exact.normal_form

    class Lying:
        """The kernel's normal forms, but T2's read as 3/2 of itself."""

        @staticmethod
        def normal_form(tree, fixed):
            form = normal_form(tree, fixed)
            return {key: c * Fraction(3, 2) for key, c in form.items()} if tree == T2 and form else form

        as_tree = staticmethod(grouped.exact.as_tree)

    monkeypatch.setattr(grouped, "exact", Lying)
    exported, verdict = exported_and_checked(certificate, tmp_path)
    assert "apply (f_equal2 Rplus)" in exported.text
    assert verdict.status == "rejected"
