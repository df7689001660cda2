"""The scaling study behind claim 11: how B_ours and B_Edelman grow with depth L and width N.

Points come from four sources, each labelled as such:

- ``real``: the embedded checkpoints ``minilm-l3`` and ``minilm-l6`` (L = 3, 6 at N = 384);
- ``truncated``: the depth series obtained by keeping the first k layers of a real model
  (``TransformerWeights.truncated``): not a model trained at depth k, a prefix of one;
- ``synthetic``: small BERT-style encoders trained by the toolkit on CPU (:mod:`numerics.synthetic`)
  over a depth x width grid (a small grid for ``check``, a larger one for ``specbound scaling``);
- ``user``: any checkpoint folder a user passes (e.g. the Google BERT miniatures).

Every proxy value comes from :mod:`numerics.bounds.proxies` (the same numbers ``specbound bound`` prints).
Growth is summarised by a log-log least-squares exponent: log B = e log x + c_g, with one intercept
c_g per group of points that share everything but x (a fixed-effects fit), and the standard error of e
from the residual variance (undefined, reported as None, when no degree of freedom is left).
"""

from __future__ import annotations

import hashlib
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from numerics.loading.aliases import DEFAULT_MODELS
from numerics.safe_io import os_problem
from numerics.spectra.torch_backend import single_thread
from theory.errors import InvalidArgument, SpecboundError

TRAINING = "training the synthetic models"
"""What torch is needed for here, for the one line a missing torch gives."""

if TYPE_CHECKING:
    from numerics.bounds.proxies import ProxyReport
    from numerics.loading.weights import TransformerWeights
    from numerics.synthetic import TrainedModel
    from paper_checks.context import RunContext

AXES = {"L": "layers", "N": "width"}
"""The two scaling axes: depth L (number of layers) and width N (hidden dimension)."""

PROXIES = ("ours", "edelman")


@dataclass(frozen=True)
class ScalingPoint:
    """One model of the study: where it comes from, its size, and the natural logs of both proxies.

    Logs are stored because B_Edelman overflows float64 on deep models; ``origin`` is one of
    real / truncated / synthetic / user; ``family`` groups the points of one series (e.g. the
    truncations of one checkpoint, or the synthetic grid).
    """

    label: str
    origin: str
    family: str
    layers: int
    width: int
    log_ours: float
    log_edelman: float

    def log_proxy(self, proxy: str) -> float:
        """The natural log of proxy ``ours`` or ``edelman``."""
        if proxy not in PROXIES:
            raise InvalidArgument(f"proxy={proxy!r} must be one of {PROXIES}")
        return self.log_ours if proxy == "ours" else self.log_edelman


@dataclass(frozen=True)
class Exponent:
    """A fitted growth exponent of one proxy along one axis, with its standard error (None if n/a)."""

    proxy: str
    axis: str
    value: float
    stderr: float | None
    points: int
    groups: int

    def __str__(self) -> str:
        error = f" ± {self.stderr:.2f}" if self.stderr is not None else " (no error estimate)"
        where = f"({self.points} points, {self.groups} series)"
        return f"{self.proxy} ~ {self.axis}^{self.value:.2f}{error} {where}"


def _other_axis_key(point: ScalingPoint, axis: str) -> tuple[str, int]:
    return (point.family, point.width if axis == "L" else point.layers)


def fit_exponent(
    points: Sequence[ScalingPoint], proxy: str, axis: str, log_size: bool = True
) -> Exponent | None:
    """The fixed-effects log-log slope of ``proxy`` along ``axis``, or None with fewer than 2 sizes.

    Points are grouped by (family, the other axis); only groups with at least two distinct sizes on
    ``axis`` inform the slope. With ``log_size=False`` the fit is log B = r x + c_g: r is the
    exponential rate (B grows by e^r per unit of x), the right summary of a geometric growth.

    >>> logs = [(k, 2 * math.log(k), 1.5 * math.log(k)) for k in (1, 2, 4)]
    >>> pts = [ScalingPoint(f"m{k}", "synthetic", "g", k, 8, ours, ed) for k, ours, ed in logs]
    >>> fit = fit_exponent(pts, "ours", "L")
    >>> round(fit.value, 12), fit.stderr < 1e-9
    (2.0, True)
    """
    if axis not in AXES:
        raise InvalidArgument(f"axis={axis!r} must be one of {tuple(AXES)} (depth L or width N)")
    groups: dict[tuple[str, int], list[ScalingPoint]] = {}
    for point in points:
        groups.setdefault(_other_axis_key(point, axis), []).append(point)
    size = (lambda q: q.layers) if axis == "L" else (lambda q: q.width)
    used = [g for g in groups.values() if len({size(q) for q in g}) >= 2]
    if not used:
        return None
    rows, targets = [], []
    for index, group in enumerate(used):
        for q in group:
            x = math.log(size(q)) if log_size else float(size(q))
            row = [x] + [1.0 if j == index else 0.0 for j in range(len(used))]
            rows.append(row)
            targets.append(q.log_proxy(proxy))
    design, y = np.array(rows), np.array(targets)
    coefficients, _, _, _ = np.linalg.lstsq(design, y, rcond=None)
    dof = len(y) - design.shape[1]
    stderr = None
    if dof > 0:
        residual = y - design @ coefficients
        variance = float(residual @ residual) / dof
        covariance = variance * np.linalg.inv(design.T @ design)
        stderr = math.sqrt(max(float(covariance[0, 0]), 0.0))
    return Exponent(
        proxy, axis if log_size else f"exp({axis})", float(coefficients[0]), stderr, len(y), len(used)
    )


@dataclass(frozen=True)
class SyntheticGrid:
    """The depth x width grid of small BERT-style encoders trained on CPU for the study.

    Head dimension ``head_dim`` throughout (heads = N / head_dim, as the BERT miniatures keep 64), FFN 4N,
    trained on the sparse-selection task of :mod:`numerics.synthetic` (a synthetic objective) with
    label-noise rate ``noise``.
    """

    depths: tuple[int, ...]
    widths: tuple[int, ...]
    head_dim: int = 8
    n_train: int = 64
    epochs: int = 100
    learning_rate: float = 0.005
    noise: float = 0.1
    seed: int = 0


QUICK_GRID = SyntheticGrid(depths=(1, 2, 3), widths=(8, 16, 32))
"""The small grid ``specbound check`` trains (9 models, about 12 s on one core; every model fits its
training sample, train error <= 0.03: at lr 0.01 or depth 4 some did not, and an unfitted model's
proxies say nothing about scaling)."""

FULL_GRID = SyntheticGrid(
    depths=(1, 2, 3, 4), widths=(8, 16, 32, 64), n_train=128, epochs=150, learning_rate=0.003
)
"""The larger grid behind ``specbound scaling``."""


@dataclass(frozen=True)
class ScalingStudy:
    """All points of a study and the fitted exponents of both proxies along L and N."""

    points: tuple[ScalingPoint, ...]
    exponents: tuple[Exponent, ...]

    def exponent(self, proxy: str, axis: str, origins: tuple[str, ...] | None = None) -> Exponent | None:
        """The fitted exponent of ``proxy`` along ``axis`` over all points, or over those of ``origins``."""
        if origins is None:
            return next((e for e in self.exponents if e.proxy == proxy and e.axis == axis), None)
        return fit_exponent([q for q in self.points if q.origin in origins], proxy, axis)

    def rate(self, proxy: str, axis: str, origins: tuple[str, ...]) -> Exponent | None:
        """The exponential rate r of ``proxy`` along ``axis`` (log B = r x + c) over ``origins``."""
        return fit_exponent([q for q in self.points if q.origin in origins], proxy, axis, log_size=False)

    def to_json(self) -> dict[str, object]:
        """Points and exponents as plain data."""
        return {
            "points": [
                {
                    "label": q.label,
                    "origin": q.origin,
                    "family": q.family,
                    "L": q.layers,
                    "N": q.width,
                    "log_ours": q.log_ours,
                    "log_edelman": q.log_edelman,
                }
                for q in self.points
            ],
            "exponents": [
                {"proxy": e.proxy, "axis": e.axis, "value": e.value, "stderr": e.stderr, "points": e.points}
                for e in self.exponents
            ],
        }


def fit_all(points: Sequence[ScalingPoint]) -> ScalingStudy:
    """The study of ``points``: both proxies fitted along both axes (axes without two sizes are skipped)."""
    exponents = [fit_exponent(points, proxy, axis) for proxy in PROXIES for axis in AXES]
    return ScalingStudy(tuple(points), tuple(e for e in exponents if e is not None))


def log_proxies(report: ProxyReport) -> tuple[float, float]:
    """(ln B_ours, ln B_Edelman) of a proxy report, in mpmath (B_Edelman may exceed float64)."""
    import mpmath

    return float(mpmath.log(report.ours)), float(mpmath.log(report.edelman))


def point(label: str, origin: str, family: str, report: ProxyReport) -> ScalingPoint:
    """A study point from a proxy report."""
    log_ours, log_edelman = log_proxies(report)
    return ScalingPoint(label, origin, family, report.num_layers, report.hidden_size, log_ours, log_edelman)


REAL_MODELS = tuple(sorted(DEFAULT_MODELS))
"""The embedded real checkpoints of the study (one width, N = 384: a depth series only)."""


def real_points(context: RunContext, models: Sequence[str] = REAL_MODELS) -> list[ScalingPoint]:
    """The embedded checkpoints (origin ``real``) and every prefix of their layers (origin ``truncated``)."""
    points = []
    for model in models:
        depth = context.weights(model).num_layers
        points.append(point(model, "real", "MiniLM checkpoints", context.report(model)))
        for k in range(1, depth + 1):
            label = f"{model} first {k} of {depth} layers"
            points.append(point(label, "truncated", f"{model} prefixes", context.report(model, depth=k)))
    return points


def train_grid_models(grid: SyntheticGrid) -> tuple[TrainedModel, ...]:
    """Train every (L, N) of ``grid`` on CPU (numerics.synthetic), heads N / head_dim, label noise
    ``grid.noise`` (so the models have a real generalization gap for claim 12)."""
    from numerics.progress import progress
    from numerics.synthetic import SparseSelectionTask, SyntheticConfig, TrainingConfig, train_synthetic

    sizes = [(depth, width) for depth in grid.depths for width in grid.widths]
    bad = [w for w in grid.widths if w % grid.head_dim]
    if bad:
        raise InvalidArgument(f"grid widths {bad} are not multiples of head_dim={grid.head_dim}")
    models = []
    with single_thread(TRAINING):
        for depth, width in progress(sizes, len(sizes), "synthetic grid"):
            config = SyntheticConfig(
                num_layers=depth, hidden_size=width, num_heads=width // grid.head_dim, seed=grid.seed
            )
            task = SparseSelectionTask(hidden_size=width, noise=grid.noise, seed=grid.seed)
            training = TrainingConfig(
                n_train=grid.n_train, epochs=grid.epochs, learning_rate=grid.learning_rate, seed=grid.seed
            )
            models.append(train_synthetic(config, task, training))
    return tuple(models)


def synthetic_points(models: Sequence[TrainedModel]) -> list[ScalingPoint]:
    """The proxies of trained synthetic models (origin ``synthetic``)."""
    from numerics.bounds.proxies import proxies

    points = []
    for trained in models:
        label = f"synthetic {trained.config.label}"
        points.append(point(label, "synthetic", "synthetic grid", proxies(trained.weights, source=label)))
    return points


def _warn(message: str) -> None:
    """A one-line warning on stderr (the study goes on)."""
    print(f"specbound scaling: warning: {message}", file=sys.stderr)


def _candidates(raw: str) -> list[tuple[Path, bool]]:
    """The checkpoints a user path stands for: itself (explicit=True) if it is one, else its subfolders."""
    path = Path(raw)
    try:
        if not path.exists():
            raise InvalidArgument(f"checkpoint path {path} does not exist")
        children = sorted(c for c in path.iterdir() if c.is_dir()) if path.is_dir() else []
        is_model = path.is_file() or (path / "config.json").exists()
    except OSError as error:
        raise InvalidArgument(f"checkpoint path {path} cannot be read: {os_problem(error)}") from None
    return [(path, True)] if is_model or not children else [(child, False) for child in children]


def _fingerprint(weights: TransformerWeights) -> str:
    """A digest of every projection matrix: two paths holding the same weights count once."""
    digest = hashlib.sha256()
    for layer in weights.layers:
        for _, array in layer.items():
            digest.update(repr(array.shape).encode())
            digest.update(np.ascontiguousarray(array).tobytes())
    return digest.hexdigest()


def user_points(paths: Sequence[str], warn: Callable[[str], None] = _warn) -> list[ScalingPoint]:
    """Every checkpoint in ``paths`` (a checkpoint, or a folder of checkpoint folders), origin ``user``.

    A checkpoint is counted once: paths resolving to the same file, or holding identical weights, are
    skipped after the first with a warning (counting a point twice would halve its error bar). A
    subfolder that is not a readable checkpoint (``.git``, a folder of notes) is skipped with a one-line
    ``warn``; a path named explicitly must be a checkpoint.
    """
    from numerics.bounds.proxies import proxies
    from numerics.loading import load_weights

    points: list[ScalingPoint] = []
    seen_paths: dict[Path, Path] = {}
    seen_weights: dict[str, Path] = {}
    for path, explicit in (candidate for raw in paths for candidate in _candidates(raw)):
        resolved = path.resolve()
        if resolved in seen_paths:
            warn(f"skipping {path}: it is {seen_paths[resolved]} again")
            continue
        seen_paths[resolved] = path
        try:
            weights = load_weights(path)
            fingerprint = _fingerprint(weights)
            if fingerprint in seen_weights:
                warn(f"skipping {path}: same weights as {seen_weights[fingerprint]}")
                continue
            seen_weights[fingerprint] = path
            points.append(point(str(path), "user", "user checkpoints", proxies(weights, source=str(path))))
        except SpecboundError as error:
            if explicit:
                raise
            warn(f"skipping {path}: not a usable checkpoint ({error})")
    return points


def run_study(
    context: RunContext, grid: SyntheticGrid | None, user_paths: Sequence[str] = (), include_real: bool = True
) -> ScalingStudy:
    """The study: real checkpoints and prefixes, the synthetic grid (None: skipped), user checkpoints."""
    points = real_points(context) if include_real else []
    if grid is not None:
        points += synthetic_points(trained_for_context(context, grid))
    points += user_points(user_paths)
    return fit_all(points)


def trained_for_context(context: RunContext, grid: SyntheticGrid) -> tuple[TrainedModel, ...]:
    """The trained models of ``grid``, trained once per context (shared by claims 8, 11 and 12)."""
    return context.memo(("trained", grid), lambda: train_grid_models(grid))


def study_for_context(context: RunContext) -> ScalingStudy:
    """The study of a ``check`` run (quick grid) or a ``scaling`` run, computed once per context."""
    grid = QUICK_GRID if context.quick else FULL_GRID
    return context.memo(("scaling_study", grid), lambda: run_study(context, grid, context.user_checkpoints))
