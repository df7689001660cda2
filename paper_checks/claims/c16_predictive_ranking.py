"""Claim 16: B_ours ranks trained small transformers by generalization gap better than B_Edelman.

The ranking study of ``specbound correlate`` (quick profile: 24 synthetic transformers varying depth,
width, heads, learning rate, weight decay, training-set size and label noise one at a time, 3 seeds;
:mod:`numerics.ranking.study`, cached on disk so a second run trains nothing): Kendall's tau-b of each
proxy against the measured 0-1 gap over the pairs whose gaps are distinguishable, with 95 % bootstrap
percentile intervals (:mod:`numerics.ranking.statistics`, Jiang et al. 2020 protocol).

verified when B_ours's interval lies entirely above B_Edelman's; refuted when entirely below; open when
the intervals overlap (the family cannot tell them apart). Psi and the worst-environment sign-error
(Dziugaite et al. 2020) are reported beside. Provenance: measured; both proxies exact (authors' code).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from paper_checks.registry import Claim, ClaimResult, Verdict

if TYPE_CHECKING:
    from numerics.ranking.statistics import Interval
    from numerics.ranking.table import RankingTable
    from paper_checks.context import RunContext

ID = "16"
TITLE = "B_ours ranks trained small transformers by generalization gap better than B_Edelman"
PROFILE = "quick"
PROVENANCE = (
    "measured: Kendall tau-b on distinguishable pairs, 95% bootstrap intervals (Jiang et al. 2020); "
    "B_ours and B_Edelman exact (authors' code)"
)


def _text(name: str, tau: Interval, psi: float | None, worst: float | None) -> str:
    value = "n/a" if tau.value is None else f"{tau.value:+.2f}"
    interval = "n/a" if tau.low is None else f"[{tau.low:+.2f}, {tau.high:+.2f}]"
    extra = f"Psi {'n/a' if psi is None else f'{psi:+.2f}'}, worst sign-error "
    extra += "n/a" if worst is None else f"{worst:.2f}"
    return f"{name} tau {value} {interval} ({extra})"


def check(table: RankingTable, family: str = "") -> ClaimResult:
    """Decide claim 16 from a ranking table holding the rows B_ours and B_Edelman."""
    ours, edelman = table.row("B_ours"), table.row("B_Edelman")
    a, b = ours.tau, edelman.tau
    if a.low is None or a.high is None or b.low is None or b.high is None:
        verdict = Verdict.OPEN
        reason = "a tau is undefined (no distinguishable pair)"
    elif a.low > b.high:
        verdict, reason = Verdict.VERIFIED, "B_ours's interval lies above B_Edelman's"
    elif a.high < b.low:
        verdict, reason = Verdict.REFUTED, "B_ours's interval lies below B_Edelman's"
    else:
        verdict, reason = Verdict.OPEN, "the intervals overlap"
    evidence = (
        f"{table.models} models{f' ({family})' if family else ''}, {table.distinguishable_pairs}/"
        f"{table.pairs} pairs distinguishable: "
        f"{_text('B_ours', a, ours.granulated, ours.sign.worst)}; "
        f"{_text('B_Edelman', b, edelman.granulated, edelman.sign.worst)}: {reason}"
    )
    return ClaimResult(ID, TITLE, verdict, PROVENANCE, evidence, {"table": table.to_json()})


def _run(context: RunContext) -> ClaimResult:
    from numerics.ranking.measures import MEASURES
    from numerics.ranking.study import HYPERPARAMETERS, PROFILES, default_cache, run_study
    from numerics.ranking.table import ranking_table

    profile = PROFILES[PROFILE]

    def compute() -> RankingTable:
        records = run_study(profile.points(), cache=default_cache())
        return ranking_table(records, list(MEASURES), HYPERPARAMETERS)

    table = context.memo(("ranking", PROFILE), compute)
    return check(table, f"specbound correlate --profile {PROFILE}")


CLAIM = Claim(ID, TITLE, _run)
