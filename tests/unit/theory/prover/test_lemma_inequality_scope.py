"""Registered lemma inequalities say what of their lemma they carry: the part the prover decides, the
steps sympy checks and the steps cited (theory.paper_proofs.inequalities entries)."""

from __future__ import annotations

import sympy as sp

from theory.paper_proofs import inequalities as registry
from theory.prover import lemma_inequalities as lemmas


def _entry(name: str) -> lemmas.LemmaInequality:
    (entry,) = [e for e in registry.all_lemma_inequalities() if e.name == name]
    return entry


def test_tail_bound_is_the_markov_step_not_a_tautology():
    entry = _entry("tail_bound")
    (inequality,) = entry.statement.inequalities
    symbols = entry.statement.domain.symbols()
    sigma, d, p = symbols["sigma_k"], symbols["d"], symbols["p"]
    # the gap (sigma + d)^p - sigma^p vanishes only at d = 0: it is the termwise step, with content
    assert sp.simplify(inequality.gap - ((sigma + d) ** p - sigma**p)) == 0
    assert sp.simplify(inequality.gap.subs(d, 0)) == 0 and inequality.gap.subs({sigma: 1, d: 1, p: 1}) == 1
    verdict = lemmas.decide(entry)
    # the kernel leaves it undecided (the gap touches 0 along the face d = 0), never refutes it
    assert verdict.status in ("proved", "undecided") and verdict.steps_hold == (None, True)
    assert (
        "cited" in verdict.line()
        and "1 reduction steps checked by sympy, 1 standard (cited)" in verdict.line()
    )


def test_p_triangle_entry_cites_the_matrix_inequality_it_does_not_imply():
    entry = _entry("p_triangle_scalar_core")
    assert "matrix p-triangle inequality of the lemma is cited" in entry.covers
    assert any("Rotfel'd" in step.provenance and step.check is None for step in entry.steps)


def test_instance_limited_entries_say_which_instances_they_cover():
    limited = {
        "norm_21_below_sqrt_d2_frobenius": "d2 = 3",
        "frobenius_radius": "rank k = 3",
        "vector_norm_reduction": "d2 = 3",
        "optimal_split_below_equal_split": "two matrices",
        "l2_aggregation_below_l1": "three terms",
        "rounding_derivative_brackets": "three tau's",
        "head_dimension": "Candes & Plan 2011",
    }
    for name, scope in limited.items():
        assert scope in _entry(name).covers, name
