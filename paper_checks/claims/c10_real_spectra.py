"""Claim 10: on real BERT-family weights, QK_h and Vt_h have rank exactly <= d_h; M_in and M_out are
full rank with slower decay; the optimal p is 0 for most matrices.

Measured on the embedded checkpoints (``minilm-l6``, ``minilm-l3``) from their proxy reports
(:func:`numerics.bounds.proxies.proxies`: float64 LAPACK SVD of the exact upcast, thin-factor cores for the
per-head products, the authors' rank tolerance, post hoc p on P_m):

- rank(QK_h), rank(Vt_h) <= d_h = N / H for every head (the products have inner dimension d_h, so
  this part holds by construction; what is measured is that the rank is exactly d_h, no further
  degeneracy, and the decay facts below, which can fail);
- rank(M_in) = rank(M_out) = min(rows, cols) (full rank);
- slower decay: the share of ||W||_F^2 beyond index d_h, sum_{i > d_h} sigma_i^2 / sum_i sigma_i^2, is 0
  for every attention matrix and its median over the feed-forward matrices is above ``tail_share``;
- p_opt = 0 for more than ``majority`` of all matrices.
Provenance: exact matrices and proxy (authors' code), measured on the weights.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from numerics.loading.aliases import DEFAULT_MODELS
from paper_checks.registry import Claim, ClaimResult, Verdict
from theory.proxy import MatrixKind

if TYPE_CHECKING:
    from numerics.bounds.proxies import ProxyReport
    from paper_checks.context import RunContext

ID = "10"
TITLE = (
    "Real weights: rank(QK_h), rank(Vt_h) <= d_h exactly; M_in/M_out full rank, slower decay; p_opt mostly 0"
)


def tail_share(values: np.ndarray, head_dim: int) -> float:
    """sum_{i > d_h} sigma_i^2 / sum_i sigma_i^2 (0 when at most d_h values are nonzero)."""
    squares = (values / values[0]) ** 2
    return float(squares[head_dim:].sum() / squares.sum())


def summarise(report: ProxyReport) -> dict[str, Any]:
    """The facts claim 10 needs from one model's report."""
    head_dim = report.hidden_size // report.num_heads
    attention = [r for r in report.matrices if r.matrix.kind in (MatrixKind.QK, MatrixKind.VT)]
    ffn = [r for r in report.matrices if r.matrix.kind in (MatrixKind.M_IN, MatrixKind.M_OUT)]
    return {
        "model": report.source,
        "head_dim": head_dim,
        "attention_matrices": len(attention),
        "attention_rank_above_head_dim": [r.matrix.label for r in attention if r.spectrum.rank > head_dim],
        "attention_rank_equal_head_dim": sum(r.spectrum.rank == head_dim for r in attention),
        "attention_max_tail_share": max(tail_share(r.spectrum.singular_values, head_dim) for r in attention),
        "ffn_matrices": len(ffn),
        "ffn_not_full_rank": [r.matrix.label for r in ffn if r.spectrum.rank < min(r.spectrum.shape)],
        "ffn_median_tail_share": float(
            np.median([tail_share(r.spectrum.singular_values, head_dim) for r in ffn])
        ),
        "ffn_median_stable_rank": float(np.median([r.spectrum.stable_rank for r in ffn])),
        "attention_median_stable_rank": float(np.median([r.spectrum.stable_rank for r in attention])),
        "p_opt_zero": sum(r.p_opt == 0 for r in report.matrices),
        "matrices": len(report.matrices),
    }


def certified_findings(summaries: Sequence[dict[str, Any]], majority: float) -> tuple[list[str], list[str]]:
    """(decided failures, undecided facts) from numerics.certify.report.model_summary records."""
    failures, undecided = [], []
    for s in summaries:
        name = str(s["source"]).split(" ")[0]
        for key in ("attention_rank_at_most_head_dim", "feed_forward_full_rank"):
            if s[key] == "no":
                failures.append(f"{name}: certified {key} is false")
            elif s[key] == "undecided":
                undecided.append(f"{name}: {key} undecided by the intervals")
    zero = sum(s["p0_optimal"]["certainly"] for s in summaries)
    possible = zero + sum(s["p0_optimal"]["possibly"] for s in summaries)
    total = sum(s["p0_optimal"]["of"] for s in summaries)
    if possible <= majority * total:
        failures.append(f"certified p_opt = 0 possible for only {possible}/{total} matrices")
    elif zero <= majority * total:
        undecided.append(f"p_opt = 0 certain for only {zero}/{total} matrices")
    return failures, undecided


def check(
    reports: Sequence[ProxyReport],
    tail_share_floor: float = 0.5,
    majority: float = 0.5,
    certified: Sequence[dict[str, Any]] = (),
) -> ClaimResult:
    """Decide claim 10 on the proxy reports of real models (and their certified summaries, if given)."""
    facts = [summarise(r) for r in reports]
    failures = []
    for f in facts:
        name = f["model"]
        if f["attention_rank_above_head_dim"]:
            failures.append(f"{name}: rank > d_h for {f['attention_rank_above_head_dim']}")
        if f["ffn_not_full_rank"]:
            failures.append(f"{name}: not full rank: {f['ffn_not_full_rank']}")
        if not (f["attention_max_tail_share"] == 0 and f["ffn_median_tail_share"] > tail_share_floor):
            failures.append(
                f"{name}: tail share beyond d_h attention {f['attention_max_tail_share']:.3g}, "
                f"feed-forward median {f['ffn_median_tail_share']:.3g} (needs > {tail_share_floor})"
            )
    zero = sum(int(f["p_opt_zero"]) for f in facts)
    total = sum(int(f["matrices"]) for f in facts)
    if zero <= majority * total:
        failures.append(f"p_opt = 0 for only {zero}/{total} matrices")
    parts = [
        f"{str(f['model']).split(' ')[0]}: {f['attention_matrices']} attention ranks <= d_h={f['head_dim']} "
        f"({f['attention_rank_equal_head_dim']} equal), {f['ffn_matrices'] - len(f['ffn_not_full_rank'])}/"
        f"{f['ffn_matrices']} FFN full rank, FFN tail share {f['ffn_median_tail_share']:.2f}"
        for f in facts
    ]
    evidence = "; ".join(parts) + f"; p_opt = 0 for {zero}/{total} matrices"
    undecided: list[str] = []
    provenance = "exact matrices and proxy (authors' code), measured on real weights (float64 LAPACK SVD)"
    if certified:
        certified_failures, undecided = certified_findings(certified, majority)
        failures += certified_failures
        provenance += "; decided again by certified arb intervals"
        evidence += f"; certified: {len(certified_failures)} failures, {len(undecided)} undecided"
    if failures:
        evidence = "fails: " + "; ".join(failures) + " | " + evidence
    verdict = Verdict.REFUTED if failures else Verdict.OPEN if undecided else Verdict.VERIFIED
    return ClaimResult(
        ID,
        TITLE,
        verdict,
        provenance,
        evidence,
        {"models": facts, "failures": failures, "undecided": undecided, "certified": list(certified)},
    )


def _run(context: RunContext) -> ClaimResult:
    certified = [context.certified_summary(m) for m in DEFAULT_MODELS] if context.certify else []
    return check([context.report(m) for m in DEFAULT_MODELS], certified=certified)


CLAIM = Claim(ID, TITLE, _run)
