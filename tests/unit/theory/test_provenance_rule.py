"""The provenance rule: "derived" only where the code derives it, enforced for every lemma and Formula."""

from __future__ import annotations

import importlib
import pkgutil

import pytest
import sympy as sp

import theory
from theory.formula import Formula
from theory.lemma import Lemma
from theory.provenance import Derivation, Provenance, Tagged, derivation_problem
from theory.registry import all_lemmas

x = sp.Symbol("x", positive=True)


def theory_formulas() -> list[Formula]:
    """Every Formula theory defines at module level (also in dicts), and the lazy MATRIX_TERM, GAP_TERM."""
    found: list[Formula] = []
    for info in pkgutil.iter_modules(theory.__path__):
        module = importlib.import_module(f"theory.{info.name}")
        for value in vars(module).values():
            candidates = value.values() if isinstance(value, dict) else [value]
            found.extend(c for c in candidates if isinstance(c, Formula))
    from theory import assembled

    found.extend([assembled.MATRIX_TERM, assembled.GAP_TERM])
    return list({id(f): f for f in found}.values())


SLOW = {"section5_regimes"}  # 24 s wall at load 10: the regimes' statement is long


@pytest.mark.parametrize(
    "lemma",
    [pytest.param(lemma, marks=pytest.mark.slow) if lemma.name in SLOW else lemma for lemma in all_lemmas()],
    ids=lambda lemma: lemma.name,
)
def test_every_lemma_obeys_the_rule(lemma: Lemma):
    assert derivation_problem(lemma.tag, lemma.statement) is None


def test_every_formula_obeys_the_rule():
    formulas = theory_formulas()
    assert len(formulas) > 20
    problems = {f.name: derivation_problem(f.tag, (f.expr,)) for f in formulas}
    assert {name: problem for name, problem in problems.items() if problem} == {}
    derived = sorted(f.name for f in formulas if f.tag.provenance is Provenance.DERIVED)
    assert derived == ["matrix_term"]  # the rest of theory is typed or cited (not derived)
    from theory.lipschitz import head_lipschitz_sharp

    # standard (Edelman et al.'s attention lemma) with only kappa derived, not a derived formula
    assert head_lipschitz_sharp().tag.provenance is Provenance.STANDARD
    assert "kappa = 1 derived" in head_lipschitz_sharp().tag.source


def test_typed_formulas_named_in_the_review_are_not_derived():
    from theory import assembled

    typed = [*assembled.GAMMA_SYNTHETIC.values(), *assembled.INPUT_BOUND.values(), assembled.SCALE]
    typed += [assembled.LOG_FACTOR, assembled.PEEL_COST, assembled.SPECTRAL_SHELL, assembled.SCHATTEN_SHELL]
    assert all(f.tag.provenance is not Provenance.DERIVED for f in typed)
    from theory.composition import lemma as composition

    assert composition().tag.provenance is not Provenance.DERIVED


def test_the_rule_rejects_a_typed_formula_tagged_derived():
    assert "carries no derivation" in derivation_problem(Tagged(Provenance.DERIVED, "typed"), (x**2,))


def test_the_rule_rejects_a_derivation_that_produces_something_else():
    tag = Tagged(Provenance.DERIVED, "t", Derivation("sp.diff", lambda: (sp.diff(x**3, x),)))
    assert derivation_problem(tag, (3 * x**2,)) is None
    assert "part 0" in derivation_problem(tag, (3 * x**2 + 1,))
    assert "produces 1 parts" in derivation_problem(tag, (3 * x**2, x))


def test_the_rule_rejects_a_derivation_naming_no_operation():
    tag = Tagged(Provenance.DERIVED, "t", Derivation("I typed it", lambda: (x,)))
    assert "names none of" in derivation_problem(tag, (x,))


def test_derived_lemmas_list_their_derivation_in_json():
    derived = [lemma for lemma in all_lemmas() if lemma.tag.provenance is Provenance.DERIVED]
    assert {lemma.name for lemma in derived} == {
        "softmax_lipschitz",
        "gelu_lipschitz",
        "section5_regimes",
        "margin_union",
    }
    for lemma in derived:
        record = lemma.to_json(with_checks=False)
        assert record["derivation"]["operation"] and record["derivation"]["procedure"].startswith("theory.")
