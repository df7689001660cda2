"""Claim 5b: in the assembled bound, whose peeling cost depends on p, per-matrix minima are jointly optimal.

What holds exactly: the assembled bound (reconstructed Theorem 3.1) holds for every p-vector in P_m^K at
once (union bound over the grid, peeling over the Schatten shells), so the per-matrix minima of
MATRIX_TERM that :func:`numerics.bounds.assembled.assembled_bound` takes are always a valid choice. They
minimise Sigma; GAP_TERM also grows with the peeling cost P, which depends on each chosen p through its
Schatten shell, so they need not minimise GAP_TERM. This claim states that they do, on the trained models
of the run, and is refuted by any model whose exact joint minimum (:func:`_joint_p.joint_minimum`, Pareto
front of (Sigma, P)) is smaller beyond ``tolerance`` (relative). Open when no model was evaluated or when the
option table does not reproduce numerics.bounds.assembled's own choice (then the comparison says nothing).
Provenance: derived, under reconstructed Theorem 3.1; exact search over P_m^K.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import mpmath

from paper_checks.registry import Claim, ClaimResult, Verdict

if TYPE_CHECKING:
    from paper_checks.claims._joint_p import JointMinimum
    from paper_checks.context import RunContext

ID = "5b"
TITLE = "In the assembled bound (p-dependent peeling cost) the per-matrix minima also minimise it jointly"
TOLERANCE = 1e-12


@dataclass(frozen=True)
class JointCase:
    """One model: the joint minimum and whether the option table reproduced numerics.bounds.assembled's
    choice."""

    label: str
    result: JointMinimum
    reproduces_assembled: bool


def check(cases: Sequence[JointCase], tolerance: float = TOLERANCE) -> ClaimResult:
    """Decide claim 5b: per-matrix minima give GAP_TERM within ``tolerance`` of the joint minimum."""
    unreliable = [c.label for c in cases if not c.reproduces_assembled]
    worse = [c for c in cases if c.result.relative_excess > tolerance]
    if worse:
        verdict = Verdict.REFUTED
    elif unreliable or not cases:
        verdict = Verdict.OPEN
    else:
        verdict = Verdict.VERIFIED
    largest = max(cases, key=lambda c: c.result.relative_excess, default=None)
    fronts = [c.result.front_size for c in cases]
    parts = [
        f"{len(cases) - len(worse)}/{len(cases)} models: GAP_TERM at the per-matrix minima equals the "
        f"exact joint minimum over P_m^K (relative tolerance {tolerance:g})"
    ]
    if largest is not None:
        parts.append(
            f"largest excess {mpmath.nstr(largest.result.relative_excess, 3)} ({largest.label}: "
            f"{mpmath.nstr(largest.result.separate_gap, 10)} vs {mpmath.nstr(largest.result.joint_gap, 10)}, "
            f"{largest.result.matrices_that_differ} matrices with another p)"
        )
        parts.append(f"Pareto fronts of (Sigma, P) of {min(fronts)} to {max(fronts)} points")
    if worse:
        parts.append(f"NOT jointly optimal: {[c.label for c in worse]}")
    if unreliable:
        parts.append(f"option table differs from numerics.bounds.assembled for {unreliable}")
    if not cases:
        parts = ["no trained model evaluated"]
    parts.append("per-matrix minima are always a valid choice (the bound holds for every p-vector)")
    return ClaimResult(
        ID,
        TITLE,
        verdict,
        "derived, under reconstructed Theorem 3.1 (theory.assembled GAP_TERM and PEEL_COST); exact search",
        "; ".join(parts),
        {
            "models": [
                {
                    "label": c.label,
                    "separate_gap": c.result.separate_gap,
                    "joint_gap": c.result.joint_gap,
                    "relative_excess": c.result.relative_excess,
                    "matrices_that_differ": c.result.matrices_that_differ,
                    "front_size": c.result.front_size,
                    "reproduces_assembled": c.reproduces_assembled,
                }
                for c in cases
            ],
            "not_jointly_optimal": [c.label for c in worse],
            "tolerance": tolerance,
        },
    )


def _run(context: RunContext) -> ClaimResult:
    from numerics.bounds.proxies import matrix_spectra
    from paper_checks.claims._joint_p import gap_of, joint_minimum, options_of
    from paper_checks.claims.c12_bound_dominates_gap import trained_table_and_bounds

    table, models, bounds = trained_table_and_bounds(context)
    cases = []
    for row, model, bound in zip(table.rows, models, bounds, strict=True):
        options = options_of(bound, matrix_spectra(model.weights))
        result = joint_minimum(options, gap_of(bound))
        reproduces = result.separate_choice == tuple(m.p for m in bound.matrices) and mpmath.almosteq(
            result.separate_gap, bound.gap, 1e-12
        )
        cases.append(JointCase(row.label, result, reproduces))
    return check(cases)


CLAIM = Claim(ID, TITLE, _run)
