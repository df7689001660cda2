"""Rank statistics of a complexity measure against measured generalization gaps (pure numpy).

The protocol of Jiang et al. 2020 ("Fantastic Generalization Measures and Where to Find Them", ICLR,
Sec. 3 and 6) and Dziugaite et al. 2020 ("In Search of Robust Measures of Generalization", NeurIPS,
Sec. 3); provenance: standard (the definitions of those papers), with the choices below documented.

Pairs. Model i has a measured gap g_i with half-width h_i (its confidence interval is g_i +- h_i). A pair
(i, j) is *distinguishable* when |g_i - g_j| > h_i + h_j (the intervals are disjoint); only those pairs
enter a statistic, as the protocol leaves out pairs whose order the measurement cannot tell.

Kendall tau (tau-b on the kept pairs). With C concordant and D discordant kept pairs, and T_m kept pairs
tied in the measure (a kept pair is never tied in the gap),

    tau = (C - D) / sqrt((C + D + T_m) (C + D)),

which is Kendall's tau-b restricted to the kept pairs (it is the plain tau-a when the measure has no ties).
It is undefined (None) when no pair is kept.

Granulated tau (Jiang et al.'s Psi). For hyperparameter k, group the models that agree on every other
coordinate (seed included); psi_k is the mean tau over groups with a defined tau, and
Psi = mean_k psi_k over the hyperparameters with a defined psi_k.

Sign-error (Dziugaite et al.). An environment is (k, a, b): the kept pairs of models that agree on every
coordinate but k, one at value a and the other at b. A pair's error is 1 when the measure orders it
against the gap, 1/2 when the measure ties, 0 otherwise; the environment's error is the mean over its
pairs. We report the worst environment (the maximum) and, as a robust summary, the 90 % quantile
(``numpy.quantile``, linear interpolation) over environments.

Bootstrap. Models are resampled with replacement (``numpy.random.default_rng(seed)``), the statistic is
recomputed (a model drawn twice forms a pair with itself, which is never distinguishable), and the
percentile interval of the defined replicates is reported.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from theory.errors import InvalidArgument

DEFAULT_RESAMPLES = 1000
DEFAULT_LEVEL = 0.95
ROBUST_QUANTILE = 0.9
"""The quantile of environment sign-errors reported beside the worst one."""


def _vectors(measure: object, gap: object, half_width: object) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    m = np.asarray(measure, dtype=np.float64).reshape(-1)
    g = np.asarray(gap, dtype=np.float64).reshape(-1)
    h = np.broadcast_to(np.asarray(half_width, dtype=np.float64), g.shape).astype(np.float64)
    if m.shape != g.shape:
        raise InvalidArgument(f"{m.size} measure values for {g.size} gaps: give one value per model")
    for name, values in (("measure", m), ("gap", g), ("half-width", h)):
        if not np.isfinite(values).all():
            raise InvalidArgument(f"the {name} has NaN or infinite values; take logs or drop those models")
    if (h < 0).any():
        raise InvalidArgument("a gap half-width is negative; it must be >= 0")
    return m, g, h


def pair_signs(
    measure: object, gap: object, half_width: object, pairs: tuple[np.ndarray, np.ndarray]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For index arrays (i, j): sign(m_i - m_j), sign(g_i - g_j), and which pairs are distinguishable."""
    m, g, h = _vectors(measure, gap, half_width)
    i, j = pairs
    kept = np.abs(g[i] - g[j]) > h[i] + h[j]
    return np.sign(m[i] - m[j]), np.sign(g[i] - g[j]), kept


def kendall_tau(measure: object, gap: object, half_width: object = 0.0) -> float | None:
    """tau-b of ``measure`` against ``gap`` over the distinguishable pairs (None if there is none).

    >>> kendall_tau([1, 2, 3], [0.1, 0.2, 0.3])
    1.0
    >>> kendall_tau([3, 2, 1], [0.1, 0.2, 0.3], 0.01)
    -1.0
    >>> kendall_tau([1, 2, 3], [0.1, 0.2, 0.3], 0.1) is None
    True
    """
    n = np.asarray(gap).size
    return _tau(*pair_signs(measure, gap, half_width, np.triu_indices(n, k=1)))


def _tau(sm: np.ndarray, sg: np.ndarray, kept: np.ndarray) -> float | None:
    sm, sg = sm[kept], sg[kept]
    if sm.size == 0:
        return None
    agree = sm * sg
    concordant, discordant = int(np.sum(agree > 0)), int(np.sum(agree < 0))
    ties = int(np.sum(sm == 0))
    untied = concordant + discordant
    if untied == 0:
        return None  # the measure is constant on every kept pair: no ordering to compare
    return float((concordant - discordant) / np.sqrt((untied + ties) * untied))


@dataclass(frozen=True)
class Interval:
    """A statistic, its bootstrap percentile interval, and how many replicates were defined."""

    value: float | None
    low: float | None
    high: float | None
    replicates: int

    def contains(self, x: float) -> bool:
        """True iff the interval is defined and low <= x <= high."""
        return self.low is not None and self.high is not None and self.low <= x <= self.high

    def as_dict(self) -> dict[str, float | int | None]:
        """JSON record."""
        return {"value": self.value, "low": self.low, "high": self.high, "replicates": self.replicates}


def bootstrap(
    statistic: Callable[[np.ndarray], float | None],
    count: int,
    *,
    resamples: int = DEFAULT_RESAMPLES,
    level: float = DEFAULT_LEVEL,
    seed: int = 0,
) -> Interval:
    """``statistic(indices)`` on all ``count`` models and its percentile interval over model resamples."""
    if count < 2:
        raise InvalidArgument(f"{count} model(s): a rank statistic needs at least 2")
    if not 0 < level < 1:
        raise InvalidArgument(f"level={level!r} must be in (0, 1)")
    if not isinstance(resamples, int) or resamples < 10:
        raise InvalidArgument(f"resamples={resamples!r} must be an integer >= 10")
    rng = np.random.default_rng(seed)
    value = statistic(np.arange(count))
    replicates = [statistic(rng.integers(0, count, size=count)) for _ in range(resamples)]
    defined = np.array([r for r in replicates if r is not None], dtype=np.float64)
    if defined.size == 0:
        return Interval(value, None, None, 0)
    tail = (1 - level) / 2
    low, high = np.quantile(defined, [tail, 1 - tail])
    return Interval(value, float(low), float(high), int(defined.size))


def tau_interval(measure: object, gap: object, half_width: object = 0.0, **options: object) -> Interval:
    """:func:`kendall_tau` with its bootstrap interval (``options``: resamples, level, seed)."""
    m, g, h = _vectors(measure, gap, half_width)
    return bootstrap(lambda idx: kendall_tau(m[idx], g[idx], h[idx]), g.size, **options)  # type: ignore[arg-type]


Coordinates = Sequence[Mapping[str, object]]
"""Per model, its coordinates: every hyperparameter value and the seed (any hashable values)."""


def _groups(coordinates: Coordinates, varied: str, subset: np.ndarray) -> list[np.ndarray]:
    """Indices (within ``subset``) of the models that agree on every coordinate except ``varied``."""
    groups: dict[tuple[tuple[str, object], ...], list[int]] = defaultdict(list)
    for index in subset:
        point = coordinates[int(index)]
        if varied not in point:
            raise InvalidArgument(f"model {int(index)} has no coordinate {varied!r}")
        groups[tuple(sorted((k, v) for k, v in point.items() if k != varied))].append(int(index))
    return [np.array(g) for g in groups.values() if len({coordinates[i][varied] for i in g}) > 1]


def granulated_taus(
    measure: object,
    gap: object,
    half_width: object,
    coordinates: Coordinates,
    hyperparameters: Sequence[str],
    subset: np.ndarray | None = None,
) -> dict[str, float | None]:
    """psi_k for every hyperparameter k: the mean tau over groups differing only in k (None if none)."""
    m, g, h = _vectors(measure, gap, half_width)
    if len(coordinates) != g.size:
        raise InvalidArgument(f"{len(coordinates)} coordinate records for {g.size} models")
    subset = np.arange(g.size) if subset is None else subset
    out: dict[str, float | None] = {}
    for name in hyperparameters:
        taus = [kendall_tau(m[grp], g[grp], h[grp]) for grp in _groups(coordinates, name, subset)]
        defined = [t for t in taus if t is not None]
        out[name] = float(np.mean(defined)) if defined else None
    return out


def granulated_psi(
    measure: object,
    gap: object,
    half_width: object,
    coordinates: Coordinates,
    hyperparameters: Sequence[str],
    subset: np.ndarray | None = None,
) -> float | None:
    """Psi = mean over hyperparameters of psi_k (those defined); None when none is defined."""
    psis = granulated_taus(measure, gap, half_width, coordinates, hyperparameters, subset)
    defined = [v for v in psis.values() if v is not None]
    return float(np.mean(defined)) if defined else None


def _ordered(a: object, b: object) -> tuple[object, object]:
    """The two values in increasing order (by their text when they do not compare)."""
    try:
        return (a, b) if a <= b else (b, a)  # type: ignore[operator]
    except TypeError:
        return (a, b) if repr(a) <= repr(b) else (b, a)


@dataclass(frozen=True)
class SignError:
    """Dziugaite et al.'s sign-error: per environment, its worst value and a robust quantile."""

    environments: dict[str, float]
    worst: float | None
    quantile: float | None

    def as_dict(self) -> dict[str, object]:
        """JSON record."""
        return {"worst": self.worst, "quantile": self.quantile, "environments": self.environments}


def sign_error(
    measure: object,
    gap: object,
    half_width: object,
    coordinates: Coordinates,
    hyperparameters: Sequence[str],
    quantile: float = ROBUST_QUANTILE,
) -> SignError:
    """The mean sign-error of every environment (k, a, b), its maximum and its ``quantile``."""
    m, g, h = _vectors(measure, gap, half_width)
    if len(coordinates) != g.size:
        raise InvalidArgument(f"{len(coordinates)} coordinate records for {g.size} models")
    errors: dict[str, list[float]] = defaultdict(list)
    for name in hyperparameters:
        for grp in _groups(coordinates, name, np.arange(g.size)):
            i, j = np.triu_indices(grp.size, k=1)
            a, b = grp[i], grp[j]
            sm, sg, kept = pair_signs(m, g, h, (a, b))
            for x, y, s_m, s_g, keep in zip(a, b, sm, sg, kept, strict=True):
                va, vb = coordinates[int(x)][name], coordinates[int(y)][name]
                if not keep or va == vb:
                    continue
                low, high = _ordered(va, vb)
                errors[f"{name}: {low} vs {high}"].append(0.5 if s_m == 0 else float(s_m != s_g))
    environments = {key: float(np.mean(values)) for key, values in sorted(errors.items())}
    values = np.array(list(environments.values()))
    if values.size == 0:
        return SignError({}, None, None)
    return SignError(environments, float(values.max()), float(np.quantile(values, quantile)))
