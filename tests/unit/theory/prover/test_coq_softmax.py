"""The softmax reduction's Coq file: ||J h||_1 <= kappa ||h||_inf for every length n, proved by coqc.

The independent references: exact rational arithmetic on J = diag(a) - a a^T for sampled lengths (the
identity ||J h||_1 = sum_i a_i |h_i - a.h| and the bound the file proves), and the sharp point
a = (1/2, 1/2), h = (1, -1), where ||J h||_1 = 1: a kappa below 1 states a false theorem, which coqc
must refuse (planted in the registry's constant and in the theorem's text)."""

from __future__ import annotations

import random
import re
from fractions import Fraction
from pathlib import Path

import pytest
import sympy as sp

from tests.helpers.coq_marks import NEEDS_COQC
from theory.paper_proofs.coq_softmax import REDUCED, export_reduction, reduction_export
from theory.paper_proofs.inequalities import all_lemma_inequalities
from theory.paper_proofs.softmax_every_length import q, vertex_value_every_length
from theory.prover.coq.coqc import TRUSTED_AXIOMS, CoqCheck, check_file
from theory.prover.coq.files import export_files

pytestmark = NEEDS_COQC
THEOREMS = ("Theorem every_length :", "Theorem softmax_every_length :")


def _jacobian_l1(a: list[Fraction], h: list[Fraction]) -> Fraction:
    """||(diag(a) - a a^T) h||_1, entry by entry."""
    n = len(a)
    return sum(
        (abs(sum(((a[i] if i == j else 0) - a[i] * a[j]) * h[j] for j in range(n))) for i in range(n)),
        Fraction(0),
    )


def _compiled(text: str, tmp_path: Path) -> CoqCheck:
    path = tmp_path / "Reduction.v"
    path.write_text(text, encoding="utf-8")
    return check_file(path)


def _lemma_of(text: str, line: int) -> str:
    """The name of the last Lemma or Theorem starting at or above ``line`` (1-based)."""
    names = re.findall(r"^(?:Lemma|Theorem) (\w+)", "\n".join(text.splitlines()[:line]), re.MULTILINE)
    return names[-1]


def test_the_bound_the_file_proves_holds_exactly_on_sampled_lengths_and_is_sharp():
    rng = random.Random(28)
    for n in range(1, 8):
        for _ in range(20):
            weights = [Fraction(rng.randint(0, 9)) for _ in range(n)]
            weights[0] += 1
            a = [w / sum(weights) for w in weights]
            h = [Fraction(rng.randint(-12, 12), 12) for _ in range(n)]
            mean = sum((x * y for x, y in zip(a, h, strict=True)), Fraction(0))
            l1 = _jacobian_l1(a, h)
            assert l1 == sum(x * abs(y - mean) for x, y in zip(a, h, strict=True))
            assert l1 <= max(abs(y) for y in h)
    assert _jacobian_l1([Fraction(1, 2)] * 2, [Fraction(1), Fraction(-1)]) == 1


@pytest.mark.coq
@pytest.mark.slow
def test_the_reduction_file_proves_the_bound_for_every_length_with_nothing_left(tmp_path):
    (entry,) = [e for e in all_lemma_inequalities() if e.name == REDUCED]
    (record,) = export_files([reduction_export(entry, tmp_path / "reduction.v")], True)
    assert record["coq"] == "accepted", record.get("reason")
    assert record["not_exported"] == [] and record["hypotheses"] == []
    assert all(axiom.startswith(TRUSTED_AXIOMS) for axiom in record["axioms"])
    text = (tmp_path / "reduction.v").read_text(encoding="utf-8")
    assert not re.search(r"\b(Admitted|Axiom|admit|Hypothesis|Parameter)\b", text)
    assert all(theorem in text for theorem in THEOREMS)
    assert text.count("<= (1) * sb_norm_inf n h.") == len(THEOREMS)  # kappa = 1: softmax_constant()
    tampered = text.replace("<= (1) * sb_norm_inf n h", "<= (1 / 2) * sb_norm_inf n h")
    verdict = _compiled(tampered, tmp_path)
    assert verdict.status == "rejected" and verdict.line is not None
    assert _lemma_of(tampered, verdict.line) == "every_length"


@pytest.mark.coq
@pytest.mark.slow
def test_a_smaller_kappa_is_refused_where_the_vertex_inequality_fails(tmp_path):
    derived = vertex_value_every_length()
    half = sp.Rational(1, 2)
    text = export_reduction(derived, half - 4 * q * (1 - q), half).text  # the registry's gap: kappa - V
    verdict = _compiled(text, tmp_path)
    assert verdict.status == "rejected" and verdict.line is not None
    assert _lemma_of(text, verdict.line) == "vertex_inequality"


@pytest.mark.coq
@pytest.mark.slow
def test_a_planted_vertex_value_is_refused(tmp_path):
    derived = vertex_value_every_length()
    assert derived is not None
    planted = derived + sp.Rational(1, 100) * q
    assert planted.subs(q, sp.Rational(1, 2)) != 1  # 4 q (1 - q) is 1 at q = 1/2
    text = export_reduction(planted, 1 - 4 * q * (1 - q), sp.Integer(1)).text
    verdict = _compiled(text, tmp_path)
    assert verdict.status == "rejected" and verdict.line is not None
    assert _lemma_of(text, verdict.line) == "vertex_value"
