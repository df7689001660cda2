"""Claim 12b: the weight-dependent part of the assembled bound orders trained models as their gaps do.

Claim 12a cannot fail on the quick grid (every bound is above 1). This is the part of claim 12 that can:
a bound that explains generalization must at least rank models like their measured gaps. For each trained
model of the run (the quick grid, one n for all), the weight part GAP_TERM(Sigma) - GAP_TERM(0)
(:func:`_bound_vs_gap.weight_part`, theory.assembled, reconstructed Theorem 3.1) is compared with the
measured ramp gap (held-out ramp risk minus training ramp risk, what the ramp statement of the bound
controls) by Kendall's tau, with its exact permutation p-values (standard: Kendall 1938).
Verdict at level ``level`` (default 0.05): verified when the orderings agree beyond chance
(P(tau >= observed) <= level), refuted when they are opposite beyond chance (P(tau <= observed) <= level),
open otherwise (too few models or no significant order).
Provenance: derived, under reconstructed Theorem 3.1; gaps measured; exact permutation test.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import TYPE_CHECKING

from paper_checks.claims._bound_vs_gap import kendall
from paper_checks.registry import Claim, ClaimResult, Verdict

if TYPE_CHECKING:
    from numerics.synthetic.gap import RatioTable
    from paper_checks.context import RunContext

ID = "12b"
TITLE = "The weight-dependent part of the assembled bound orders trained models as their measured gaps do"
LEVEL = 0.05


def check(table: RatioTable, weight_parts: Sequence[float], level: float = LEVEL) -> ClaimResult:
    """Decide claim 12b: Kendall's tau of ``weight_parts`` (one per row of ``table``) vs the ramp gaps."""
    rows = table.rows
    if len(rows) != len(weight_parts):
        raise ValueError(f"{len(rows)} models but {len(weight_parts)} weight parts")
    gaps = [r.gap.ramp_gap for r in rows]
    order = kendall(list(weight_parts), gaps)
    if len(rows) < 3:
        verdict, reason = Verdict.OPEN, f"only {len(rows)} models: no ordering test"
    elif order.p_concordant <= level:
        verdict, reason = Verdict.VERIFIED, "ordered alike beyond chance"
    elif order.p_discordant <= level:
        verdict, reason = Verdict.REFUTED, "ordered OPPOSITELY beyond chance: larger weight part, smaller gap"
    else:
        verdict, reason = Verdict.OPEN, f"no ordering significant at level {level}"
    evidence = (
        f"Kendall tau(weight part, ramp gap) = {order.tau:.3f} over {len(rows)} models "
        f"({order.concordant} concordant, {order.discordant} discordant pairs of {order.pairs}); "
        f"exact P(tau >= obs) = {order.p_concordant:.3g}, P(tau <= obs) = {order.p_discordant:.3g}: "
        f"{reason}; "
        f"weight parts {min(weight_parts):.4g} to {max(weight_parts):.4g}, ramp gaps {min(gaps):.3f} to "
        f"{max(gaps):.3f}"
    )
    return ClaimResult(
        ID,
        TITLE,
        verdict,
        "derived, under reconstructed Theorem 3.1 (theory.assembled); gaps measured; exact Kendall test "
        "(standard: Kendall 1938)",
        evidence,
        {
            "kendall": asdict(order),
            "level": level,
            "models": [r.label for r in rows],
            "weight_parts": list(weight_parts),
            "ramp_gaps": gaps,
        },
    )


def _run(context: RunContext) -> ClaimResult:
    from paper_checks.claims._bound_vs_gap import weight_part
    from paper_checks.claims.c12_bound_dominates_gap import trained_table_and_bounds

    table, _, bounds = trained_table_and_bounds(context)
    return check(table, [weight_part(b, table.delta) for b in bounds])


CLAIM = Claim(ID, TITLE, _run)
