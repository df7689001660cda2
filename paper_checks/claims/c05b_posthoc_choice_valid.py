"""Claim 5b: in the assembled bound the per-matrix choice of p is always a valid bound.

The statement (general): reconstructed Theorem 3.1 holds for every p-vector of P_m^K at once, so the
per-matrix minima of MATRIX_TERM that :func:`numerics.bounds.assembled.assembled_bound` takes give a valid
bound, whether or not they minimise GAP_TERM jointly (claim 5c). It rests on three things, each checked:

1. the peeling weights w(j) = exp(-PEEL_COST(j)) over the shell indices j in Z sum to at most 1 (sympy
   summation of theory.assembled's own PEEL_COST: w(0) + 2 sum_{j >= 1} w(j));
2. the union bound over the grid pays ln |P_m^K| = K ln(2m + 1): the confidence term of theory.assembled
   contains exactly K ln(2m + 1) (sympy), and grid(m) has 2m + 1 points for the run's m;
3. each trained model's bound is the one its choice pays for: its Sigma and P are the sums of the chosen
   options' MATRIX_TERM and peeling costs (recomputed from the option table, :func:`_joint_p.options_of`),
   the choice is each matrix's own first minimiser, and every matrix that takes p = 0 pays 3 N_i times its
   exact rank #{sigma_i > 0} rounded up to a power of two (counted from the stored spectrum), so its p = 0
   class contains it.
Refuted when the weights sum above 1, the union-bound term differs, or a model's bound pays less than its
choice needs; open when no trained model was evaluated.
Provenance: derived (sympy), under reconstructed Theorem 3.1; the union bound and peeling are standard.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import mpmath
import sympy as sp

from paper_checks.registry import Claim, ClaimResult, Verdict

if TYPE_CHECKING:
    from paper_checks.claims._joint_p import ModelOptions
    from paper_checks.context import RunContext

ID = "5b"
TITLE = (
    "In the assembled bound the per-matrix choice of p is always a valid bound (every p-vector is covered)"
)
RELATIVE = 1e-12


def peeling_weight_total() -> sp.Expr:
    """sum_{j in Z} exp(-PEEL_COST(j)) = w(0) + 2 sum_{j >= 1} w(j), by sympy (PEEL_COST depends on |j|)."""
    from theory import assembled as theorem

    positive = sp.Symbol("j_pos", integer=True, positive=True)
    weight = sp.exp(-theorem.PEEL_COST.expr.subs(theorem.j, positive))
    at_zero = sp.exp(-theorem.PEEL_COST.expr.subs(theorem.j, 0))
    return sp.simplify(at_zero + 2 * sp.summation(weight, (positive, 1, sp.oo)))


def union_term() -> sp.Expr:
    """What the confidence term pays beyond ln(2/delta) and P:
    (CONFIDENCE_TERM / 3)^2 2n - ln(2/delta) - P."""
    from theory import assembled as theorem

    inside = sp.expand((theorem.CONFIDENCE_TERM.expr / 3) ** 2 * 2 * theorem.n)
    return sp.simplify(inside - sp.log(2 / theorem.delta) - theorem.P_peel)


@dataclass(frozen=True)
class ModelAudit:
    """What one model's bound pays against what its choice needs (:func:`audit`)."""

    label: str
    problems: tuple[str, ...]
    p_zero_matrices: int


def audit(model: ModelOptions) -> ModelAudit:
    """Item 3 of the module docstring for one model."""
    bound, problems = model.bound, []
    chosen = []
    for row, options, rank in zip(bound.matrices, model.options, model.exact_ranks, strict=True):
        own = min(options, key=lambda o: o.term)
        if row.p != own.p:
            problems.append(f"{row.matrix.label} takes p = {row.p}, its own minimiser is {own.p}")
        option = next(o for o in options if o.p == row.p)
        chosen.append(option)
        if row.p == 0:
            needed = 3 * row.dimension * 2 ** max(rank - 1, 0).bit_length()
            if row.term < needed:
                problems.append(
                    f"{row.matrix.label}: p = 0 term {row.term} < 3 N 2^ceil(log2 rank) = {needed}"
                )
    sigma = mpmath.fsum(o.term for o in chosen)
    peel = mpmath.fsum(o.peel for o in chosen)
    if bound.sigma < sigma * (1 - RELATIVE):
        problems.append(f"Sigma {mpmath.nstr(bound.sigma, 12)} < its choice's {mpmath.nstr(sigma, 12)}")
    if bound.peel_cost < peel * (1 - RELATIVE):
        problems.append(f"P {mpmath.nstr(bound.peel_cost, 12)} < its choice's {mpmath.nstr(peel, 12)}")
    return ModelAudit(model.label, tuple(problems), sum(row.p == 0 for row in bound.matrices))


def check(
    weight_total: sp.Expr, union: sp.Expr, grid_sizes: Sequence[tuple[int, int]], audits: Sequence[ModelAudit]
) -> ClaimResult:
    """Decide claim 5b from the peeling weights' sum, the union-bound term, (m, |grid(m)|) pairs and the
    model audits."""
    from theory import assembled as theorem

    expected_union = theorem.K * sp.log(2 * theorem.m + 1)
    weights_ok = bool(sp.simplify(weight_total - 1) <= 0)
    union_ok = sp.simplify(union - expected_union) == 0
    grids_ok = all(size == 2 * m + 1 for m, size in grid_sizes)
    failing = [a for a in audits if a.problems]
    if not (weights_ok and union_ok and grids_ok) or failing:
        verdict = Verdict.REFUTED
    elif not audits:
        verdict = Verdict.OPEN
    else:
        verdict = Verdict.VERIFIED
    parts = [
        f"peeling weights sum to {weight_total} over j in Z (sympy; at most 1 needed)",
        f"union bound over P_m^K: the confidence term pays {union} (needs K ln(2m + 1))",
        f"grid sizes {sorted(set(grid_sizes))} ((m, 2m + 1) needed)",
        f"{len(audits) - len(failing)}/{len(audits)} trained models pay exactly for their per-matrix choice "
        f"(Sigma, P recomputed; {sum(a.p_zero_matrices for a in audits)} p = 0 terms, each at least "
        "3 N_i 2^ceil(log2 exact rank))",
    ]
    if failing:
        parts.append("; ".join(f"{a.label}: {', '.join(a.problems)}" for a in failing))
    if not audits:
        parts.append("no trained model evaluated")
    return ClaimResult(
        ID,
        TITLE,
        verdict,
        "derived (sympy: peeling weights and union-bound term), under reconstructed Theorem 3.1; the union "
        "bound and peeling standard",
        "; ".join(parts),
        {
            "peeling_weight_total": str(weight_total),
            "union_term": str(union),
            "grid_sizes": [list(pair) for pair in grid_sizes],
            "models": [
                {"label": a.label, "problems": list(a.problems), "p_zero_matrices": a.p_zero_matrices}
                for a in audits
            ],
        },
    )


def _run(context: RunContext) -> ClaimResult:
    from paper_checks.claims._joint_p import model_options
    from theory.proxy import grid

    models = model_options(context)
    sizes = sorted({(m.bound.m, len(grid(m.bound.m))) for m in models})
    return check(peeling_weight_total(), union_term(), sizes, [audit(m) for m in models])


CLAIM = Claim(ID, TITLE, _run)
