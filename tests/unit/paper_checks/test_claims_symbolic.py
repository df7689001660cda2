"""Claims 1-3, 4a-4c, 7 and 9: verified on theory's objects, refuted or open on counterexamples."""

from __future__ import annotations

import pytest
import sympy as sp

from paper_checks.claims import (
    c01_rank_endpoint,
    c02_frobenius_endpoint,
    c03_exponent_monotonicity,
    c04_interpolation_endpoints,
    c04b_interpolation_p2,
    c04c_sharp_tail,
    c07_lipschitz,
    c09_token_length,
)
from paper_checks.registry import Verdict
from theory.formula import Formula
from theory.lemma import Check, Lemma
from theory.provenance import Provenance, Tagged
from theory.proxy import N, S, p, s

TAG = Tagged(Provenance.DERIVED, "test counterexample")


def mutant(expr: sp.Expr) -> Formula:
    return Formula("mutant", expr, (p, S, s, N), TAG, "a deliberately wrong summand")


def test_claim_1_holds_for_the_exact_summand():
    result = c01_rank_endpoint.check()
    assert result.verdict is Verdict.VERIFIED
    assert result.details["dC_0/ds"] == "0"


def test_claim_1_refuted_when_the_scale_survives_at_p_0():
    wrong = mutant(S ** (1 / (p + 2)) * s ** ((p + 1) / (p + 2)) * N ** ((p + 1) / (p + 2)))
    result = c01_rank_endpoint.check(wrong)
    assert result.verdict is Verdict.REFUTED and result.details["dC_0/ds"] != "0"


def test_claim_1_refuted_when_p_0_is_not_the_rank_term():
    wrong = mutant(S ** (1 / (p + 1)) * s ** (p / (p + 2)) * N ** ((p + 1) / (p + 2)))
    result = c01_rank_endpoint.check(wrong)
    assert result.verdict is Verdict.REFUTED


def test_claim_2_holds_and_is_refuted_by_a_changed_width_exponent():
    assert c02_frobenius_endpoint.check().verdict is Verdict.VERIFIED
    wrong = mutant(S ** (1 / (p + 2)) * s ** (p / (p + 2)) * N ** ((p + 2) / (p + 3)))
    result = c02_frobenius_endpoint.check(wrong)
    assert result.verdict is Verdict.REFUTED and result.details["difference"] != "0"


def test_claim_3_holds_and_catches_a_non_monotone_exponent():
    assert c03_exponent_monotonicity.check().verdict is Verdict.VERIFIED
    wrong = mutant(S ** (1 / (p + 2)) * s ** (p * (2 - p) / (p + 2)) * N ** ((p + 1) / (p + 2)))
    result = c03_exponent_monotonicity.check(wrong)
    assert result.verdict is Verdict.REFUTED
    assert result.details["exponents"]["s"]["matches"] is False
    assert result.details["exponents"]["N"]["matches"] is True


def _lemma(checks: tuple[Check, ...]) -> Lemma:
    return Lemma(4, "fake_interpolation", "fake", (sp.Integer(0),), (), TAG, checks)


CLAIM_4 = (
    (c04_interpolation_endpoints, ("limit_p_to_0_is_rank_bound",)),
    (c04b_interpolation_p2, ("p_equals_2_is_not_frobenius_maurey",)),
    (c04c_sharp_tail, ("sharp_tail_needs_p_le_2", "sharp_tail_at_2_is_frobenius_maurey")),
)


@pytest.mark.slow  # the three lemmas' self-checks: 15 s wall at load 13
def test_claims_4abc_verified_from_theory_and_refuted_by_a_failing_check():
    for module, names in CLAIM_4:
        assert module.check().verdict is Verdict.VERIFIED, module.ID
        failing = _lemma(
            (
                *(Check(name, "", lambda: (True, "ok")) for name in names[1:]),
                Check(names[0], "", lambda: (False, "exponent -2 != -1")),
            )
        )
        assert module.check(failing).verdict is Verdict.REFUTED, module.ID


def test_claims_4abc_open_when_a_check_is_undecided_or_missing():
    for module, names in CLAIM_4:
        undecided = _lemma((Check(names[0], "", lambda: None),))  # type: ignore[arg-type,return-value]
        assert module.check(undecided).verdict is Verdict.OPEN, module.ID
        assert module.check(_lemma(())).verdict is Verdict.OPEN, module.ID


def test_claim_4c_refuted_when_the_sharp_tail_is_decided_for_p_above_2():
    # sigma_i^2 <= sigma_{k+1}^{2-p} sigma_i^p has log ratio (2 - p) ln(1 + u); decided on p = 2 + q (q > 0)
    # it is negative, and the claim must be refuted.
    from theory import _sympy_tools as tools
    from theory.interpolation import p as p_index

    u, q = sp.symbols("u q", positive=True)
    log_ratio = (2 - p_index) * sp.log(1 + u)
    lemma = _lemma(
        (
            Check(
                "sharp_tail_needs_p_le_2", "", lambda: tools.is_nonnegative(log_ratio.subs(p_index, 2 + q))
            ),
            Check("sharp_tail_at_2_is_frobenius_maurey", "", lambda: (True, "ok")),
        )
    )
    assert c04c_sharp_tail.check(lemma).verdict is Verdict.REFUTED


def test_claim_7_verified_with_1_13_and_refuted_below_sup_gelu_prime():
    result = c07_lipschitz.check(samples=500)
    assert result.verdict is Verdict.VERIFIED
    assert 1.128 < float(sp.sympify(result.details["sup_gelu_derivative"]).evalf()) < 1.13
    assert c07_lipschitz.check(l_phi=sp.Rational(112, 100), samples=500).verdict is Verdict.REFUTED


def test_claim_7_refuted_when_the_softmax_constant_is_too_small():
    result = c07_lipschitz.check(softmax_constant=0.1, samples=500)
    assert result.verdict is Verdict.REFUTED and result.details["sampled_softmax_ratio"] > 0.1


def test_claim_9_verified_on_the_assembled_bound_and_refuted_by_a_sqrt_t_term():
    assert c09_token_length.check().verdict is Verdict.VERIFIED
    t, n = sp.symbols("T n", positive=True)
    wrong = Formula("bad", sp.sqrt(t * sp.log(n)) / sp.sqrt(n) + sp.log(t), (t, n), TAG, "")
    result = c09_token_length.check(wrong)
    assert result.verdict is Verdict.REFUTED
    assert "T" in result.details["expression_with_T_logs_removed"]


def test_claim_9_counts_a_bound_free_of_t_as_verified_and_says_so():
    n = sp.Symbol("n", positive=True)
    result = c09_token_length.check(Formula("free", 1 / sp.sqrt(n), (n,), TAG, ""))
    assert result.verdict is Verdict.VERIFIED and "does not depend" in result.evidence
