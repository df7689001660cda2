"""A derivation's step by a fact under a substitution in the Coq file (no coqc here; the slow tier's
tests/slow/test_derive_coq.py has coqc judge every example): the fact's own proof is a module of the
file, applied at the substitution in the fact's variable order, each obligation from its certificate."""

from __future__ import annotations

from pathlib import Path

from theory.derive import derive
from theory.paper_proofs import facts
from theory.prover.coq.derivation import export_derivation

EXAMPLE = Path(__file__).parents[4] / "docs" / "examples" / "lemma_under_substitution.toml"


def test_a_step_by_a_lemma_applies_the_lemmas_module_at_the_substitution():
    """(sqrt x + sqrt y)^2 <= 2 x + 2 y at x = u + 1, y = v (the file's order: x first), times 1 + v: the
    lemma's module fact_1 (its gap over v_x v_y, its statement over x, y >= 0) is applied at
    (1 + v_u) v_v, the factor 1 + v >= 0 and u + 1 >= 0 from their certificates' modules, nothing
    assumed."""
    certificate = derive(EXAMPLE, 20, facts()).certificate()
    exported = export_derivation(certificate, "")
    text = exported.text
    assert exported.hypotheses == []
    assert "Module fact_1.\n" in text
    assert "Definition gap (v_x v_y : R) : R :=" in text
    assert "Theorem statement : forall v_x v_y : R, 0 <= v_x -> 0 <= v_y -> 0 <= gap v_x v_y." in text
    assert "assert (H : 0 <= (fact_1.gap (1 + v_u) v_v)) by (apply fact_1.statement;" in text
    assert "Module step_1_obligation_1.\n" in text and "Module step_1_obligation_2.\n" in text
    assert "= (1 + v_v) * (fact_1.gap (1 + v_u) v_v)) by (unfold fact_1.gap;" in text
    for word in ("Admitted", "Axiom", "Hypothesis", "Parameter"):
        assert word not in text
