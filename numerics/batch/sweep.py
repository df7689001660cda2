"""One summary row per checkpoint (B_ours, B_Edelman, sizes, post hoc p profile), cached by content hash.

A sweep computes :func:`numerics.bounds.proxies.proxies` on many checkpoints (the steps of a training run, a
model zoo) and keeps one row each: the numbers are those of ``specbound bound`` on the same checkpoint
with the same settings. A row is stored in the cache folder under the sha256 of the checkpoint's files
(:func:`numerics.loading.checkpoint.checkpoint_files`) and of the settings and toolkit version, so a
rerun skips every checkpoint already done, whatever its path, and recomputes one whose files changed.

The rows still to compute go to worker processes on this machine (:func:`numerics.batch.workers.ordered_map`,
one checkpoint per task), or to a Dask distributed cluster when a scheduler address is given (the
workers must see the checkpoints at the same paths and have specbound installed; ``dask[distributed]``
is imported only then). The cache is read and written by the caller only.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import mpmath

from numerics.batch.workers import cluster_map, ordered_map
from numerics.formulas.evaluate import DEFAULT_DPS
from numerics.loading.checkpoint import checkpoint_files, open_checkpoint
from numerics.safe_io import read_json, writable_folder, write_text_atomically
from theory.errors import InvalidArgument, SpecboundError
from theory.kinds import MatrixKind

STEP_PATTERN = re.compile(r"(?:checkpoint|step|ckpt|iter|epoch)[-_]?(\d+)$", re.IGNORECASE)
"""A training step in a folder or file name: ``checkpoint-500``, ``step_1200``, ``ckpt100``."""


@dataclass(frozen=True)
class SweepSettings:
    """What every row of a sweep is computed with (part of the cache key)."""

    m: int | None = None
    dps: int = DEFAULT_DPS
    fast_svd: bool = False
    num_heads: int | None = None
    family: str | None = None

    def key(self) -> str:
        """The settings and toolkit version as a canonical string."""
        from theory.version import installed_version

        return json.dumps({**vars(self), "version": installed_version()}, sort_keys=True)


def step_of(source: str) -> int | None:
    """The training step in the checkpoint's name (its folder, or its file's stem), else None.

    >>> step_of("runs/bert/checkpoint-500"), step_of("model_step_1200.safetensors"), step_of("minilm-l6")
    (500, 1200, None)
    """
    path = Path(source)
    for name in (path.name, path.stem):
        match = STEP_PATTERN.search(name)
        if match:
            return int(match[1])
    return None


def content_digest(source: str, settings: SweepSettings) -> str:
    """sha256 of the settings and of every file of ``source`` (names relative, contents in full)."""
    digest = hashlib.sha256(settings.key().encode())
    for path in checkpoint_files(source):
        digest.update(path.name.encode() + b"\0")
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 24), b""):
                digest.update(block)
    return digest.hexdigest()


ROW_COLUMNS: dict[str, str] = {
    "model": "str",
    "step": "int?",
    "L": "int",
    "N": "int",
    "heads": "int",
    "parameters": "int",
    "m": "int",
    "B_ours": "float?",
    "B_Edelman": "float?",
    "log10_B_ours": "float",
    "log10_B_Edelman": "float",
    "mean_p_opt": "float",
    **{f"mean_p_opt_{kind.value}": "float" for kind in MatrixKind},
    "gram_matrices": "int",
    "signature": "str",
}
"""The columns of a row (:func:`sweep_row`) and their types; ``?``: may be null; floats are finite."""


def _of_type(value: object, kind: str) -> bool:
    if value is None:
        return kind.endswith("?")
    if isinstance(value, bool):
        return False
    if kind.startswith("int"):
        return isinstance(value, int)
    if kind.startswith("float"):
        return isinstance(value, (int, float)) and math.isfinite(value)
    return isinstance(value, str)


def cached_row(path: Path) -> dict[str, Any] | None:
    """The row stored at ``path`` when it is one :func:`sweep_row` wrote (a JSON object with exactly the
    :data:`ROW_COLUMNS`, each of its type, every number finite); None for anything else (absent,
    unreadable, a FIFO, damaged, NaN), so that the row is computed again and rewritten."""
    try:
        row = read_json(path)
    except SpecboundError:
        return None
    if not isinstance(row, dict) or set(row) != set(ROW_COLUMNS):
        return None
    return row if all(_of_type(row[name], kind) for name, kind in ROW_COLUMNS.items()) else None


def _finite(value: mpmath.mpf) -> float | None:
    """The float of ``value`` when finite in float64, else None (the table has no inf)."""
    as_float = float(value)
    return as_float if math.isfinite(as_float) else None


def sweep_row(settings: SweepSettings, source: str) -> dict[str, Any]:
    """The summary row of one checkpoint (module docstring); runs in a worker process."""
    from numerics.bounds.proxies import proxies
    from numerics.spectra.model import SpectraOptions

    checkpoint = open_checkpoint(source, num_heads=settings.num_heads, family=settings.family)
    checkpoint.coverage()  # refuses what bound refuses: a coverage value beyond float64 (never a row of inf)
    options = SpectraOptions(
        m=settings.m, dps=settings.dps, fast_svd=settings.fast_svd, entrywise_norms=False
    )
    report = proxies(checkpoint, options)
    widths = checkpoint.widths
    attention = 2 * widths.hidden * (widths.query + widths.key_value)  # Wq, Wo; Wk, Wv
    feed_forward = sum(
        row.spectrum.shape[0] * row.spectrum.shape[1] for row in report.matrices if row.matrix.head < 0
    )
    p_by_kind = {
        kind.value: [float(row.p_opt) for row in report.matrices if row.matrix.kind is kind]
        for kind in MatrixKind
    }
    return {
        "model": source,
        "step": step_of(source),
        "L": report.num_layers,
        "N": report.hidden_size,
        "heads": report.num_heads,
        "parameters": report.num_layers * attention + feed_forward,
        "m": report.m,
        "B_ours": _finite(report.ours),
        "B_Edelman": _finite(report.edelman),
        "log10_B_ours": float(mpmath.log10(report.ours)),
        "log10_B_Edelman": float(mpmath.log10(report.edelman)),
        "mean_p_opt": sum(float(row.p_opt) for row in report.matrices) / len(report.matrices),
        **{f"mean_p_opt_{kind}": sum(values) / len(values) for kind, values in p_by_kind.items()},
        "gram_matrices": sum(row.spectrum.svd_path == "gram" for row in report.matrices),
        "signature": report.signature,
    }


def row_or_error(settings: SweepSettings, source: str) -> dict[str, Any] | SpecboundError:
    """:func:`sweep_row`, or the SpecboundError that refused the checkpoint (returned, not raised, so
    that the other checkpoints' rows are still computed and cached)."""
    try:
        return sweep_row(settings, source)
    except SpecboundError as error:
        return error


def sweep(
    sources: Sequence[str],
    settings: SweepSettings,
    cache: Path,
    *,
    jobs: int = 1,
    scheduler: str | None = None,
) -> tuple[list[dict[str, Any]], int]:
    """Every source's row, in the order given, and how many came from the cache.

    Valid rows found in ``cache`` (by :func:`content_digest`, :func:`cached_row`) are read; the others
    (missing, damaged or not finite) are computed locally over ``jobs`` processes, or on the Dask cluster
    at ``scheduler``; each row is written to the cache as soon as it arrives (an interrupted sweep keeps
    every row finished before the interrupt), and a checkpoint that cannot be read raises its error only
    once every other row is computed and cached.
    """
    try:
        cache.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InvalidArgument(f"cache folder {str(cache)!r} cannot be created: {error.strerror}") from None
    writable_folder("--cache", cache)  # before any row is computed
    digests = [content_digest(source, settings) for source in sources]
    rows: dict[int, dict[str, Any]] = {}
    for index, digest in enumerate(digests):
        row = cached_row(cache / f"{digest}.json")
        if row is not None:
            rows[index] = {**row, "model": sources[index], "step": step_of(sources[index])}
    from_cache = len(rows)
    todo = [index for index in range(len(sources)) if index not in rows]
    pending = [sources[index] for index in todo]
    if scheduler is None:
        computed: Iterable[dict[str, Any] | SpecboundError] = ordered_map(
            row_or_error, settings, pending, jobs=jobs
        )
    else:
        computed = cluster_map(scheduler, row_or_error, [settings] * len(pending), pending)
    refused: SpecboundError | None = None
    for index, result in zip(todo, computed, strict=True):  # a generator: rows arrive one by one
        if isinstance(result, SpecboundError):
            refused = refused or result
            continue
        rows[index] = result
        # atomic: an interrupted sweep leaves no half-written row
        write_text_atomically(cache / f"{digests[index]}.json", json.dumps(result))
    if refused is not None:
        raise refused
    return [rows[index] for index in range(len(sources))], from_cache
