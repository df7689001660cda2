"""Claim 12b: the part of the assembled bound through Sigma orders trained models as their gaps do (on the
run's models Sigma is an effective parameter count from the shapes, not a weight-dependent quantity).

Claim 12a cannot fail on the quick grid (every bound is above 1). This is the part of claim 12 that can:
a bound that explains generalization must at least rank models like their measured gaps. For each trained
model of the run (the quick grid, one n for all), the weight part GAP_TERM(Sigma) - GAP_TERM(0)
(:func:`_bound_vs_gap.weight_part`, theory.assembled, reconstructed Theorem 3.1) is compared with the
measured ramp gap (held-out ramp risk minus training ramp risk, what the ramp statement of the bound
controls) by Kendall's tau, with its exact permutation p-values (standard: Kendall 1938).
Verdict at level ``level`` (default 0.05): verified when the orderings agree beyond chance
(P(tau >= observed) <= level), refuted when they are opposite beyond chance (P(tau <= observed) <= level),
open otherwise (too few models or no significant order).

What the test depends on (:class:`WeightPartSource`, in the evidence): the weight part is a function of
Sigma alone, and when every matrix takes p = 0 at full rank, Sigma is the p = 0 parameter count
sum_i 3 N_i 2^ceil(log2 full rank_i), recomputed here from the shapes alone. On the quick grid that is so
for every model: the ordering tested is then the bound's parameter count against the gaps (one seed, one
task, one n), not the spectra; the evidence says so and counts the matrices with p > 0 (where the spectra
would enter: none on the run's models).
Provenance: derived, under reconstructed Theorem 3.1; gaps measured; exact permutation test.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from paper_checks.claims._bound_vs_gap import kendall
from paper_checks.registry import Claim, ClaimResult, Verdict
from theory.errors import InvalidArgument

if TYPE_CHECKING:
    from numerics.bounds.assembled import AssembledBound
    from numerics.synthetic.gap import RatioTable
    from paper_checks.context import RunContext

ID = "12b"
TITLE = (
    "The part of the assembled bound through Sigma orders trained models as their measured gaps do (on "
    "these models Sigma is an effective parameter count, sum 3 N_i 2^ceil(log2 rank_i), from shapes alone)"
)
LEVEL = 0.05


@dataclass(frozen=True)
class WeightPartSource:
    """What one model's weight part is made of: its Sigma, the p = 0 parameter count from its shapes
    (every matrix at p = 0 and full rank) and how many matrices take p > 0."""

    sigma: float
    shape_sigma: float
    positive_p: int

    @property
    def shapes_alone(self) -> bool:
        """Sigma is the p = 0 parameter count: the weight part depends on the shapes alone."""
        return self.positive_p == 0 and self.sigma == self.shape_sigma


def weight_part_source(bound: AssembledBound) -> WeightPartSource:
    """Sigma of ``bound`` against sum_i MATRIX_TERM(p = 0, 2^ceil(log2 r_i), N_i), r_i the full rank of
    matrix i's shape (d_h for QK_h, Vt_h; min(rows, cols) for M_in, M_out; 1 for the read-out)."""
    from numerics.bounds.assembled import ReadOut
    from numerics.formulas.evaluate import evaluate
    from paper_checks.claims._depth import full_rank
    from theory import assembled as theorem

    total = 0.0
    for row in bound.matrices:
        rank = 1 if isinstance(row.matrix, ReadOut) else full_rank(row.matrix)
        shell = 2 ** (rank - 1).bit_length()
        total += float(evaluate(theorem.MATRIX_TERM, p=0, S=shell, s=1, N=row.dimension))
    return WeightPartSource(float(bound.sigma), total, sum(row.p != 0 for row in bound.matrices))


def check(
    table: RatioTable,
    weight_parts: Sequence[float],
    level: float = LEVEL,
    sources: Sequence[WeightPartSource] = (),
    scope: str = "",
) -> ClaimResult:
    """Decide claim 12b: Kendall's tau of ``weight_parts`` (one per row of ``table``) vs the ramp gaps;
    ``sources`` (one per row) and ``scope`` (seed, task, n) say what the ordering tested depends on."""
    rows = table.rows
    if len(rows) != len(weight_parts):
        raise InvalidArgument(
            f"{len(rows)} models but {len(weight_parts)} weight parts: give one weight part per model"
        )
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
    if sources:
        alone = sum(source.shapes_alone for source in sources)
        positive = sum(source.positive_p for source in sources)
        evidence += (
            f"; what it depends on: on {alone}/{len(sources)} models Sigma is the p = 0 parameter count "
            "sum 3 N_i 2^ceil(log2 full rank) recomputed from the shapes alone"
            f" ({min(s.shape_sigma for s in sources):.0f} to {max(s.shape_sigma for s in sources):.0f}), "
            f"and {positive} matrices take p > 0"
        )
        if alone == len(sources):
            evidence += (
                ": the ordering tested is an effective parameter count (the bound's Sigma) against the gaps"
                + (f" ({scope})" if scope else "")
                + ", not the spectra; no model of the run has a matrix at p > 0, so no part of this test "
                "sees a spectrum"
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
            "shape_sigmas": [source.shape_sigma for source in sources],
            "shapes_alone": sum(source.shapes_alone for source in sources),
            "positive_p_matrices": sum(source.positive_p for source in sources),
        },
    )


def _run(context: RunContext) -> ClaimResult:
    from paper_checks.claims._bound_vs_gap import weight_part
    from paper_checks.claims.c12_bound_dominates_gap import trained_table_and_bounds
    from paper_checks.scaling import FULL_GRID, QUICK_GRID

    grid = QUICK_GRID if context.quick else FULL_GRID
    scope = f"one seed ({grid.seed}), one task (sparse selection, noise {grid.noise}), n = {grid.n_train}"
    table, _, bounds = trained_table_and_bounds(context)
    weight_parts = [weight_part(b, table.delta) for b in bounds]
    return check(table, weight_parts, sources=[weight_part_source(b) for b in bounds], scope=scope)


CLAIM = Claim(ID, TITLE, _run)
