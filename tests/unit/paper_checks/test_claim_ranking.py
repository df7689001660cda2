"""Claim 16's decision on planted ranking tables: verified, refuted and open each where they must be."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numerics.ranking.table import ranking_table
from paper_checks.claims import c16_predictive_ranking as c16
from paper_checks.registry import Verdict


@dataclass(frozen=True)
class Planted:
    coordinates: dict[str, object]
    gap: float
    half_width: float
    measures: dict[str, float]


def _table(ours: np.ndarray, edelman: np.ndarray, gaps: np.ndarray):
    records = [
        Planted({"width": i % 5, "seed": i // 5}, float(g), 1e-3, {"B_ours": float(a), "B_Edelman": float(b)})
        for i, (a, b, g) in enumerate(zip(ours, edelman, gaps, strict=True))
    ]
    return ranking_table(records, ["B_ours", "B_Edelman"], ["width"], resamples=200)


GAPS = np.linspace(0.05, 0.45, 30)


def test_refuted_when_edelman_ranks_perfectly_and_ours_backwards() -> None:
    result = c16.check(_table(-GAPS, GAPS**2, GAPS))
    assert result.verdict is Verdict.REFUTED
    assert "B_ours tau -1.00 [-1.00, -1.00]" in result.evidence
    assert "B_Edelman tau +1.00 [+1.00, +1.00]" in result.evidence


def test_verified_when_ours_ranks_perfectly_and_edelman_backwards() -> None:
    assert c16.check(_table(GAPS, -GAPS, GAPS)).verdict is Verdict.VERIFIED


def test_open_when_both_are_noise_and_the_intervals_overlap() -> None:
    rng = np.random.default_rng(5)
    result = c16.check(_table(rng.standard_normal(30), rng.standard_normal(30), GAPS))
    assert result.verdict is Verdict.OPEN
    assert "overlap" in result.evidence


def test_open_when_no_pair_is_distinguishable() -> None:
    result = c16.check(_table(GAPS, -GAPS, np.full(30, 0.2)))
    assert result.verdict is Verdict.OPEN and "undefined" in result.evidence
