"""A lemma of the bound: its statement as sympy objects, its assumptions, its provenance, its checks.

A :class:`Lemma` is one step of the chain of docs/mathematics.md. It carries the statement (sympy
expressions or relations), the domain of every symbol, the assumptions in words, a provenance tag with
its source, and zero or more symbolic self-checks. A check is a function returning ``(verdict, witness)``;
running it yields a :class:`CheckResult` with a plain bool verdict and the simplified witness. A check
that raises, or returns anything but a bool verdict, is reported as failed with the reason: there is no
silent None.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from theory.provenance import Tagged


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one symbolic self-check: verdict, witness (simplified expression or counterexample)."""

    name: str
    verdict: bool
    witness: str
    description: str

    @property
    def passed(self) -> bool:
        """The verdict, under the name the JSON output uses."""
        return self.verdict

    def to_json(self) -> dict[str, Any]:
        """{"name", "passed", "witness", "description"}."""
        return {
            "name": self.name,
            "passed": self.verdict,
            "witness": self.witness,
            "description": self.description,
        }


@dataclass(frozen=True)
class Check:
    """A named symbolic self-check: ``run()`` returns (verdict, witness).

    ``control``, when given, is a negative control: the same decision applied to a planted false variant
    of the statement, which must come out False. A decision helper that lies (answers True regardless)
    passes the control, and the check then fails: a self-check cannot pass on a helper that lies."""

    name: str
    description: str
    run: Callable[[], tuple[bool, object]]
    control: Callable[[], tuple[bool, object]] | None = None

    def result(self) -> CheckResult:
        """Run the check and its control; an exception or a non-bool verdict is a failure with the reason."""
        outcome = _outcome(self.run)
        if isinstance(outcome, str):
            return CheckResult(self.name, False, outcome, self.description)
        if self.control is not None:
            control = _outcome(self.control)
            if isinstance(control, str) or control[0]:
                shown = control if isinstance(control, str) else control[1]
                return CheckResult(
                    self.name,
                    False,
                    f"negative control not rejected (the deciding helper accepts a planted false statement): "
                    f"{shown}",
                    self.description,
                )
        return CheckResult(self.name, outcome[0], str(outcome[1]), self.description)


def _outcome(run: Callable[[], tuple[bool, object]]) -> tuple[bool, object] | str:
    """(verdict, witness), or the reason as a string when ``run`` raised or returned no bool verdict."""
    try:
        outcome = run()
    except Exception as error:  # a crashing check is reported as failing, never hidden
        return f"check raised {type(error).__name__}: {error}"
    if not (isinstance(outcome, tuple) and len(outcome) == 2 and isinstance(outcome[0], bool)):
        return f"undecided: check returned {outcome!r}"
    return outcome


def _symbol_domain(symbol: sp.Symbol) -> str:
    assumptions = symbol.assumptions0
    for key in ("integer", "positive", "nonnegative", "real"):
        if assumptions.get(key):
            return {"integer": "integer", "positive": "> 0", "nonnegative": ">= 0", "real": "real"}[key]
    return "complex"


@dataclass(frozen=True)
class Lemma:
    """One step of the bound's chain (docs/mathematics.md, steps 1-11).

    ``statement`` holds sympy expressions or relations; ``assumptions`` states, in words, everything a
    reader needs (symbol domains are also read off the symbols); ``tag`` is the provenance and source.
    """

    step: int
    name: str
    title: str
    statement: tuple[sp.Basic, ...]
    assumptions: tuple[str, ...]
    tag: Tagged
    checks: tuple[Check, ...] = ()
    notes: str = ""
    derived: dict[str, sp.Basic] = field(default_factory=dict, compare=False, hash=False)

    @property
    def symbols(self) -> tuple[sp.Symbol, ...]:
        """The free symbols of the statement, sorted by name."""
        free: set[sp.Symbol] = set()
        for part in self.statement:
            free |= {s for s in part.free_symbols if isinstance(s, sp.Symbol)}
        return tuple(sorted(free, key=str))

    @property
    def domains(self) -> dict[str, str]:
        """Symbol name -> its declared domain (e.g. "> 0")."""
        return {str(s): _symbol_domain(s) for s in self.symbols}

    @functools.cached_property
    def results(self) -> tuple[CheckResult, ...]:
        """The outcome of every self-check (computed once)."""
        return tuple(check.result() for check in self.checks)

    @property
    def all_passed(self) -> bool:
        """True iff every self-check passed (vacuously True without checks)."""
        return all(r.verdict for r in self.results)

    def statement_latex(self) -> list[str]:
        """Each part of the statement as LaTeX."""
        return [sp.latex(part) for part in self.statement]

    def _repr_latex_(self) -> str:
        body = r" \\ ".join(self.statement_latex())
        head = rf"\text{{{self.title} ({self.tag.provenance.value})}}"
        return rf"${head}: \begin{{gathered}}{body}\end{{gathered}}$"

    def to_json(self, with_checks: bool = True) -> dict[str, Any]:
        """The JSON record of ``specbound theory --json``."""
        record: dict[str, Any] = {
            "name": self.name,
            "step": self.step,
            "title": self.title,
            "statement": self.statement_latex(),
            "assumptions": [*self.assumptions, *(f"{k} {v}" for k, v in self.domains.items())],
            "provenance": self.tag.provenance.value,
            "source": self.tag.source,
            "notes": self.notes,
        }
        if self.tag.derivation is not None:
            record["derivation"] = self.tag.derivation.to_json()
        if with_checks:
            record["checks"] = [
                {"name": r.name, "passed": r.verdict, "witness": r.witness, "description": r.description}
                for r in self.results
            ]
        return record

    def to_json_text(self) -> str:
        """``to_json()`` serialised."""
        return json.dumps(self.to_json(), indent=2)
