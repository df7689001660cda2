"""Claim 11: on real weights and across depth and width, B_ours grows more slowly than B_Edelman.

Measured by the scaling study (:mod:`paper_checks.scaling`; every proxy from
:func:`numerics.bounds.proxies.proxies`, the numbers ``specbound bound`` prints): for each source (the two
real checkpoints, the prefixes of their layers, the synthetic grid, any user checkpoints) and each axis
(L, N) with at least two sizes, the fitted log-log exponents of both proxies are compared. Ours grows
more slowly when e_ours + z se_ours < e_Edelman - z se_Edelman (standard errors of the fixed-effects
fit; a two-point fit has none and is compared by its point estimates, flagged).
verified: slower on every comparison; refuted: faster beyond the uncertainty on one; open otherwise.
The real checkpoints along L are differently trained models (MiniLM with 3 and with 6 layers), not one
model's depth series: their slope is reported with the outcome "not a depth series" and not counted
(the prefixes of each checkpoint's layers are its depth series).

Agreement with theory: the depth table of :mod:`theory.regimes` (for the regime the weights are in,
rank: p_opt = 0) predicts L^1 for the l1 proxy and exponential growth of B_Edelman with geometric
alpha, hence "slower in depth"; a measured depth comparison that contradicts it makes the verdict open.
Provenance: exact proxies (authors' code) measured on weights; the comparison with the table is derived.
"""

from __future__ import annotations

import dataclasses
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from paper_checks.registry import Claim, ClaimResult, Verdict
from paper_checks.scaling import AXES, ScalingStudy, study_for_context
from theory.errors import InvalidArgument

if TYPE_CHECKING:
    from collections.abc import Sequence

    from paper_checks.claims._depth import CeilingShare
    from paper_checks.context import RunContext

ID = "11"
TITLE = "On real weights and across depth/width, B_ours grows more slowly than B_Edelman"
NOT_A_SERIES = "not a depth series"
"""The outcome of the real checkpoints' slope along L: two differently trained models, not counted."""

SOURCES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("real checkpoints", ("real",)),
    ("truncated real", ("truncated",)),
    ("synthetic grid", ("synthetic",)),
    ("user checkpoints", ("user",)),
)


def theory_depth_prediction(regime: str = "rank") -> str:
    """ "slower", "faster" or "equal": the l1 proxy against the Edelman proxy in depth (geometric alpha),
    read off theory.regimes."""
    from theory import regimes

    ours = regimes.row(regime, "ours_l1", "geometric_alpha")
    edelman = regimes.row(regime, "edelman_proxy", "geometric_alpha")
    if ours.depth == "polynomial" and edelman.depth == "exponential":
        return "slower"
    if ours.depth == "exponential" and edelman.depth == "polynomial":
        return "faster"
    if ours.depth == "exponential":
        a, b = ours.depth_rate_per_log_ell, edelman.depth_rate_per_log_ell
    else:
        a, b = ours.depth_exponent, edelman.depth_exponent
    if a is None or b is None:
        raise InvalidArgument(
            f"regime {regime!r}: theory.regimes rows without a depth growth value: {ours}, {edelman}"
        )
    return "slower" if a < b else "faster" if a > b else "equal"


@dataclass(frozen=True)
class Comparison:
    """Both proxies' fitted exponents on one source and axis, and which grows more slowly."""

    source: str
    axis: str
    ours_exponent: float
    edelman_exponent: float
    has_uncertainty: bool
    outcome: str
    ours: str
    edelman: str

    def __str__(self) -> str:
        flag = "" if self.has_uncertainty else ", no error bar"
        if self.outcome == NOT_A_SERIES:
            return (
                f"{self.source} in {self.axis}: a two-point slope between two differently trained "
                f"checkpoints, ours {self.ours_exponent:.2f} vs Edelman {self.edelman_exponent:.2f} "
                "(not a depth series; not counted)"
            )
        return (
            f"{self.source} in {self.axis}: ours {self.ours_exponent:.2f} vs Edelman "
            f"{self.edelman_exponent:.2f} ({self.outcome}{flag})"
        )


def theory_width_note(regime: str = "rank") -> str:
    """What the table says about width (one head, per-matrix spectra fixed as N grows) and why a measured
    width comparison can point the other way."""
    from theory import regimes

    ours = regimes.row(regime, "ours_l1", "bounded_alpha").width_exponent
    edelman = regimes.row(regime, "edelman_proxy", "bounded_alpha").width_exponent
    return (
        f"in width the table ({regime} regime, one head, spectra and alpha fixed) gives ours N^{ours} vs "
        f"Edelman N^{edelman} (ours never smaller); the synthetic grids keep d_h fixed, so the heads "
        "H = N / d_h grow with N, and their trained norms and depth factors alpha are not held fixed: "
        "B_Edelman sees them (alpha^(2/3) xi_l), B_ours at p = 0 only the count of heads, so a measured "
        "'ours slower in width' (the paper's direction) comes from what the table holds fixed, not from "
        "the spectra"
    )


def depth_dependence(shares: Sequence[CeilingShare]) -> str:
    """What the depth comparisons of ours rest on: how many real-weight prefixes sit at the weight-free
    ceiling (claim 8c), where ours' depth exponent is shapes alone."""
    real = [s for s in shares if s.origin == "truncated"]
    if not real:
        return ""
    at = sum(s.at_ceiling for s in real)
    return (
        "in depth B_ours equals its weight-free ceiling L (2H sqrt(N d_h) + 2N) + sqrt(L) on "
        f"{at}/{len(real)} real-weight prefixes (p_opt = 0 at full rank, claims 8c and 10), so ours' "
        "depth exponent there is shapes alone and the depth comparison rests on B_Edelman's growth, "
        "which the weights set through alpha"
    )


def compare(study: ScalingStudy, z: float = 2.0) -> list[Comparison]:
    """One record per (source, axis) with a fit: both exponents and the outcome slower/faster/undecided."""
    rows = []
    for name, origins in SOURCES:
        for axis in AXES:
            ours, edelman = study.exponent("ours", axis, origins), study.exponent("edelman", axis, origins)
            if ours is None or edelman is None:
                continue
            spread_o, spread_e = z * (ours.stderr or 0.0), z * (edelman.stderr or 0.0)
            if ours.value + spread_o < edelman.value - spread_e:
                outcome = "slower"
            elif ours.value - spread_o > edelman.value + spread_e:
                outcome = "faster"
            else:
                outcome = "undecided"
            certain = ours.stderr is not None and edelman.stderr is not None
            if name == "real checkpoints" and axis == "L":
                outcome = NOT_A_SERIES
            rows.append(
                Comparison(name, axis, ours.value, edelman.value, certain, outcome, str(ours), str(edelman))
            )
    return rows


def check(
    study: ScalingStudy,
    depth_prediction: str | None = None,
    z: float = 2.0,
    shares: Sequence[CeilingShare] = (),
) -> ClaimResult:
    """Decide claim 11 from the scaling study and theory's depth prediction ("slower" by default table);
    ``shares`` (claim 8c's B_ours against its weight-free ceiling) say what the depth rows depend on."""
    prediction = depth_prediction or theory_depth_prediction()
    rows = compare(study, z)
    counted = [r for r in rows if r.outcome != NOT_A_SERIES]
    outcomes = [r.outcome for r in counted]
    depth_outcomes = {r.outcome for r in counted if r.axis == "L"}
    contradicts_theory = bool(depth_outcomes) and depth_outcomes != {prediction}
    if not counted:
        verdict = Verdict.OPEN
    elif "faster" in outcomes:
        verdict = Verdict.REFUTED
    elif all(o == "slower" for o in outcomes) and not contradicts_theory:
        verdict = Verdict.VERIFIED
    else:
        verdict = Verdict.OPEN
    summary = "; ".join(map(str, rows))
    theory_note = f"theory.regimes (rank regime, geometric alpha) predicts ours {prediction} in depth"
    width_note = theory_width_note() if depth_prediction is None else ""
    if contradicts_theory:
        theory_note += f", but the measured depth comparisons are {sorted(map(str, depth_outcomes))}"
    notes = [note for note in (depth_dependence(shares), width_note) if note]
    return ClaimResult(
        ID,
        TITLE,
        verdict,
        "exact proxies (authors' code) measured on real and synthetic weights (log-log fits); derived table",
        f"log-log exponents: {summary}; {theory_note}" + "".join(f"; {note}" for note in notes),
        {
            "comparisons": [asdict(r) for r in rows],
            "theory_depth_prediction": prediction,
            "study": study.to_json(),
        },
    )


def _run(context: RunContext) -> ClaimResult:
    from paper_checks.claims.c08c_l1_proxy_real import depth_shares

    result = check(study_for_context(context), shares=depth_shares(context))
    if result.verdict is Verdict.OPEN and context.quick:
        hint = (
            "the larger grid of `specbound scaling --grid full` (depths 1-4, widths 8-64) has smaller error "
            "bars and puts ours below Edelman in width"
        )
        result = dataclasses.replace(result, evidence=f"{result.evidence}; {hint}")
    if not context.certify:
        return result
    from paper_checks.scaling import REAL_MODELS

    below = {m: context.certified_summary(m)["ours_below_edelman"] for m in REAL_MODELS}
    note = ", ".join(f"{m}: {v}" for m, v in below.items())
    return dataclasses.replace(
        result,
        evidence=f"{result.evidence}; certified B_ours < B_Edelman per real model: {note}",
        details={**result.details, "certified_ours_below_edelman": below},
    )


CLAIM = Claim(ID, TITLE, _run)
