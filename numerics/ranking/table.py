"""The ranking table of a study: per measure, Kendall tau with its bootstrap interval, Psi, sign-error.

Inputs are :class:`numerics.ranking.study.ModelRecord` (or any records with ``coordinates``, ``gap``,
``half_width`` and ``measures``); the statistics are :mod:`numerics.ranking.statistics`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from numerics.ranking.statistics import (
    DEFAULT_RESAMPLES,
    ROBUST_QUANTILE,
    Interval,
    SignError,
    granulated_taus,
    sign_error,
    tau_interval,
)
from theory.errors import InvalidArgument


class Record(Protocol):
    """What the table needs from one trained model."""

    @property
    def coordinates(self) -> Mapping[str, object]: ...

    @property
    def gap(self) -> float: ...

    @property
    def half_width(self) -> float: ...

    @property
    def measures(self) -> Mapping[str, float]: ...


@dataclass(frozen=True)
class MeasureRanking:
    """How one measure ranks the models: tau (with interval), psi per hyperparameter, Psi, sign-error."""

    name: str
    tau: Interval
    psi: dict[str, float | None]
    sign: SignError

    @property
    def granulated(self) -> float | None:
        """Psi: the mean of the defined psi_k."""
        defined = [v for v in self.psi.values() if v is not None]
        return float(np.mean(defined)) if defined else None

    def as_dict(self) -> dict[str, object]:
        """JSON record."""
        return {
            "measure": self.name,
            "tau": self.tau.as_dict(),
            "psi": self.psi,
            "Psi": self.granulated,
            "sign_error": self.sign.as_dict(),
        }


@dataclass(frozen=True)
class RankingTable:
    """Every measure's ranking statistics on one family of models, and how they were computed."""

    rows: tuple[MeasureRanking, ...]
    models: int
    distinguishable_pairs: int
    pairs: int
    hyperparameters: tuple[str, ...]
    resamples: int

    def row(self, name: str) -> MeasureRanking:
        """The row of measure ``name``."""
        for row in self.rows:
            if row.name == name:
                return row
        raise InvalidArgument(f"no measure {name!r}; the table has {[r.name for r in self.rows]}")

    def to_json(self) -> dict[str, object]:
        """JSON-ready (undefined statistics are null)."""
        return {
            "models": self.models,
            "pairs": self.pairs,
            "distinguishable_pairs": self.distinguishable_pairs,
            "hyperparameters": list(self.hyperparameters),
            "bootstrap_resamples": self.resamples,
            "sign_error_quantile": ROBUST_QUANTILE,
            "measures": [row.as_dict() for row in self.rows],
        }

    def to_markdown(self) -> str:
        """The table: tau [95 % interval], Psi, worst and 90 % sign-error per measure."""
        lines = [
            f"{self.models} models; {self.distinguishable_pairs} of {self.pairs} pairs have distinguishable "
            f"gaps (disjoint confidence intervals) and enter tau; bootstrap {self.resamples} resamples.",
            "",
            "| measure | tau [95% interval] | Psi | worst sign-error | 90% sign-error |",
            "|---|---|---|---|---|",
        ]
        for row in self.rows:
            t = row.tau
            interval = "n/a" if t.low is None else f"[{t.low:+.2f}, {t.high:+.2f}]"
            lines.append(
                f"| {row.name} | {_fmt(t.value)} {interval} | {_fmt(row.granulated)} "
                f"| {_fmt(row.sign.worst, '.2f')} | {_fmt(row.sign.quantile, '.2f')} |"
            )
        return "\n".join(lines) + "\n"


def _fmt(value: float | None, spec: str = "+.2f") -> str:
    return "n/a" if value is None else format(value, spec)


def ranking_table(
    records: Sequence[Record],
    measures: Sequence[str],
    hyperparameters: Sequence[str],
    *,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
) -> RankingTable:
    """Rank every measure in ``measures`` against the records' gaps (bootstrap seeded by ``seed``)."""
    if len(records) < 2:
        raise InvalidArgument(f"{len(records)} model(s): a ranking needs at least 2")
    gap = np.array([r.gap for r in records], dtype=np.float64)
    half = np.array([r.half_width for r in records], dtype=np.float64)
    coordinates = [r.coordinates for r in records]
    i, j = np.triu_indices(len(records), k=1)
    distinguishable = int(np.sum(np.abs(gap[i] - gap[j]) > half[i] + half[j]))
    rows = []
    for name in measures:
        values = np.array([r.measures[name] for r in records], dtype=np.float64)
        rows.append(
            MeasureRanking(
                name,
                tau_interval(values, gap, half, resamples=resamples, seed=seed),
                granulated_taus(values, gap, half, coordinates, hyperparameters),
                sign_error(values, gap, half, coordinates, hyperparameters),
            )
        )
    return RankingTable(
        tuple(rows), len(records), distinguishable, int(i.size), tuple(hyperparameters), resamples
    )
