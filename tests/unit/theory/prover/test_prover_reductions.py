"""The reductions behind the lemma statements: softmax for every T, head dimension in both orders."""

from __future__ import annotations

import pytest
import sympy as sp

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from theory.paper_proofs import inequalities as registry
from theory.paper_proofs import softmax_every_length as every
from theory.prover import lemma_inequalities as lemmas


def _entry(name: str) -> lemmas.LemmaInequality:
    (entry,) = [e for e in registry.all_lemma_inequalities() if e.name == name]
    return entry


def test_the_jacobian_entries_hold_for_every_length():
    assert every.jacobian_entries_hold()


def test_the_l1_norm_over_symbolic_length_is_a_nonnegative_combination_of_absolute_linear_forms():
    norm = every.jacobian_l1_every_length()
    assert every.T in norm.free_symbols
    assert every.is_nonnegative_combination_of_absolute_linear_forms(norm, every.VALUES)


A, H, K = every.WEIGHTS, every.VALUES, every.INDEX


@pytest.mark.parametrize(
    "planted",
    [
        sp.Sum(A[K] * (H[K] - 1) ** 2, (K, 1, every.T)),  # not an absolute value
        sp.Sum(-A[K] * sp.Abs(H[K]), (K, 1, every.T)),  # a negative coefficient: concave
        sp.Sum(A[K] * sp.Abs(H[K] - 1), (K, 1, every.T)),  # affine only: not homogeneous
        sp.Sum(sp.Symbol("c") * sp.Abs(H[K]), (K, 1, every.T)),  # a coefficient of no known sign
    ],
)
def test_the_structural_convexity_check_rejects_what_it_must_not_accept(planted):
    assert not every.is_nonnegative_combination_of_absolute_linear_forms(planted, every.VALUES)


def test_the_vertex_value_is_4q_1_minus_q_for_every_length_and_a_planted_value_is_not():
    assert every.vertex_value_every_length().free_symbols == {every.q}
    assert every.vertex_value_matches(4 * every.q * (1 - every.q))
    assert not every.vertex_value_matches(3 * every.q * (1 - every.q))
    assert not every.vertex_value_matches(4 * every.q * (1 - every.q) + sp.Rational(1, 100))


def test_the_vertex_value_agrees_with_a_concrete_vertex_of_length_five():
    # independent of the Sum manipulation: a = (1, 2, 3, 4, 5)/15, h = (1, -1, 1, 1, -1), q = (1 + 3 + 4)/15
    a = [sp.Rational(k, 15) for k in range(1, 6)]
    h = [1, -1, 1, 1, -1]
    mean = sum(x * y for x, y in zip(a, h, strict=True))
    value = sum(x * abs(y - mean) for x, y in zip(a, h, strict=True))
    assert value == every.vertex_value_every_length().subs(every.q, sp.Rational(8, 15))


def test_softmax_for_every_length_is_proved_with_every_checked_step_holding():
    verdict = lemmas.decide(_entry("jacobian_l1_norm_every_length"))
    assert verdict.result.status == "proved" and verdict.certificates_checked
    assert verdict.steps_hold == (True, True, None, True)
    line = verdict.line()
    assert "covers every T >= 2" in line and "3 reduction steps checked by sympy, 1 standard" in line
    steps = verdict.to_json()["reduction_steps"]
    assert [s["checked"] for s in steps] == [True, True, None, True]
    assert "Rockafellar" in steps[2]["provenance"]


def test_a_planted_wrong_vertex_value_is_rejected_by_the_reduction():
    from theory.lipschitz import softmax_constant

    q = sp.Symbol("q")
    planted = registry._softmax_every_length(3 * q * (1 - q), softmax_constant())
    verdict = lemmas.decide(planted)
    assert verdict.result.status == "proved"  # 3q(1 - q) <= 1 is true: only the reduction can catch it
    assert not verdict.reduction_checked
    assert "reduction is REJECTED" in verdict.line()
    assert verdict.status == "undecided" and verdict.to_json()["status"] == "undecided"
    assert verdict.to_json()["reduction_steps"][3]["checked"] is False


def test_a_planted_lowered_bound_is_refuted_with_a_witness():
    q = sp.Symbol("q")
    planted = registry._softmax_every_length(4 * q * (1 - q), sp.Rational(99, 100))
    verdict = lemmas.decide(planted)
    assert verdict.result.status == "refuted"
    point = verdict.result.parts[0].witness.point["q"]
    assert 4 * point * (1 - point) > sp.Rational(99, 100)  # re-checked in exact rationals


def test_the_t2_cross_check_says_it_covers_t2_only_and_uses_the_derived_constant():
    entry = _entry("jacobian_l1_norm")
    assert entry.covers.startswith("T = 2 only")
    assert entry.statement.inequalities[0].text.endswith("<= 1")


def test_head_dimension_is_stated_for_both_orders_without_a_reduction():
    entry = _entry("head_dimension")
    assert {s.name for s in entry.statement.inequalities[0].gap.free_symbols} == {"d1", "d2"}
    assert "e" not in entry.statement.domain.symbols()
    # d1 + d2 + 1 = 3 max(d1, d2) at d1 = d2 = 1 and the slope of Max has no sign across the diagonal:
    # the kernel's normal form writes max(d1, d2) = (d1 + d2 + |d1 - d2|) / 2, whose enclosure decides it
    verdict = lemmas.decide(entry, 3.0)
    assert verdict.status == "proved" and verdict.certificates_checked


def test_a_planted_false_head_dimension_is_refuted_in_the_order_a_reduction_would_have_skipped():
    # 2 max(d1, d2) fails where d1 = d2; a wrong reduction d2 = d1 + e with e >= 1 would miss it
    planted = lemmas.inequality(
        "rank_k_parametric_covering",
        "planted",
        [(sp.Symbol("d1") + sp.Symbol("d2") + 1, "<=", 2 * sp.Max(sp.Symbol("d1"), sp.Symbol("d2")))],
        "d1: integer >= 1, d2: integer >= 1",
        "planted",
    )
    verdict = lemmas.decide(planted)
    assert verdict.result.status == "refuted"
    point = verdict.result.parts[0].witness.point
    assert point["d1"] + point["d2"] + 1 > 2 * max(point["d1"], point["d2"])
