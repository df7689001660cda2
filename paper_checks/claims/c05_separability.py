"""Claim 5a: for the proxy's separable sum, the joint infimum over p in P_m^K equals the sum of minima.

For a sum of terms each depending on its own p_i this is an identity (min over a product set of a
separable sum); what can fail is the implementation, and the objective being separable at all. Where
the choices are coupled (the assembled bound's peeling cost), claims 5b (validity) and 5c (joint optimum)
measure it.
Two pieces of evidence. (a) theory's separability lemma (:func:`theory.posthoc.separability_lemma`,
derived: an exhaustive check on exact summands). (b) On real weights: the contributions C_p of K = 3
matrices of ``minilm-l3`` (one QK head, M_in and M_out of different layers) on the model's grid P_m,
from :func:`numerics.bounds.posthoc.contribution`; the joint minimum of ``objective`` over all (2m+1)^3 index
vectors is compared with the sum of the row minima. Provenance: derived, on the exact proxy summand.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import mpmath

from paper_checks.claims._lemmas import check_records, one_line, verdict_of
from paper_checks.registry import Claim, ClaimResult, Verdict
from theory.lemma import Lemma

if TYPE_CHECKING:
    from paper_checks.context import RunContext

ID = "5a"
TITLE = "For the proxy's separable sum, the joint minimum over P_m^K equals the sum of per-matrix minima"

WITNESS_MODEL = "minilm-l3"
WITNESS_MATRICES = ("L0.H0.QK", "L1.M_in", "L2.M_out")

Objective = Callable[[Sequence[Sequence[mpmath.mpf]], tuple[int, ...]], mpmath.mpf]


def summed(table: Sequence[Sequence[mpmath.mpf]], choice: tuple[int, ...]) -> mpmath.mpf:
    """The proxy's objective: sum_i table[i][choice[i]] (each matrix's contribution at its own p)."""
    return mpmath.fsum(row[j] for row, j in zip(table, choice, strict=True))


def contribution_table(
    context: RunContext, model: str = WITNESS_MODEL
) -> tuple[list[str], list[list[mpmath.mpf]]]:
    """C_p on the grid P_m for the witness matrices of ``model`` (numerics.bounds.posthoc.contribution)."""
    from numerics.bounds.posthoc import contribution
    from theory.proxy import grid

    report = context.report(model)
    rows = {row.matrix.label: row for row in report.matrices}
    table = [
        [contribution(rows[label].spectrum, q, rows[label].scale, report.hidden_size) for q in grid(report.m)]
        for label in WITNESS_MATRICES
    ]
    return list(WITNESS_MATRICES), table


def check(
    table: Sequence[Sequence[mpmath.mpf]],
    objective: Objective = summed,
    lemma: Lemma | None = None,
    labels: Sequence[str] = WITNESS_MATRICES,
) -> ClaimResult:
    """Decide claim 5: theory's separability check and the exhaustive joint minimum of ``objective`` over
    ``table`` (rows: matrices, columns: grid points) against the sum of the row minima."""
    if lemma is None:
        from theory.posthoc import separability_lemma

        lemma = separability_lemma()
    records = check_records([lemma])
    symbolic = verdict_of(records)
    choices = itertools.product(*(range(len(row)) for row in table))
    joint_choice = min(choices, key=lambda c: objective(table, c))
    joint = objective(table, joint_choice)
    separate = mpmath.fsum(min(row) for row in table)
    relative = abs(joint - separate) / abs(separate)
    numeric_holds = relative <= mpmath.mpf(10) ** -30
    verdict = Verdict.VERIFIED if numeric_holds and symbolic is Verdict.VERIFIED else Verdict.REFUTED
    if numeric_holds and symbolic is Verdict.OPEN:
        verdict = Verdict.OPEN
    combos = 1
    for row in table:
        combos *= len(row)
    evidence = (
        f"joint min over {combos} p-vectors = {mpmath.nstr(joint, 12)} vs sum of per-matrix minima "
        f"{mpmath.nstr(separate, 12)} (relative difference {mpmath.nstr(relative, 3)}); "
        f"theory: {one_line(records)}; an identity for a separable sum (the coupled case is claims 5b and 5c)"
    )
    return ClaimResult(
        ID,
        TITLE,
        verdict,
        "derived (exhaustive search in mpmath on the exact summand; theory.posthoc separability lemma)",
        evidence,
        {
            "matrices": list(labels),
            "joint_minimiser_indices": list(joint_choice),
            "joint_min": joint,
            "sum_of_minima": separate,
            "checks": records,
        },
    )


def _run(context: RunContext) -> ClaimResult:
    labels, table = contribution_table(context)
    return check(table, labels=labels)


CLAIM = Claim(ID, TITLE, _run)
