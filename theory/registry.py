"""The chain of lemmas in order (docs/mathematics.md, steps 1-11) and a runner for all their self-checks.

Lemmas are built lazily (each module's ``lemma()`` functions are cached), so importing this module is
cheap; ``all_lemmas()`` builds them and ``run_all_checks()`` runs every symbolic self-check.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from theory.errors import UnknownName
from theory.lemma import CheckResult, Lemma

CHAIN: tuple[tuple[str, str], ...] = (
    ("theory.schatten", "lemma"),
    ("theory.covering", "parametric_lemma"),
    ("theory.covering", "maurey_lemma"),
    ("theory.interpolation", "lemma"),
    ("theory.lipschitz", "gelu_lemma"),
    ("theory.lipschitz", "softmax_lemma"),
    ("theory.lipschitz", "attention_lemma"),
    ("theory.composition", "lemma"),
    ("theory.dudley", "dudley_lemma"),
    ("theory.dudley", "margin_lemma"),
    ("theory.posthoc", "union_lemma"),
    ("theory.posthoc", "separability_lemma"),
    ("theory.posthoc", "rounding_lemma"),
    ("theory.assembled", "lemma"),
    ("theory.margin_union", "lemma"),
    ("theory.baselines", "edelman_proxy_lemma"),
    ("theory.baselines", "edelman_bound_lemma"),
    ("theory.baselines", "bft_lemma"),
    ("theory.baselines", "trauger_tewari_lemma"),
    ("theory.regimes", "lemma"),
)
"""(module, factory) of every lemma, in chain order."""


@functools.cache
def all_lemmas() -> tuple[Lemma, ...]:
    """Every lemma of the chain, in order (steps 1 to 11).

    >>> [lemma.step for lemma in all_lemmas()][:4]
    [1, 2, 3, 4]
    """
    return tuple(getattr(importlib.import_module(module), factory)() for module, factory in CHAIN)


def lemma_by_name(name: str) -> Lemma:
    """The lemma called ``name`` (:class:`~theory.errors.UnknownName` naming the known ones otherwise)."""
    for lemma in all_lemmas():
        if lemma.name == name:
            return lemma
    raise UnknownName(f"no lemma {name!r}; known: {[lemma.name for lemma in all_lemmas()]}")


HELPER_CONTROLS = "decision_helpers"
"""The name under which the decision helpers' negative controls are reported."""


@dataclass(frozen=True)
class CheckReport:
    """Every lemma with the results of its checks, the helpers' negative controls, and the counts."""

    entries: tuple[tuple[Lemma, tuple[CheckResult, ...]], ...]
    controls: tuple[CheckResult, ...] = ()

    @property
    def total(self) -> int:
        """Number of checks run (the helper controls included)."""
        return sum(len(results) for _, results in self.entries) + len(self.controls)

    @property
    def failed(self) -> tuple[tuple[str, CheckResult], ...]:
        """(lemma name, result) of every failing check, then of every failing helper control."""
        lemmas = tuple((lemma.name, r) for lemma, results in self.entries for r in results if not r.verdict)
        return lemmas + tuple((HELPER_CONTROLS, r) for r in self.controls if not r.verdict)


@functools.cache
def helper_control_results() -> tuple[CheckResult, ...]:
    """Each decision helper of theory._sympy_tools on a planted false statement: passes iff rejected
    (computed once, like each lemma's results; ``helper_control_results.__wrapped__()`` runs them afresh)."""
    from theory._sympy_tools import helper_controls

    return tuple(
        CheckResult(name, passed, witness, "planted false statement, must be rejected")
        for name, passed, witness in helper_controls()
    )


def run_all_checks(
    each: Callable[[tuple[Lemma, ...]], Iterable[Lemma]] | None = None,
) -> CheckReport:
    """Run every self-check of every lemma (each lemma caches its results) and the helper controls (cached
    too); ``each`` wraps the iteration over the lemmas (the command line's per-lemma progress)."""
    lemmas = all_lemmas()
    ordered = lemmas if each is None else each(lemmas)
    return CheckReport(tuple((lemma, lemma.results) for lemma in ordered), helper_control_results())
