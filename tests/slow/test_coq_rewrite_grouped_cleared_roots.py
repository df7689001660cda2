"""A rewrite step's identity proved term by term (``theory.prover.coq.grouped``) where a square root's
argument has rational coefficients and its odd powers multiply to an even one: (1 + S^(3/2))^2 =
1 + 2 S'^(3/2) + S^3 expanded, S = x/2 + 3/4 x 6^(1/3) and S' the same sum over the primes' radicals, its
terms in another order (the shape of docs/examples/l2_below_edelman_minilm_l6's ``box_1_part_2_squares``).
``field``'s rule sqrt S sqrt S = S keeps S's fractions as atoms, so (sqrt S)^6 = S^3 is never reached; the
route states u = 4 sqrt S, u u = 16 S in integers, and sqrt S = sqrt S' = u / 4. The search routes after
it are disabled so that coqc's verdict is that route's: the kernel's normal form (true: mpmath at 60
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
S = ["add", ["mul", ["num", "1/2"], X], ["mul", ["num", "3/4"], X, ["pow", ["num", "6"], ["num", "1/3"]]]]
GAP = ["pow", ["add", ["num", "1"], ["pow", S, ["num", "3/2"]]], ["num", "2"]]
RADICAL = [["pow", ["num", "2"], ["num", "1/3"]], ["pow", ["num", "3"], ["num", "1/3"]]]
SQUARED = [["pow", ["num", "2"], ["num", "2/3"]], ["pow", ["num", "3"], ["num", "2/3"]]]
PRIMES = ["add", ["mul", ["num", "3/4"], X, *RADICAL], ["mul", ["num", "1/2"], X]]
"""S over the primes' radicals, 6^(1/3) = 2^(1/3) 3^(1/3), its terms in another order."""
CUBE = ["pow", X, ["num", "3"]]


def _form(constant: str) -> list:
    """The gap's normal form by hand: S^3 = x^3 (1/2 + 3/4 c)^3 with c^3 = 6 is
    x^3 (85/32 + 9/16 c + 27/32 c^2); ``constant`` for the 85/32."""
    return [
        "add",
        ["num", "1"],
        ["mul", ["num", "2"], ["pow", PRIMES, ["num", "3/2"]]],
        ["mul", ["num", constant], CUBE],
        ["mul", ["num", "9/16"], CUBE, *RADICAL],
        ["mul", ["num", "27/32"], CUBE, *SQUARED],
    ]


def _certificate(constant: str) -> dict:
    return rewritten_on_1_2(GAP, _form(constant))


def _agrees(constant: str) -> bool:
    return agree_on_1_2(GAP, _form(constant), 43)


@pytest.fixture
def grouped_only(monkeypatch):
    only_the_grouped_route(monkeypatch)


def test_a_root_with_rational_coefficients_squared_out_is_accepted(tmp_path, grouped_only):
    assert _agrees("85/32")
    certificate = _certificate("85/32")
    assert check_certificate(certificate).accepted
    exported, verdict = exported_and_checked(certificate, tmp_path)
    assert exported.hypotheses == []
    assert "u0 * u0 = " in exported.text and "sqrt_sqrt" in exported.text  # the cleared relation
    assert "assert (Q0_1 : " in exported.text  # S' shares S's u
    assert verdict.status == "accepted", verdict.reason
    assert all(axiom.startswith(TRUSTED_AXIOMS) for axiom in verdict.axioms)


def test_a_planted_coefficient_is_declined_and_forced_through_refused(tmp_path, grouped_only, monkeypatch):
    """43/16 for 85/32 (false: mpmath): the kernel rejects it and the route declines it (the term's normal
    form does not add up to the form's); with the gap's normal form patched to 43/16 x^3, the term
    equation states the planted identity, and coqc refuses the file."""
    assert not _agrees("43/16")
    certificate = _certificate("43/16")
    assert not check_certificate(certificate).accepted
    assert "u0 * u0 = " not in export.export_certificate(certificate).text
    normal_form = grouped.exact.normal_form

    class Lying:
        """The kernel's normal forms, but the gap's x^3 read as 43/16 x^3."""

        @staticmethod
        def normal_form(tree, fixed):
            form = normal_form(tree, fixed)
            if tree != GAP or not form:
                return form
            return {key: Fraction(43, 16) if c == Fraction(85, 32) else c for key, c in form.items()}

        as_tree = staticmethod(grouped.exact.as_tree)

    monkeypatch.setattr(grouped, "exact", Lying)
    exported, verdict = exported_and_checked(certificate, tmp_path)
    assert "u0 * u0 = " in exported.text
    assert verdict.status == "rejected"
