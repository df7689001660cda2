"""The Lemma object: checks never pass silently, JSON and LaTeX renderings."""

from __future__ import annotations

import json

import sympy as sp

from theory.lemma import Check, Lemma
from theory.provenance import Provenance, Tagged

x = sp.Symbol("x", positive=True)


def _lemma(*checks: Check) -> Lemma:
    return Lemma(
        step=1,
        name="toy",
        title="Toy lemma",
        statement=(sp.Le(x, x + 1, evaluate=False),),
        assumptions=("x > 0",),
        tag=Tagged(Provenance.DERIVED, "test"),
        checks=checks,
    )


def test_passing_failing_raising_and_none_checks():
    lemma = _lemma(
        Check("ok", "true", lambda: (True, "w")),
        Check("bad", "false", lambda: (False, "counterexample x=1")),
        Check("boom", "raises", lambda: 1 / 0),  # type: ignore[arg-type,return-value]
        Check("silent", "returns None", lambda: None),  # type: ignore[arg-type,return-value]
    )
    verdicts = {r.name: r.verdict for r in lemma.results}
    assert verdicts == {"ok": True, "bad": False, "boom": False, "silent": False}
    witnesses = {r.name: r.witness for r in lemma.results}
    assert "ZeroDivisionError" in witnesses["boom"]
    assert witnesses["silent"].startswith("undecided")
    assert not lemma.all_passed


def test_json_record_has_the_cli_fields():
    record = _lemma(Check("ok", "true", lambda: (True, x + 1))).to_json()
    assert set(record) >= {"name", "step", "statement", "assumptions", "provenance", "source", "checks"}
    assert record["provenance"] == "derived"
    assert record["checks"] == [{"name": "ok", "passed": True, "witness": "x + 1", "description": "true"}]
    assert "x > 0" in record["assumptions"]
    json.dumps(record)


def test_latex_rendering_contains_statement_and_tag():
    latex = _lemma()._repr_latex_()
    assert latex.startswith("$") and latex.endswith("$")
    assert r"x \leq x + 1" in latex and "derived" in latex


def test_symbol_domains_are_read_from_the_symbols():
    assert _lemma().domains == {"x": "> 0"}
