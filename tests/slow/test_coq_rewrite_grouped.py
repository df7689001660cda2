"""A rewrite step's identity T_1 + T_2 = S_1 + S_2 + S_3 proved by grouping the left side's terms along the
kernel's normal form (``theory.prover.coq.grouped``), with the search routes after it disabled so that
coqc's verdict is that route's: the kernel-accepted certificate is accepted; a planted form with one
monomial's coefficient changed (false, by hand), forced through the route, is refused. Two coqc runs of
a few CPU s each."""

from __future__ import annotations

import pytest

pytest.importorskip("flint", reason="the exporter reads certificates with the kernel (python-flint)")

from tests.helpers.coq_marks import NEEDS_COQC
from tests.helpers.coq_runs import exported_and_checked, only_the_grouped_route, rewritten_on_1_2
from theory.prover.coq import export, grouped
from theory.prover.coq.coqc import TRUSTED_AXIOMS
from theory.prover.kernel import check_certificate

pytestmark = [pytest.mark.coq, pytest.mark.slow, NEEDS_COQC]

X = ["var", "x"]
GAP = [
    "add",
    [
        "mul",
        ["add", ["num", "1"], X],
        ["pow", X, ["num", "0"]],
        ["pow", ["num", "2"], ["num", "1/3"]],
        ["pow", ["num", "2"], ["num", "5/6"]],
    ],
    ["mul", ["num", "1"], ["pow", X, ["num", "1/2"]], ["pow", X, ["num", "1/2"]]],
]
"""(1 + x) x^0 2^(1/3) 2^(5/6) + 1 sqrt(x) sqrt(x) > 0 on [1, 2]: the derivative-like shape of issue 41
(a product to expand, x^0, 1 *, radicals of one prime to merge, a square root squared)."""


def _form(x_coefficient: str) -> list:
    """2 2^(1/6) + 2 2^(1/6) x + c x: with c = 1 the gap's normal form (by hand: 2^(1/3 + 5/6) =
    2^(7/6) = 2 2^(1/6), sqrt(x)^2 = x)."""
    radical = ["pow", ["num", "2"], ["num", "1/6"]]
    return [
        "add",
        ["mul", ["num", "2"], radical],
        ["mul", ["num", "2"], X, radical],
        ["mul", ["num", x_coefficient], X],
    ]


def _certificate(x_coefficient: str) -> dict:
    return rewritten_on_1_2(GAP, _form(x_coefficient))


@pytest.fixture
def grouped_only(monkeypatch):
    only_the_grouped_route(monkeypatch)


def test_a_rewrite_identity_proved_by_grouping_is_accepted(tmp_path, grouped_only):
    certificate = _certificate("1")
    assert check_certificate(certificate).accepted
    exported, verdict = exported_and_checked(certificate, tmp_path)
    assert exported.hypotheses == []
    assert "(Rpower 2 (1 / 6)) ^ 6 = 2)" in exported.text  # the radicals' rule
    assert "apply (f_equal2 Rplus)" in exported.text  # term by term
    assert verdict.status == "accepted", verdict.reason
    assert all(axiom.startswith(TRUSTED_AXIOMS) for axiom in verdict.axioms)


def test_a_planted_wrong_coefficient_forced_through_the_route_is_refused(tmp_path, grouped_only, monkeypatch):
    """The form with 2 x for x (false at x = 1: 2 2^(1/6) 2 + 1 against 2 2^(1/6) 2 + 2): the kernel
    rejects it, and the route itself declines it (the terms' normal forms do not add up to the form's);
    with the normal form patched to read 2 x as x, the exported term equation states
    1 sqrt(x) sqrt(x) = 2 x, and coqc refuses the file."""
    certificate = _certificate("2")
    assert not check_certificate(certificate).accepted
    assert "apply (f_equal2 Rplus)" not in export.export_certificate(certificate).text
    planted = ["mul", ["num", "2"], X]
    normal_form = grouped.exact.normal_form

    class Lying:
        """The kernel's normal forms, but 2 x read as x."""

        @staticmethod
        def normal_form(tree, fixed):
            return normal_form(["mul", ["num", "1"], X] if tree == planted else tree, fixed)

        as_tree = staticmethod(grouped.exact.as_tree)

    monkeypatch.setattr(grouped, "exact", Lying)
    exported, verdict = exported_and_checked(certificate, tmp_path)
    assert "apply (f_equal2 Rplus)" in exported.text
    assert verdict.status == "rejected"
