"""The scaling study of a run: the embedded checkpoints and their prefixes, the synthetic grid and the
user's checkpoints, fitted, each computed once per run context."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from numerics.loading.aliases import DEFAULT_MODELS
from paper_checks.scaling.fit import ScalingStudy, fit_all
from paper_checks.scaling.grid import (
    FULL_GRID,
    QUICK_GRID,
    SyntheticGrid,
    synthetic_points,
    train_grid_models,
)
from paper_checks.scaling.points import Origin, ScalingPoint, point
from paper_checks.scaling.user import user_points

if TYPE_CHECKING:
    from numerics.synthetic import TrainedModel
    from paper_checks.context import RunContext


REAL_MODELS = tuple(sorted(DEFAULT_MODELS))
"""The embedded real checkpoints of the study (one width, N = 384: a depth series only)."""


def real_points(context: RunContext, models: Sequence[str] = REAL_MODELS) -> list[ScalingPoint]:
    """The embedded checkpoints (origin ``real``) and every prefix of their layers (origin ``truncated``).

    Each checkpoint is a series of its own (two checkpoints trained differently are not one depth curve):
    its depth series is that of its prefixes."""
    points = []
    for model in models:
        depth = context.weights(model).num_layers
        points.append(point(model, Origin.REAL, model, context.report(model)))
        for k in range(1, depth + 1):
            label = f"{model} first {k} of {depth} layers"
            points.append(point(label, Origin.TRUNCATED, f"{model} prefixes", context.report(model, depth=k)))
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
