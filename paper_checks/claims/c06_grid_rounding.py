"""Claim 6: rounding a continuous optimal p to P_m costs at most a bounded factor when m >= L + ln N.

Evidence: (a) the self-checks of theory's rounding lemma (:func:`theory.posthoc.rounding_lemma`,
derived): C_{p+} <= C_{p*} max(1, sqrt(N) s sigma_1)^{1/(2m)} for p+ the grid point above p*, and the
width part N^{1/(4m)} <= e^{1/4} once m >= ln N; (b) on real weights, for every matrix of
``minilm-l6`` and ``minilm-l3``, the measured cost value_grid / value_continuous of
:func:`numerics.posthoc.choose_p` (grid minimum over P_m versus the minimum over [0, 2]) against that
lemma's factor evaluated at the matrix's N, s, sigma_1 and m (the factor is read off the lemma's
statement, not retyped). Provenance: derived (under the reconstructed post hoc grid of Theorem 3.1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import mpmath
import sympy as sp

from paper_checks.claims._lemmas import check_records, one_line, verdict_of
from paper_checks.registry import Claim, ClaimResult, Verdict
from theory.lemma import Lemma

if TYPE_CHECKING:
    from paper_checks.context import RunContext

ID = "6"
TITLE = "Rounding a continuous optimal p to P_m costs at most a bounded factor when m >= L + ln N"

MODELS = ("minilm-l6", "minilm-l3")


@dataclass(frozen=True)
class RoundingCase:
    """One matrix: the measured grid/continuous ratio and the inputs of the lemma's factor."""

    label: str
    ratio: mpmath.mpf
    hidden_size: int
    scale: mpmath.mpf
    sigma_1: float
    m: int


def rounding_factor(lemma: Lemma) -> tuple[sp.Expr, dict[str, sp.Symbol]]:
    """The factor max(1, sqrt(N) s sigma_1)^{1/(2m)}: the lemma's right side divided by C(p*)."""
    relation = lemma.statement[0]
    optimum = next(a for a in sp.Mul.make_args(relation.rhs) if isinstance(a, sp.core.function.AppliedUndef))
    factor = sp.simplify(relation.rhs / optimum)
    return factor, {str(sym): sym for sym in factor.free_symbols}


def cases_from_reports(context: RunContext, models: Sequence[str] = MODELS) -> list[RoundingCase]:
    """Every matrix of ``models`` with its measured rounding ratio (numerics.posthoc.choose_p)."""
    out = []
    for model in models:
        report = context.report(model)
        for row in report.matrices:
            out.append(
                RoundingCase(
                    f"{model}:{row.matrix.label}",
                    row.choice.value_grid / row.choice.value_continuous,
                    report.hidden_size,
                    row.scale,
                    row.spectrum.spectral_norm,
                    report.m,
                )
            )
    return out


def check(cases: Sequence[RoundingCase], lemma: Lemma | None = None) -> ClaimResult:
    """Decide claim 6: theory's rounding checks pass and no measured ratio exceeds the lemma's factor."""
    if lemma is None:
        from theory.posthoc import rounding_lemma

        lemma = rounding_lemma()
    records = check_records([lemma])
    factor, symbols = rounding_factor(lemma)
    bound = sp.lambdify(
        [symbols["N"], symbols["s"], symbols["sigma_1"], symbols["m"]], factor, modules="mpmath"
    )
    rows, violations = [], []
    with mpmath.workdps(30):
        for case in cases:
            limit = bound(case.hidden_size, case.scale, mpmath.mpf(case.sigma_1), case.m)
            rows.append((case.label, case.ratio, limit))
            if case.ratio > limit:
                violations.append(case.label)
    worst = max(rows, key=lambda r: r[1] / r[2])
    largest_factor = max(r[2] for r in rows)
    paying = sum(1 for r in rows if r[1] > 1)
    verdict = Verdict.REFUTED if violations else verdict_of(records)
    evidence = (
        f"{len(rows)} matrices: worst grid/continuous ratio {mpmath.nstr(worst[1], 8)} ({worst[0]}) vs its "
        f"bound {mpmath.nstr(worst[2], 8)}; largest bound {mpmath.nstr(largest_factor, 6)}; "
        f"{len(violations)} violations; {paying} matrices pay any grid cost; "
        f"theory: {one_line(records)}"
    )
    return ClaimResult(
        ID,
        TITLE,
        verdict,
        "derived (theory.posthoc rounding lemma; measured with numerics.posthoc.choose_p on real weights)",
        evidence,
        {
            "factor": str(factor),
            "violations": violations,
            "max_ratio": max(r[1] for r in rows),
            "largest_bound": largest_factor,
            "matrices_with_grid_cost": paying,
            "checks": records,
        },
    )


CLAIM = Claim(ID, TITLE, lambda context: check(cases_from_reports(context)))
