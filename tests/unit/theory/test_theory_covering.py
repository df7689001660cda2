"""The covering lemmas of theory.covering: the Maurey lemma is about a Frobenius radius, its bound counts
the M d2 points of the matrix reduction, and the (2,1) norm is bounded by sqrt(d2) ||R||_F (finding 4)."""

from __future__ import annotations

import math

import sympy as sp

from theory import covering


def _rhs_at(values: dict[str, float]) -> float:
    bound = covering.maurey_lemma().statement[0].rhs
    return float(bound.subs({sym: values[sym.name] for sym in bound.free_symbols}))


def test_maurey_bound_is_the_matrix_reduction_with_M_d2_points():
    # By hand: d2 = 4, a = b = 1, eps = 1/2, M = 10: radius eps/sqrt(d2) = 1/4 on M d2 = 40 points,
    # 36 (1 / (1/4))^2 ln(2 ceil(4 * 4 + 2) 40 + 1) = 576 ln(1441).
    value = _rhs_at({"d2": 4, "a": 1, "b": 1, "epsilon": 0.5, "M": 10})
    assert math.isclose(value, 576 * math.log(1441), rel_tol=1e-12)


def test_maurey_lemma_is_about_the_frobenius_radius_and_bounds_the_21_norm_from_above():
    lemma = covering.maurey_lemma()
    assert "Frobenius" in lemma.title and "(2,1)" not in lemma.title
    side = lemma.statement[1]
    assert str(side.lhs) == "||R||_{2,1}"
    assert sp.simplify(side.rhs / sp.Symbol("||R||_F") - sp.sqrt(covering.d2)) == 0


def test_every_covering_self_check_passes():
    for lemma in (covering.parametric_lemma(), covering.maurey_lemma()):
        assert [(r.name, r.witness) for r in lemma.results if not r.verdict] == []


def test_reduction_check_fails_when_the_point_count_is_dropped(monkeypatch):
    # A lying reduction (Zhang's scalar bound unchanged, the M d2 points counted as M) must fail the check.
    monkeypatch.setattr(covering, "maurey_matrix_entropy", covering.maurey_entropy)
    ok, witness = covering._check_matrix_reduction()
    assert not ok, witness
