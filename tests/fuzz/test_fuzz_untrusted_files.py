"""Fuzzing the files specbound reads but did not write, and the files it writes (hypothesis).

Generated inputs: shard indexes whose ``weight_map`` values are any JSON value or a path leaving the
folder (a parent-folder step, absolute, a symbolic link out, a link loop, a FIFO, a subfolder), damaged index
documents; output targets drawn from the inputs of the run (shards, the index, the config, a shard in
a subfolder), with and without ``--force``; ``check --compare`` documents (any JSON, any bytes, claim
fields of any type); ``sweep`` cache rows and ``correlate`` cache records with any field replaced by
any JSON value, or by bytes.

Invariants: a run exits 0 or exits 2 with one line on stderr and nothing on stdout, never a traceback
or a hang (:func:`hostile_files.check_invariants`); a checkpoint naming a file outside its folder is
refused; no input of a run changes, ``--force`` or not; a cache entry is used only when it is exactly
what the toolkit writes (finite numbers of the right types), and otherwise computed again. Examples per
test: the hypothesis profile of tests/conftest.py (``ci`` by default, ``HYPOTHESIS_PROFILE=thorough``).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.helpers.hostile_files import check_invariants, run_in_process, tiny_state
from theory.errors import InvalidArgument

pytest.importorskip("safetensors", reason="the fuzz cases are checkpoints (models extra)")

FUZZ_SETTINGS = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
INDEX = "model.safetensors.index.json"
SHARDS = ("shard-1.safetensors", "part/shard-2.safetensors")

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3)
    ),
    max_leaves=8,
)
"""Any JSON value (small): what a hostile file may hold where a string or a number is expected."""

HOSTILE_TEXTS = (
    "[" * 50_000 + "]" * 50_000,
    "1" + "0" * 4400,
    '{"a": 1' + "0" * 5000 + "}",
    "NaN",
    "",
)


def file_bytes(value: object) -> bytes:
    """A JSON value as the bytes of a file (NaN and infinities as Python writes them)."""
    return json.dumps(value).encode() if not isinstance(value, bytes) else value


ANY_FILE = st.one_of(
    JSON_VALUES.map(file_bytes),
    st.sampled_from(HOSTILE_TEXTS).map(str.encode),
    st.binary(max_size=40),
)
"""The content of a file specbound did not write: any JSON value, pathological JSON text, any bytes."""


def write_sharded(folder: Path, scale: float = 1.0) -> dict[str, str]:
    """A one-layer BERT (hidden 4) split over :data:`SHARDS` with an index; returns its weight_map."""
    from safetensors.numpy import save_file

    tensors = {name: array * scale for name, array in tiny_state().items()}
    keys = sorted(tensors)
    halves = {SHARDS[0]: keys[::2], SHARDS[1]: keys[1::2]}
    for name, part in halves.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        save_file({key: tensors[key] for key in part}, str(folder / name))
    config = {"model_type": "bert", "hidden_size": 4, "num_hidden_layers": 1, "num_attention_heads": 2}
    (folder / "config.json").write_text(json.dumps(config))
    weight_map = {key: name for name, part in halves.items() for key in part}
    (folder / INDEX).write_text(json.dumps({"weight_map": weight_map}))
    return weight_map


def digest(folder: Path) -> str:
    """sha256 of every regular file under ``folder`` (names and contents)."""
    total = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink():
            total.update(str(path.relative_to(folder)).encode() + path.read_bytes())
    return total.hexdigest()


# ---------------------------------------------------------------- shard indexes

OUT_BY_PARENT = os.path.join(os.pardir, "outside", "shard.safetensors")
LOCATIONS = st.sampled_from(
    [
        "inside",  # the shard's own name: a valid index
        OUT_BY_PARENT,
        "ABSOLUTE",
        "link-out.safetensors",
        "loop.safetensors",
        "fifo.safetensors",
        "missing.safetensors",
        "part",
        ".",
        "a\x00b",
    ]
)


@FUZZ_SETTINGS
@given(
    location=st.one_of(st.just("inside"), LOCATIONS),
    replaced=st.integers(0, 10),
    value=st.one_of(st.none(), st.none(), st.none(), JSON_VALUES),
    document=st.one_of(st.none(), st.none(), st.none(), ANY_FILE),
    command=st.sampled_from(["inspect", "bound", "sweep"]),
)
def test_shard_indexes(location, replaced, value, document, command):
    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory)
        folder, outside = root / "model", root / "outside"
        folder.mkdir()
        outside.mkdir()
        weight_map = write_sharded(folder)
        write_sharded(outside, scale=1000.0)
        (outside / "shard.safetensors").write_bytes((outside / SHARDS[0]).read_bytes())
        (folder / "link-out.safetensors").symlink_to(outside / SHARDS[0])
        (folder / "loop.safetensors").symlink_to(folder / "loop.safetensors")
        os.mkfifo(folder / "fifo.safetensors")
        key = sorted(weight_map)[replaced % len(weight_map)]
        if location != "inside":
            weight_map[key] = str(outside / SHARDS[0]) if location == "ABSOLUTE" else location
        if value is not None:
            weight_map[key] = value  # type: ignore[assignment]
        if document is not None:
            (folder / INDEX).write_bytes(document)
        else:
            (folder / INDEX).write_text(json.dumps({"weight_map": weight_map}))
        argv = (
            ("sweep", folder, "--out", root / "rows.csv", "--cache", root / "cache", "--jobs", 1)
            if command == "sweep"
            else (command, folder, "--json")
        )
        status, out, err = run_in_process(*argv)
        event(f"{command} exit {status}")
        check_invariants(status, out, err, command, str(folder), json_output=command != "sweep")
        leaves = location in (OUT_BY_PARENT, "ABSOLUTE", "link-out.safetensors")
        if leaves and value is None and document is None:
            assert status == 2 and "outside the folder" in err, err


# ---------------------------------------------------------------- outputs never replace an input


@FUZZ_SETTINGS
@given(
    target=st.sampled_from([*SHARDS, INDEX, "config.json"]),
    model=st.sampled_from(["folder", "index"]),
    option=st.sampled_from(["--csv", "--parquet"]),
    force=st.booleans(),
)
def test_outputs_never_replace_an_input(target, model, option, force):
    with tempfile.TemporaryDirectory() as directory:
        folder = Path(directory) / "model"
        folder.mkdir()
        write_sharded(folder)
        before = digest(folder)
        source = folder if model == "folder" else folder / INDEX
        argv = ["bound", source, option, folder / target, *(["--force"] if force else [])]
        status, out, err = run_in_process(*argv)
        check_invariants(status, out, err, "bound", str(folder), json_output=False)
        assert status == 2 and ("input of this run" in err or "pyarrow" in err), err
        assert digest(folder) == before


# ---------------------------------------------------------------- check --compare

TEXT_OR_ANY = st.one_of(st.text(max_size=9), st.text(max_size=9), JSON_VALUES)
CLAIMS_FILES = st.lists(
    st.fixed_dictionaries({"id": TEXT_OR_ANY}, optional={"verdict": TEXT_OR_ANY, "title": TEXT_OR_ANY}),
    max_size=3,
).map(lambda claims: file_bytes({"claims": claims}))
"""Documents shaped like a check output whose claim fields are mostly strings, sometimes anything."""


@FUZZ_SETTINGS
@given(content=st.one_of(ANY_FILE, CLAIMS_FILES, CLAIMS_FILES, CLAIMS_FILES))
def test_check_compare_documents(content):
    from paper_checks.compare import changes, format_changes, load_claims

    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "old.json"
        path.write_bytes(content)
        try:
            old = load_claims(str(path))
        except InvalidArgument as error:
            event("refused")
            assert "\n" not in str(error) and "--compare" in str(error)
            return
        event("compared")
        new = [{"id": "1", "verdict": "verified", "title": "t", "evidence": "e", "provenance": "derived"}]
        format_changes(changes(old, new), str(path))


# ---------------------------------------------------------------- sweep cache rows

NUMBERS_OR_ANY = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.integers(0, 100),
    JSON_VALUES,
    st.sampled_from([math.nan, math.inf, -math.inf]),
)
"""A value often of the expected type (a number), sometimes anything else or not finite."""


@pytest.fixture(scope="module")
def sweep_row_file(tmp_path_factory):
    """A checkpoint, its computed sweep row and the cache file holding it."""
    from numerics.batch.sweep import SweepSettings, content_digest, sweep

    root = tmp_path_factory.mktemp("sweep")
    folder = root / "model"
    folder.mkdir()
    write_sharded(folder)
    settings_ = SweepSettings(m=2, dps=20)
    rows, _ = sweep([str(folder)], settings_, root / "cache")
    return folder, settings_, rows[0], root / "cache" / f"{content_digest(str(folder), settings_)}.json"


@FUZZ_SETTINGS
@given(
    column=st.integers(0, 30),
    value=NUMBERS_OR_ANY,
    raw=st.one_of(st.none(), st.none(), ANY_FILE),
)
def test_sweep_cache_rows(sweep_row_file, column, value, raw):
    from numerics.batch.sweep import ROW_COLUMNS, cached_row, sweep

    folder, settings_, row, path = sweep_row_file
    damaged = dict(row)
    name = list(ROW_COLUMNS)[column % len(ROW_COLUMNS)]
    damaged[name] = value
    path.write_bytes(raw if raw is not None else json.dumps(damaged).encode())
    kept = cached_row(path)
    event("kept" if kept is not None else "recomputed")
    if kept is not None:  # only a row of the right types and finite numbers is ever used
        assert set(kept) == set(ROW_COLUMNS)
        assert all(not isinstance(v, float) or math.isfinite(v) for v in kept.values())
    rows, from_cache = sweep([str(folder)], settings_, path.parent)
    assert rows[0] == (kept if kept is not None else row) | {"model": str(folder), "step": None}
    assert from_cache == (kept is not None)
    assert cached_row(path) is not None  # a recomputed row was written again


# ---------------------------------------------------------------- correlate cache records


@pytest.fixture(scope="module")
def correlate_record():
    """A record as measure_point writes it (its numbers need not come from training: only the types do)."""
    from numerics.ranking.measures import MEASURES
    from numerics.ranking.study import StudyPoint

    point = StudyPoint(depth=1, width=4, heads=1, n_train=16, epochs=5, n_test=200)
    key = point.key("fuzz")
    record = {
        "key": key,
        "coordinates": point.coordinates(),
        "gap": 0.1,
        "half_width": 0.05,
        "train_error": 0.2,
        "test_error": 0.3,
        "measures": dict.fromkeys(MEASURES, 1.5),
        "train_seconds": 0.5,
        "seconds": 1.0,
    }
    return key, record


@FUZZ_SETTINGS
@given(
    field=st.integers(0, 20),
    value=NUMBERS_OR_ANY,
    in_measures=st.booleans(),
    raw=st.one_of(st.none(), st.none(), ANY_FILE),
)
def test_correlate_cache_records(correlate_record, field, value, in_measures, raw):
    from numerics.ranking.study import ModelRecord, _cached

    key, record = correlate_record
    damaged = json.loads(json.dumps(record))
    target = damaged["measures"] if in_measures else damaged
    target[sorted(target)[field % len(target)]] = value
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / f"{key}.json"
        path.write_bytes(raw if raw is not None else json.dumps(damaged).encode())
        kept = _cached(path, key)
    event("kept" if kept is not None else "trained again")
    if kept is not None:
        assert isinstance(kept, ModelRecord) and isinstance(kept.measures, dict)
        numbers = [kept.gap, kept.half_width, kept.train_error, kept.test_error, *kept.measures.values()]
        assert all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and np.isfinite(v) for v in numbers
        )
