"""Claim 10b: spectrum adaptivity is exercised: where a spectrum decays fast at small scale, the post hoc
choice leaves p = 0 and the bound falls below its p = 0 value.

Trained weights do not show it (claim 10: nearly every real matrix, and every trained synthetic one, picks
p = 0), so this check builds a transformer whose every projection has a power-law spectrum sigma_i =
i^{-2} (numerics.synthetic.designed) and runs it through the same pipeline as a checkpoint: the authors'
proxy (numerics.bounds.proxies) and the assembled bound (numerics.bounds.assembled, n = 1000, delta = 0.1,
margin 1, T = 16). Each post hoc value is compared with its p = 0 value computed here from the ranks
alone: sum_i sqrt(N rank_i) + sqrt(L) for B_ours, sum_i 3 N_i 2^ceil(log2 rank_i) for the assembled Sigma
(the p = 0 MATRIX_TERM with the Schatten shell). Verified when both take p > 0 on some matrix and both are
strictly below their p = 0 value; refuted otherwise (the adaptivity never acts, or the choice is not a
minimum). Provenance: measured (exact proxy; reconstructed Theorem 3.1 for the assembled bound).
"""

from __future__ import annotations

import math
from typing import Any

from paper_checks.registry import Claim, ClaimResult, Verdict

ID = "10b"
TITLE = (
    "Spectrum adaptivity is exercised: on a designed power-law transformer the post hoc choice takes p > 0 "
    "and beats p = 0 (B_ours and the assembled bound)"
)


def _p_zero_values(report: Any) -> tuple[float, float]:
    """(B_ours, assembled Sigma) with every matrix at p = 0, from the ranks alone (read-out w: rank 1)."""
    ours = sum(math.sqrt(report.hidden_size * r.spectrum.rank) for r in report.matrices)
    sigma = sum(
        3 * max(r.spectrum.shape) * 2 ** math.ceil(math.log2(r.spectrum.rank)) for r in report.matrices
    )
    return ours + math.sqrt(report.num_layers), sigma + 3 * report.hidden_size


def check(weights: Any = None) -> ClaimResult:
    """Decide claim 10b on ``weights`` (default: numerics.synthetic.designed's model)."""
    from numerics.bounds.assembled import assembled_bound
    from numerics.bounds.proxies import proxies
    from numerics.synthetic.designed import designed_weights

    weights = designed_weights() if weights is None else weights
    report = proxies(weights)
    bound = assembled_bound(report, n=1000, delta=0.1, margin=1.0, T=16)
    ours_zero, sigma_zero = _p_zero_values(report)
    ours_positive = sum(r.p_opt > 0 for r in report.matrices)
    assembled_positive = sum(m.p > 0 for m in bound.matrices)
    ours, sigma = float(report.ours), float(bound.sigma)
    holds = ours_positive > 0 and assembled_positive > 0 and ours < ours_zero and sigma < sigma_zero
    evidence = (
        f"{weights.source}: B_ours takes p > 0 on {ours_positive} of {len(report.matrices)} matrices, "
        f"{ours:.4g} against {ours_zero:.4g} at p = 0; the assembled bound on {assembled_positive} of "
        f"{len(bound.matrices)}, Sigma {sigma:.6g} against {sigma_zero:.6g} at p = 0"
    )
    details = {
        "model": weights.source,
        "p_ours": [str(r.p_opt) for r in report.matrices],
        "p_assembled": [str(m.p) for m in bound.matrices],
        "B_ours": ours,
        "B_ours_p0": ours_zero,
        "Sigma": sigma,
        "Sigma_p0": sigma_zero,
    }
    return ClaimResult(
        ID,
        TITLE,
        Verdict.VERIFIED if holds else Verdict.REFUTED,
        "measured on designed weights (exact proxy; reconstructed Theorem 3.1)",
        evidence,
        details,
    )


CLAIM = Claim(ID, TITLE, lambda context: check())
