"""The ranking study: a family of trained synthetic transformers, their gaps and their measures.

Design (one hyperparameter at a time, Jiang et al. 2020 Sec. 4 vary all of them jointly; we vary one
around a base so that every model belongs to a group of models differing in exactly one hyperparameter,
which is what the granulated tau and the sign-error environments compare): for every seed, the base
configuration and, for each hyperparameter, the base with that one hyperparameter set to each of its
alternative values. The seed drives the initial weights and the training sample; the task (sparse token
selection, ``numerics.synthetic.tasks``) is the same for every model, with the label-noise rate a
hyperparameter.

Every model is trained, its 0-1 gap measured on a held-out sample (``numerics.synthetic.gap``) and its
measures evaluated (``numerics.ranking.measures``) in one job, whose result (:class:`ModelRecord`, and the
trained weights as ``.npz``) is cached on disk under a hash of (point, code version): a study is resumed
or extended by running it again with more points. Jobs run in worker processes, one torch and one BLAS
thread each.
"""

from __future__ import annotations

import hashlib
import json
import math
import multiprocessing
import os
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from numerics.batch.workers import cluster_map
from numerics.progress import progress
from numerics.safe_io import atomic_path, read_json, writable_folder, write_text_atomically
from numerics.spectra.blas import single_threaded_blas
from numerics.synthetic.defaults import DEFAULT_DELTA, DEFAULT_MARGIN
from theory.errors import InvalidArgument, SpecboundError, require
from theory.prover.counts import counted

if TYPE_CHECKING:
    from numerics.synthetic.train import TrainedModel

HYPERPARAMETERS = ("depth", "width", "heads", "learning_rate", "weight_decay", "n_train", "noise")
"""The hyperparameters a study varies (each a field of :class:`StudyPoint`)."""

_SOURCES = (
    "synthetic/model.py",
    "synthetic/tasks.py",
    "synthetic/train.py",
    "synthetic/gap.py",
    "ranking/measures.py",
    "bounds/proxies.py",
    "bounds/assembled.py",
)


def code_version() -> str:
    """A hash of the code a cached record depends on (training, gap, measures) and of torch's version."""
    torch = require("torch", purpose="specbound correlate")

    digest = hashlib.sha256(torch.__version__.encode())
    root = Path(__file__).resolve().parent.parent
    for name in _SOURCES:
        digest.update((root / name).read_bytes())
    return digest.hexdigest()[:16]


@dataclass(frozen=True)
class StudyPoint:
    """One model of a study: its hyperparameters, seed and how it is trained and measured."""

    depth: int = 1
    width: int = 8
    heads: int = 1
    learning_rate: float = 0.01
    weight_decay: float = 0.0
    n_train: int = 64
    noise: float = 0.1
    seed: int = 0
    epochs: int = 100
    n_test: int = 10000
    margin: float = DEFAULT_MARGIN
    delta: float = DEFAULT_DELTA

    def coordinates(self) -> dict[str, object]:
        """The hyperparameters and the seed (what groups and environments are formed from)."""
        return {name: getattr(self, name) for name in (*HYPERPARAMETERS, "seed")}

    def key(self, version: str) -> str:
        """The cache key: a hash of every field and the code version."""
        text = json.dumps({**asdict(self), "version": version}, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:24]

    def train(self) -> TrainedModel:
        """Train the model of this point (deterministic)."""
        from numerics.synthetic.model import SyntheticConfig
        from numerics.synthetic.tasks import SparseSelectionTask
        from numerics.synthetic.train import TrainingConfig, train_synthetic

        config = SyntheticConfig(
            num_layers=self.depth, hidden_size=self.width, num_heads=self.heads, seed=self.seed
        )
        task = SparseSelectionTask(hidden_size=self.width, noise=self.noise)
        training = TrainingConfig(
            n_train=self.n_train,
            epochs=self.epochs,
            learning_rate=self.learning_rate,
            weight_decay=self.weight_decay,
            seed=self.seed,
        )
        return train_synthetic(config, task, training)


@dataclass(frozen=True)
class Profile:
    """A study design: the base point, alternative values per hyperparameter, seeds (one at a time)."""

    name: str
    base: StudyPoint
    alternatives: dict[str, tuple[Any, ...]]
    seeds: tuple[int, ...]
    description: str = field(default="", compare=False)

    def points(self) -> tuple[StudyPoint, ...]:
        """For every seed the base and the base with one hyperparameter changed to each alternative."""
        out = []
        for seed in self.seeds:
            base = replace(self.base, seed=seed)
            out.append(base)
            for name in HYPERPARAMETERS:
                out += [replace(base, **{name: value}) for value in self.alternatives.get(name, ())]
        return tuple(out)


PROFILES = {
    "quick": Profile(
        "quick",
        StudyPoint(depth=1, width=8, heads=1, n_train=64, noise=0.1, epochs=100, n_test=10000),
        {
            "depth": (2,),
            "width": (16,),
            "heads": (2,),
            "learning_rate": (0.03,),
            "weight_decay": (1.0,),
            "n_train": (128,),
            "noise": (0.0,),
        },
        (0, 1, 2),
        "24 models: base L1 N8 H1 lr 0.01 wd 0 n 64 noise 0.1, 100 Adam steps, each hyperparameter changed "
        "once, 3 seeds; held-out sample 10000",
    ),
    "default": Profile(
        "default",
        StudyPoint(depth=2, width=8, heads=1, n_train=128, noise=0.1, epochs=200, n_test=10000),
        {
            "depth": (1, 3),
            "width": (12, 16),
            "heads": (2, 4),
            "learning_rate": (0.003, 0.03),
            "weight_decay": (0.3, 1.0),
            "n_train": (64, 256),
            "noise": (0.0, 0.2),
        },
        tuple(range(14)),
        "210 models: base L2 N8 H1 lr 0.01 wd 0 n 128 noise 0.1, 200 Adam steps, each hyperparameter set "
        "to two other values, 14 seeds; held-out sample 10000",
    ),
}


@dataclass(frozen=True)
class ModelRecord:
    """A trained model's coordinates, 0-1 gap with its half-width, measures and timings (JSON-ready)."""

    key: str
    coordinates: dict[str, object]
    gap: float
    half_width: float
    train_error: float
    test_error: float
    measures: dict[str, float]
    train_seconds: float
    seconds: float

    @classmethod
    def from_json(cls, data: dict[str, object]) -> ModelRecord:
        """The record written by :meth:`as_dict`."""
        return cls(**data)  # type: ignore[arg-type]

    def as_dict(self) -> dict[str, object]:
        """JSON record."""
        return asdict(self)


def default_cache() -> Path:
    """``$XDG_CACHE_HOME/specbound/correlate`` (``~/.cache/specbound/correlate`` by default)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "specbound" / "correlate"


_NUMBERS = ("gap", "half_width", "train_error", "test_error", "train_seconds", "seconds")


def _finite_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _cached(path: Path, key: str) -> ModelRecord | None:
    """The record cached at ``path`` when it is one :func:`measure_point` wrote for ``key``: the fields of
    :class:`ModelRecord` and no others, the numbers finite, every measure of
    :data:`~numerics.ranking.measures.MEASURES` a finite number. None for anything else (absent,
    unreadable, a FIFO, damaged): the model is trained again and the record rewritten."""
    from numerics.ranking.measures import MEASURES

    try:
        data = read_json(path)
    except SpecboundError:
        return None
    if not isinstance(data, dict) or set(data) != {f.name for f in fields(ModelRecord)}:
        return None
    measures, coordinates = data["measures"], data["coordinates"]
    valid = (
        data["key"] == key
        and isinstance(coordinates, dict)
        and all(_finite_number(data[name]) for name in _NUMBERS)
        and isinstance(measures, dict)
        and set(measures) == set(MEASURES)
        and all(_finite_number(value) for value in measures.values())
    )
    return ModelRecord.from_json(data) if valid else None


def measure_point(point: StudyPoint, cache: Path | None, version: str) -> ModelRecord:
    """Train ``point``, measure its gap and measures, and cache the record and weights (or read them)."""
    from numerics.ranking.measures import model_measures  # imported here: it pulls in the assembled bound
    from numerics.synthetic.gap import measure_gap

    key = point.key(version)
    if cache is not None and (record := _cached(cache / f"{key}.json", key)) is not None:
        return record
    start = time.perf_counter()
    with single_threaded_blas():
        trained = point.train()
        gap = measure_gap(trained, margin=point.margin, n_test=point.n_test)
        measures = model_measures(trained, margin=point.margin, delta=point.delta)
    record = ModelRecord(
        key=key,
        coordinates=point.coordinates(),
        gap=gap.gap_01,
        half_width=gap.half_width,
        train_error=gap.train_error,
        test_error=gap.test_error,
        measures=measures,
        train_seconds=trained.seconds,
        seconds=time.perf_counter() - start,
    )
    if cache is not None:
        import numpy as np

        state = {name: t.detach().numpy() for name, t in trained.model.state_dict().items()}
        with atomic_path(cache / f"{key}.npz") as temporary:  # an interrupted run leaves no torn entry
            np.savez(temporary, **state)
        write_text_atomically(cache / f"{key}.json", json.dumps(record.as_dict(), indent=1) + "\n")
    return record


def _init_worker() -> None:
    require("torch", purpose="specbound correlate").set_num_threads(1)


def run_study(
    points: Sequence[StudyPoint],
    *,
    jobs: int | None = None,
    cache: Path | None = None,
    scheduler: str | None = None,
) -> tuple[ModelRecord, ...]:
    """The record of every point, in order: cached ones read, the others computed by ``jobs`` processes,
    or by the Dask cluster at ``scheduler`` when one is given (:func:`numerics.batch.workers.cluster_map`; the
    workers need the cache folder at the same path).

    ``jobs`` defaults to every core; ``cache`` None disables the cache. Progress goes to stderr.
    """
    require("torch", purpose="the ranking study (it trains its models)")
    if jobs is None:
        jobs = os.cpu_count() or 1
    if not isinstance(jobs, int) or jobs < 1:
        raise InvalidArgument(f"jobs={jobs!r} must be an integer >= 1")
    if cache is not None:
        try:
            cache.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise InvalidArgument(
                f"cache folder {str(cache)!r} cannot be created: {error.strerror}; pass another --cache"
            ) from None
        writable_folder("--cache", cache)  # before any model is trained, not after the first one
    version = code_version()
    records: dict[int, ModelRecord] = {}
    todo = []
    for index, point in enumerate(points):
        key = point.key(version)
        hit = _cached(cache / f"{key}.json", key) if cache is not None else None
        if hit is not None:
            records[index] = hit
        else:
            todo.append(index)
    where = f"on {scheduler}" if scheduler else counted(jobs, "job")
    print(f"correlate: {len(records)} cached, {len(todo)} to train ({where})", file=sys.stderr)
    if scheduler is not None:
        pending = [points[i] for i in todo]
        computed = cluster_map(scheduler, measure_point, pending, [cache] * len(todo), [version] * len(todo))
        records.update(zip(todo, computed, strict=True))
    elif jobs == 1 or len(todo) <= 1:
        for index in progress(todo, len(todo), "models", unit="model"):
            records[index] = measure_point(points[index], cache, version)
    else:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_init_worker) as pool:
            futures = {pool.submit(measure_point, points[i], cache, version): i for i in todo}
            for future in progress(as_completed(futures), len(futures), "models", unit="model"):
                records[futures[future]] = future.result()
    return tuple(records[i] for i in range(len(points)))
