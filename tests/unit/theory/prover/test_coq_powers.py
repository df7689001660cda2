"""Coq export of general powers, checked by coqc: bases reaching 0 (``sb_rpow``) and the laws of exponents.

A box where a base of x^p reaches 0 is cut at the ends of x: on the open range the base is > 0 and the
gap's sb_rpow is Rpower there; at x = 0 it is 0. The kernel's acceptance of the certificate is the
independent reference for the accepted files; a print of x^p as Coq's Rpower (1 at x = 0, where the
language's 0^p is 0) states a false theorem, which coqc must refuse. ``sb_identity_laws`` proves the laws of
exponents for positive bases and refuses a^x a^y = a^(x y), which arb's values at x = y = 1/2 refute."""

from __future__ import annotations

from fractions import Fraction

import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from flint import arb

from tests.helpers.coq_marks import NEEDS_COQC
from tests.helpers.coq_runs import LAWS, PLANTED_LAW, identities_checked, proved_certificate
from theory.prover.coq.coqc import check_file
from theory.prover.coq.export import export_certificate
from theory.prover.coq.files import export_to
from theory.prover.kernel.verify import precision

pytestmark = [
    pytest.mark.coq,
    pytest.mark.slow,
    NEEDS_COQC,
]


BELOW_HALF = ("x^p <= 1/2", "x: [0, 1/4], p: [1, 2]")
"""x^p <= (1/4)^1 < 1/2; with Coq's Rpower 0 p = 1 the gap 1/2 - x^p would be -1/2 at x = 0."""


def test_an_enclosure_over_a_base_reaching_0_is_proved_on_its_faces_and_inside(tmp_path):
    exported = export_certificate(proved_certificate(*BELOW_HALF), "below half")
    assert "Definition gap (v_x v_p : R) : R := ((1 / 2) + ((-1) * (sb_rpow v_x v_p)))." in exported.text
    for lemma in ("box_1_at_x_lo", "box_1_at_x_hi", "box_1_in_x"):
        assert f"Lemma {lemma} :" in exported.text
    path = tmp_path / "Below.v"
    path.write_text(exported.text, encoding="utf-8")
    verdict = check_file(path)
    assert verdict.status == "accepted", verdict.reason
    assert exported.hypotheses == []


def test_a_power_at_a_base_reaching_0_printed_as_rpower_is_refused_by_coqc(tmp_path):
    """The planted mistranslation: gap := 1/2 - Rpower x p, whose value at x = 0 is 1/2 - 1 < 0 (Coq's
    ln 0 = 0), so the theorem it states is false."""
    assert Fraction(1, 2) - 1 < 0
    exported = export_certificate(proved_certificate(*BELOW_HALF), "below half")
    planted = exported.text.replace(
        "((1 / 2) + ((-1) * (sb_rpow v_x v_p))).", "((1 / 2) + ((-1) * (Rpower v_x v_p)))."
    )
    assert planted != exported.text
    path = tmp_path / "Planted.v"
    path.write_text(planted, encoding="utf-8")
    verdict = check_file(path)
    assert verdict.status == "rejected", verdict


def test_the_readme_power_sum_is_accepted_by_coqc_with_no_hypothesis(tmp_path):
    """x^p + (1 - x)^p >= 1 on x in [0, 1], p in (0, 1] (the README's example): monotone in p, both
    bases reaching 0 at an end of x."""
    certificate = proved_certificate("x^p + (1-x)^p >= 1", "x: [0, 1], p: (0, 1]")
    record = export_to(certificate, tmp_path / "Sum.v", True, "power sum")
    assert record["coq"] == "accepted", record
    assert record["hypotheses"] == []
    text = (tmp_path / "Sum.v").read_text(encoding="utf-8")
    assert "Lemma box_1_at_x_lo :" in text and "Lemma box_1_at_x_hi :" in text


def test_sb_identity_laws_proves_the_laws_of_exponents_and_refuses_a_planted_wrong_one(tmp_path):
    with precision(256):
        half = arb(1) / 2
        assert abs((arb(2) ** half) * (arb(2) ** half) - arb(2) ** (half * half)) > arb("0.1")
        assert abs((arb(2) ** half) * (arb(2) ** half) - arb(2) ** (half + half)) < arb("1e-70")
    verdict = identities_checked(list(LAWS.values()), tmp_path)
    assert verdict.status == "accepted", verdict.reason  # type: ignore[attr-defined]
    planted = identities_checked([PLANTED_LAW], tmp_path)
    assert planted.status == "rejected", planted  # type: ignore[attr-defined]


POSITIVE = {
    "0 < v_x -> 0 < / Rpower v_x v_y * / Rpower 2 v_y * (v_x + 2) ^ 2": ("(v_x + 2) ^ 2", "(v_x - 2)"),
    "0 < v_x -> 0 < sqrt (v_x + 1) * / (v_y + (1 - v_y)) * (exp v_y + v_x) ^ 3 * Rpower v_x v_y": (
        "(v_x + 1)",
        "(v_x - 2)",
    ),
}
"""Claims > 0 on x in (0, 1], y in [0, 1], with the plant that makes each false there. The first is a scale
step's multiplier 1 / (x^y 2^y) (x + 2)^2, its plant a factor x - 2 <= -1. The second needs every rule
of the union: sqrt_lt_R0, pow_lt, Rplus_lt_0_compat with exp_pos at a leaf, Rpower by exp_pos, and lra
on the sum y + (1 - y) as a whole (split, y > 0 fails at y = 0); neither rule list the tactic replaced
proves it alone. Its plant sqrt (x - 2) is 0 in Coq (the square root of a negative number)."""


def test_sb_positive_shows_a_product_of_positive_factors_and_refuses_one_with_a_negative_factor(tmp_path):
    verdict = identities_checked(list(POSITIVE), tmp_path, "intro; sb_positive")
    assert verdict.status == "accepted", verdict.reason  # type: ignore[attr-defined]
    for claim, (old, new) in POSITIVE.items():
        planted = identities_checked([claim.replace(old, new)], tmp_path, "intro; sb_positive")
        assert planted.status == "rejected", (claim, planted)  # type: ignore[attr-defined]
