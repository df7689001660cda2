"""Fuzzing the command line with hostile checkpoints (hypothesis).

Generated inputs: safetensors files with corrupt or lying headers (dtypes, shapes, offsets, header
length, truncation, flipped bytes, renamed tensors), weights of extreme magnitude (0, subnormals, 1e-300,
1e154, 1e300, 1.7e308, NaN, Inf) in every float and several non-float dtypes, hostile config.json files,
PyTorch .bin files with odd dtypes and layouts, ONNX graphs with odd dtypes, Identity cycles and external
data pointing anywhere, and odd file kinds (empty, directory, FIFO, symlink loop, /dev/zero, sparse
files declaring terabytes).

Every run of ``specbound inspect --json`` and ``specbound bound --json`` must satisfy three invariants:

1. exit 0 with valid JSON holding only finite numbers, or exit 2 with exactly one line on stderr that
   names the input (its folder or a file in it) and nothing on stdout;
2. never a traceback (no exception escapes ``main``);
3. never a hang (each run under a timeout).

Regular-file inputs run in-process through ``main(argv)`` (fast; SIGPROF bounds the CPU time); odd
file kinds run in a subprocess under a CPU-time limit and a memory cap. The number of examples follows the
hypothesis profile of tests/conftest.py: ``ci`` (default, fast) or ``HYPOTHESIS_PROFILE=thorough``.
Set ``FUZZ_INPUT_LOG=FILE`` to append a digest of every generated input to FILE (to count distinct ones).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import struct
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.helpers.hostile_files import (
    PROJECTION_MODULES,
    check_invariants,
    onnx_bert,
    run_cli,
    run_in_process,
    tiny_state,
)

pytest.importorskip("safetensors", reason="the fuzz cases are checkpoints (models extra)")

COMMANDS = (("inspect", "--json"), ("bound", "--json", "--grid-m", "2", "--dps", "20"))

MAGNITUDES = (0.0, 5e-324, 2.2250738585072014e-308, 1e-300, 1e-150, 1e-10, 1.0, 1e10, 1e150, 1e154, 1e300)
SPECIALS = (math.nan, math.inf, -math.inf, 1.7e308, -0.0, 5e-324)
SAFETENSORS_DTYPES = {
    "F64": "<f8",
    "F32": "<f4",
    "F16": "<f2",
    "BF16": None,
    "I8": "i1",
    "U8": "u1",
    "I32": "<i4",
    "I64": "<i8",
    "BOOL": "?",
    "F8_E4M3": "u1",
    "Q4": "u1",
}

HOSTILE_CONFIGS = (
    None,
    "GOOD",
    '{"model_type": "bert", "num_hidden_layers": 1, "hidden_size": 4, "num_attention_heads": 3}',
    '{"model_type": "gpt2"}',
    '{"hidden_size": "4"}',
    '{"hidden_size": -4}',
    '{"num_attention_heads": 0}',
    '{"hidden_size": 1' + "0" * 5000 + "}",
    "[" * 50_000 + "]" * 50_000,
    "[]",
    "not json at all",
    "\xff\xfe garbage",
    '{"num_hidden_layers": 99}',
)


def log_input(case_dir: Path) -> None:
    """Append a digest of every file under ``case_dir`` to $FUZZ_INPUT_LOG (when set)."""
    log = os.environ.get("FUZZ_INPUT_LOG")
    if not log:
        return
    digest = hashlib.sha256()
    for path in sorted(case_dir.rglob("*")):
        digest.update(str(path.relative_to(case_dir)).encode())
        if path.is_symlink():
            digest.update(os.readlink(path).encode())
        elif path.is_file():
            with path.open("rb") as handle:  # the first MiB: a sparse case declares a terabyte
                digest.update(handle.read(1 << 20))
    with open(log, "a") as handle:
        handle.write(digest.hexdigest() + "\n")


# ---------------------------------------------------------------- strategies


def mostly(benign: object, hostile: object) -> st.SearchStrategy:
    """``benign`` two times in three, else one of ``hostile``: a case usually varies a few knobs at once,
    so that inputs that get through to the numbers (exit 0) are common too."""
    return st.one_of(st.just(benign), st.just(benign), st.sampled_from(list(hostile)))  # type: ignore[arg-type]


@st.composite
def values(draw, shape: tuple[int, int], magnitude: float, specials: bool, uneven: bool) -> np.ndarray:
    """A float64 matrix: random normals times ``magnitude`` (or, if ``uneven``, maybe a magnitude of its
    own), with up to two entries drawn from SPECIALS when ``specials``."""
    seed = draw(st.integers(0, 2**16))
    if uneven and draw(st.booleans()):
        magnitude = draw(st.sampled_from(MAGNITUDES))
    with np.errstate(all="ignore"):
        array = np.random.default_rng(seed).standard_normal(shape) * magnitude
    for _ in range(draw(st.integers(0, 2)) if specials else 0):
        index = (draw(st.integers(0, shape[0] - 1)), draw(st.integers(0, shape[1] - 1)))
        array[index] = draw(st.sampled_from(SPECIALS))
    return array


INTEGER_DTYPES = {"I8", "U8", "I32", "I64", "BOOL", "F8_E4M3", "Q4"}


def encode(array: np.ndarray, dtype: str) -> bytes:
    """The bytes of ``array`` stored as safetensors dtype ``dtype`` (overflow to inf is intended)."""
    with np.errstate(all="ignore"):
        if dtype == "BF16":
            return (array.astype(np.float32).view(np.uint32) >> 16).astype("<u2").tobytes()
        if dtype in INTEGER_DTYPES:
            finite = np.nan_to_num(array, nan=0.0, posinf=0.0, neginf=0.0)
            return np.clip(finite, -100, 100).astype(SAFETENSORS_DTYPES[dtype]).tobytes()
        return array.astype(SAFETENSORS_DTYPES[dtype]).tobytes()


@st.composite
def safetensors_file(draw) -> tuple[bytes, int]:
    """Bytes of a (possibly lying or corrupt) safetensors file of a tiny BERT, and its hidden size."""
    hidden, ffn, layers = (
        draw(st.sampled_from([2, 4])),
        draw(st.sampled_from([2, 4])),
        draw(st.integers(1, 2)),
    )
    shapes = {
        "attention.self.query": (hidden, hidden),
        "attention.self.key": (hidden, hidden),
        "attention.self.value": (hidden, hidden),
        "attention.output.dense": (hidden, hidden),
        "intermediate.dense": (ffn, hidden),
        "output.dense": (hidden, ffn),
    }
    default_dtype = draw(st.sampled_from(["F64", "F32", "F16", "BF16"]))
    mixed_dtypes, specials, uneven = (draw(mostly(False, [True])) for _ in range(3))
    magnitude = draw(mostly(1.0, MAGNITUDES))
    prefix = draw(st.sampled_from(["", "bert.", "model.0.auto_model."]))
    header: dict[str, object] = {}
    blobs, offset = [], 0
    for layer in range(layers):
        for module in PROJECTION_MODULES:
            dtype = (
                draw(st.sampled_from([default_dtype] * 6 + list(SAFETENSORS_DTYPES)))
                if mixed_dtypes
                else default_dtype
            )
            blob = encode(draw(values(shapes[module], magnitude, specials, uneven)), dtype)
            name = f"{prefix}encoder.layer.{layer}.{module}.weight"
            span = [offset, offset + len(blob)]
            header[name] = {"dtype": dtype, "shape": list(shapes[module]), "data_offsets": span}
            blobs.append(blob)
            offset += len(blob)
    names = list(header)
    hostile = ["shape", "offsets", "drop", "rename", "length", "truncate", "flip", "json"]
    mutation = draw(mostly("none", hostile))
    victim = names[draw(st.integers(0, len(names) - 1))]
    entry = header[victim]
    assert isinstance(entry, dict)
    if mutation == "shape":
        entry["shape"] = draw(st.lists(st.sampled_from([0, 1, 3, hidden, 2**31, 2**62, -1]), max_size=3))
    elif mutation == "offsets":
        entry["data_offsets"] = [draw(st.sampled_from([0, 7, offset, 2**40, -5])) for _ in range(2)]
    elif mutation == "drop":
        del header[victim]
    elif mutation == "rename":
        new_prefix = draw(st.sampled_from(["h.", "encoder.layer.9", "x.encoder.layer."]))
        header[victim.replace("encoder.layer.", new_prefix)] = header.pop(victim)
    raw_header = json.dumps(header).encode()
    if mutation == "json":
        raw_header = draw(st.binary(min_size=0, max_size=40))
    length = len(raw_header)
    if mutation == "length":
        length = draw(st.sampled_from([0, 1, length + 5, 2**32, 2**63 - 1]))
    data = struct.pack("<Q", length) + raw_header + b"".join(blobs)
    if mutation == "truncate":
        data = data[: draw(st.integers(0, len(data) - 1))]
    elif mutation == "flip":
        data = bytearray(data)
        for _ in range(draw(st.integers(1, 4))):
            position = draw(st.integers(0, len(data) - 1))
            data[position] ^= 1 << draw(st.integers(0, 7))
        data = bytes(data)
    return data, hidden


def run_all_commands(target: Path, case_dir: Path, *extra: object) -> None:
    log_input(case_dir)
    for command, *options in COMMANDS:
        status, out, err = run_in_process(command, target, *options, *extra)
        event(f"{command} exit {status}")  # --hypothesis-show-statistics: how many runs got through
        check_invariants(status, out, err, command, str(case_dir))


FUZZ_SETTINGS = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def write_config(folder: Path, config: str | None, hidden: int) -> None:
    if config == "GOOD":
        config = json.dumps(
            {
                "model_type": "bert",
                "num_hidden_layers": None,
                "hidden_size": hidden,
                "num_attention_heads": 2 if hidden % 2 == 0 else 1,
            }
        )
    if config is not None:
        (folder / "config.json").write_bytes(config.encode("utf-8", "surrogateescape"))


@FUZZ_SETTINGS
@given(
    checkpoint=safetensors_file(),
    config=mostly("GOOD", HOSTILE_CONFIGS),
    bare=st.booleans(),
    heads=mostly(2, [None, 1, 3]),
)
def test_safetensors_checkpoints(checkpoint, config, bare, heads):
    data, hidden = checkpoint
    with tempfile.TemporaryDirectory() as directory:
        case = Path(directory)
        (case / "model.safetensors").write_bytes(data)
        write_config(case, config, hidden)
        target = case / "model.safetensors" if bare else case
        run_all_commands(target, case, *(["--num-heads", heads] if heads else []))


@FUZZ_SETTINGS
@given(
    dtype=mostly("float32", ["float16", "bfloat16", "float64", "int8", "complex64", "bool", "sparse"]),
    magnitude=mostly(1.0, MAGNITUDES + SPECIALS),
    config=mostly("GOOD", HOSTILE_CONFIGS),
    payload=mostly("state", ["list", "garbage", "truncated"]),
)
def test_pytorch_bin_checkpoints(dtype, magnitude, config, payload):
    torch = pytest.importorskip("torch", reason="writing .bin cases needs torch")

    with tempfile.TemporaryDirectory() as directory:
        case = Path(directory)
        state = {}
        for name, array in tiny_state().items():
            with np.errstate(all="ignore"):
                tensor = torch.from_numpy(array.astype(np.float64) * magnitude)
            if dtype == "sparse":
                tensor = tensor.to_sparse() if name.endswith("query.weight") else tensor
            else:
                tensor = tensor.to(getattr(torch, dtype))
            state[name] = tensor
        path = case / "pytorch_model.bin"
        if payload == "garbage":
            path.write_bytes(b"PK\x03\x04 not really a zip")
        else:
            torch.save(state if payload != "list" else list(state.values()), path)
            if payload == "truncated":
                path.write_bytes(path.read_bytes()[:300])
        write_config(case, config, 4)
        run_all_commands(case, case, "--num-heads", 2)


@FUZZ_SETTINGS
@given(
    dtype=mostly(np.float32, [np.float16, np.float64, np.int8, np.int32, object]),
    magnitude=mostly(1.0, MAGNITUDES + SPECIALS),
    cycle=mostly(False, [True]),
    external=mostly(
        None,
        [
            "weights.bin",
            os.path.join(os.pardir, "outside.bin"),
            "/etc/passwd",
            "link",
            "loop",
            "fifo",
            "gone",
        ],
    ),
    damage=mostly(None, ["truncate", "garbage"]),
)
def test_onnx_checkpoints(dtype, magnitude, cycle, external, damage):
    pytest.importorskip("onnx", reason="writing ONNX cases needs onnx")

    with tempfile.TemporaryDirectory() as directory:
        case = Path(directory) / "model"
        case.mkdir()
        with np.errstate(all="ignore"):
            tensors = {name: array * magnitude for name, array in tiny_state().items()}
        outside = Path(directory) / "outside.bin"
        outside.write_bytes(b"\x00" * 64)
        location = {"link": "link.bin", "loop": "loop.bin", "fifo": "fifo.bin", "gone": "gone.bin"}.get(
            str(external), external
        )
        if external == "weights.bin":
            query = tensors["encoder.layer.0.attention.self.query.weight"].T
            with np.errstate(all="ignore"):
                (case / "weights.bin").write_bytes(b"x" if dtype is object else query.astype(dtype).tobytes())
        elif external == "link":
            (case / "link.bin").symlink_to(outside)
        elif external == "loop":
            (case / "loop.bin").symlink_to(case / "loop.bin")
        elif external == "fifo":
            os.mkfifo(case / "fifo.bin")
        with np.errstate(all="ignore"):
            path = onnx_bert(
                case / "m.onnx", tensors, weight_dtype=dtype, identity_cycle=cycle, external=location
            )
        if damage == "truncate":
            path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2])
        elif damage == "garbage":
            path.write_bytes(b"\x08\x07garbage" * 10)
        run_all_commands(path, case, "--num-heads", 2)


# ---------------------------------------------------------------- odd file kinds, in a subprocess


def make_odd(kind: str, case: Path) -> Path:
    """An input of an odd kind inside ``case``; returns the path to pass to the CLI."""
    target = case / "model.safetensors"
    if kind == "empty":
        target.touch()
    elif kind == "directory":
        target.mkdir()
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind == "symlink loop":
        target.symlink_to(target)
    elif kind == "dev zero":
        target.symlink_to("/dev/zero")
    elif kind == "sparse terabyte":
        entry = {"dtype": "F64", "shape": [2**19, 2**18], "data_offsets": [0, 2**40]}
        header = json.dumps({"encoder.layer.0.attention.self.query.weight": entry}).encode()
        with open(target, "wb") as handle:
            handle.write(struct.pack("<Q", len(header)) + header)
            handle.truncate(8 + len(header) + 2**40)
    elif kind == "folder of fifos":
        os.mkfifo(case / "config.json")
        os.mkfifo(target)
        return case
    return target


ODD_KINDS = ("empty", "directory", "fifo", "symlink loop", "dev zero", "sparse terabyte", "folder of fifos")


@settings(max_examples=max(3, settings.default.max_examples // 8), deadline=None)
@given(kind=st.sampled_from(ODD_KINDS), command=st.sampled_from([c[0] for c in COMMANDS]))
def test_odd_file_kinds_in_a_subprocess(kind, command):
    with tempfile.TemporaryDirectory() as directory:
        case = Path(directory)
        try:
            target = make_odd(kind, case)
        except OSError as error:  # e.g. a file system without sparse files
            pytest.skip(f"cannot create a {kind} here: {error}")
        log_input(case)
        result = run_cli(command, target, "--json", "--num-heads", 2, timeout=60)
        check_invariants(result.returncode, result.stdout, result.stderr, command, str(case))
