"""The growth comparison of one or two expressions in one variable L -> oo: what ``specbound growth``
prints, as a record a notebook can read (:func:`compare_growth`).

The mathematics, in the order it is decided:

1. each expression's class e^(rate L) L^power (ln L)^log_power (ln ln L)^loglog_power, by the rules of
   :mod:`theory.growth` (its parameters under the assumptions given: "NAME: bounded", "NAME: SET");
2. with a second expression, the classes compared lexicographically (:func:`theory.growth.compare`): the
   one of larger class grows faster; equal classes are "the same growth class";
3. for two expressions of L alone (no parameters), the crossover: the smallest L0 >= ``start`` from which
   the slower expression (the first, for equal classes) is <= the faster for every L >= L0
   (:func:`theory.derive.crossover.crossover`), proved by one kernel certificate over [L0, oo), or derived
   (a certificate over [L0, X] and the log form for [X, oo)), or refuted just below L0;
4. the kernel certificate of that claim, when one certificate proved it (the half-line certificate, else
   the prover's).

A class or comparison the rules cannot decide is recorded (:attr:`GrowthComparison.undecided`), never
guessed. Provenance: derived (decision procedures run by the code).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from theory.derive.crossover import Crossover
from theory.growth import Growth, GrowthQuestion, GrowthUndecided, compare, read_question

PARAMETERS = "parameters"
NOT_ASKED = "not asked"
"""Why a crossover was not computed: the expressions have parameters, or the caller did not ask for it."""


@dataclass(frozen=True)
class GrowthComparison:
    """The questions read (one or two), the classes decided (empty when undecided), the order (sign of
    the first's class minus the second's; None without a second expression or when undecided), the
    crossover (None when not computed: see ``crossover_skipped``) and its kernel certificate (JSON, when
    one certificate proved the claim); ``undecided`` names what the rules could not decide."""

    variable: str
    assumptions: tuple[str, ...]
    questions: tuple[GrowthQuestion, ...]
    classes: tuple[Growth, ...]
    order: int | None = None
    crossover: Crossover | None = None
    crossover_skipped: str | None = None
    certificate: dict[str, Any] | None = None
    undecided: str | None = None

    @property
    def faster(self) -> GrowthQuestion | None:
        """The question of larger class (None: one expression, equal classes or undecided)."""
        if not self.order:
            return None
        return self.questions[0] if self.order > 0 else self.questions[1]

    @property
    def classified(self) -> tuple[tuple[GrowthQuestion, Growth], ...]:
        """Each question with its class (none when a class was undecided)."""
        return tuple(zip(self.questions, self.classes, strict=True)) if self.classes else ()

    @property
    def decided(self) -> bool:
        """Every class decided, the comparison decided, and the crossover (when computed) proved or
        derived: ``specbound growth`` exits 0 exactly then."""
        if self.undecided is not None:
            return False
        return self.crossover is None or self.crossover.decided

    def to_json(self) -> dict[str, Any]:
        """{"in", "assume", "expressions": [{"expr", "class", "rate", "power", "log_power",
        "log_log_power"}], "faster"? (null for equal classes), "crossover"?}: the fields of ``specbound
        growth --json`` but its "constants" and "exit_status"."""
        record: dict[str, Any] = {
            "in": self.variable,
            "assume": list(self.assumptions),
            "expressions": [
                {"expr": q.text, "class": c.text(self.variable), **_class_record(c)}
                for q, c in self.classified
            ],
        }
        if self.order is not None:
            faster = self.faster
            record["faster"] = None if faster is None else faster.text
        if self.crossover is not None:
            record["crossover"] = self.crossover.to_json()
        return record


def _class_record(cls: Growth) -> dict[str, str]:
    return {
        "rate": str(cls.rate),
        "power": str(cls.power),
        "log_power": str(cls.log_power),
        "log_log_power": str(cls.log_log_power),
    }


def compare_growth(
    expr: str,
    variable: str,
    *,
    versus: str | None = None,
    assumptions: tuple[str, ...] = (),
    integer: bool = False,
    start: Fraction | int = 1,
    budget: float = 20.0,
    find_crossover: bool = True,
) -> GrowthComparison:
    """The growth class of ``expr`` as ``variable`` -> oo; with ``versus``, which grows faster and (for
    expressions of ``variable`` alone, when ``find_crossover``) the crossover from ``start`` (over the
    integers when ``integer``) within ``budget`` CPU seconds of proofs, and its kernel certificate (module
    docstring). Expressions are read by the safe language; a malformed one or assumption raises
    InvalidArgument. Within a whole run (:func:`theory.prover.cpu_budget.whole_run`) the crossover stops at
    what is left of it (:func:`theory.prover.cpu_budget.deciding`)."""
    from theory.derive.crossover import crossover
    from theory.prover.cpu_budget import deciding

    assumptions = tuple(assumptions)
    questions = [read_question(expr, variable, assumptions)]
    if versus is not None:
        questions.append(read_question(versus, variable, assumptions))
    asked = (variable, assumptions, tuple(questions))
    try:
        classes = tuple(q.growth() for q in questions)
    except GrowthUndecided as error:
        return GrowthComparison(*asked, (), undecided=str(error))
    if versus is None:
        return GrowthComparison(*asked, classes)
    try:
        order = compare(classes[0], classes[1], questions[0].substitutions | questions[1].substitutions)
    except GrowthUndecided as error:
        return GrowthComparison(*asked, classes, undecided=str(error))
    if assumptions or not find_crossover:
        return GrowthComparison(
            *asked, classes, order, crossover_skipped=NOT_ASKED if not find_crossover else PARAMETERS
        )
    slower, faster = (questions[1], questions[0]) if order > 0 else (questions[0], questions[1])
    with deciding():
        found = crossover(slower.text, faster.text, variable, Fraction(start), integer, budget)
    searched = found.proof.certificate if found.status == "proved" else None
    certificate = found.kernel_tail or (searched.to_json() if searched is not None else None)
    return GrowthComparison(*asked, classes, order, found, certificate=certificate)
