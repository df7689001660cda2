"""The user's checkpoints in the scaling study: each path a checkpoint or a folder of them, counted once."""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from numerics.safe_io import os_problem
from paper_checks.scaling.points import Origin, ScalingPoint, point
from theory.errors import InvalidArgument, MissingDependency, SpecboundError
from theory.prover.counts import counted

if TYPE_CHECKING:
    from numerics.loading.weights import TransformerWeights


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
    """Every checkpoint in ``paths`` (a checkpoint, or a folder of checkpoint folders), origin ``user``: the
    checkpoints of one named folder form one series (as a set of BERT miniatures does), a checkpoint named
    on its own is a series of its own (it is never joined with another into one curve).

    A checkpoint is counted once: paths resolving to the same file, or holding identical weights, are
    skipped after the first with a warning (counting a point twice would halve its error bar). A
    subfolder that is not a readable checkpoint (``.git``, a folder of notes) is skipped with a one-line
    ``warn``; a path named explicitly must be a checkpoint, and a folder in which no checkpoint could be
    read is an error (InvalidArgument), as is a missing package (MissingDependency, never a skip).
    """
    from numerics.bounds.proxies import proxies
    from numerics.loading import load_weights

    points: list[ScalingPoint] = []
    seen_paths: dict[Path, Path] = {}
    seen_weights: dict[str, Path] = {}
    for raw in paths:
        read_here = 0
        candidates = _candidates(raw)
        for path, explicit in candidates:
            resolved = path.resolve()
            if resolved in seen_paths:
                warn(f"skipping {path}: it is {seen_paths[resolved]} again")
                read_here += 1
                continue
            seen_paths[resolved] = path
            series = str(path) if explicit else raw  # the checkpoints of one named folder are one series
            try:
                weights = load_weights(path)
                read_here += 1
                fingerprint = _fingerprint(weights)
                if fingerprint in seen_weights:
                    warn(f"skipping {path}: same weights as {seen_weights[fingerprint]}")
                    continue
                seen_weights[fingerprint] = path
                points.append(point(str(path), Origin.USER, series, proxies(weights, source=str(path))))
            except MissingDependency:
                raise
            except SpecboundError as error:
                if explicit:
                    raise
                warn(f"skipping {path}: not a usable checkpoint ({error})")
        if not read_here:
            raise InvalidArgument(
                f"no checkpoint could be read in {raw} ({counted(len(candidates), 'path')} tried): name a "
                "checkpoint folder (with config.json) or a folder of them"
            )
    return points
