"""Hostile checkpoints and a CLI runner for the hostile-input tests and the fuzz suite.

``onnx_bert`` writes an ONNX graph shaped like a PyTorch export (anonymous [in, out] MatMul weights, each
followed by an Add of a named bias) with knobs for the attacks: weight dtype, an Identity cycle, external
data. ``run_cli`` runs ``python -m paper_checks.cli`` in a subprocess under a CPU-time and a memory limit,
so a runaway computation or allocation fails the test instead of the machine; ``deadline`` bounds
in-process Python code's CPU time the same way. Both limits count CPU seconds, not wall seconds, so a
loaded machine never fails a test (only a run blocked without using CPU meets the wall guard,
:data:`HANG_SECONDS`), and ``run_in_process`` runs ``main`` under it as a real run would (numpy's default
error handling, warnings shown); ``check_invariants`` is the fuzz suite's verdict on one run.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import resource
import signal
import subprocess
import sys
import traceback
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.helpers.paths import ROOT

PROJECTION_MODULES = (
    "attention.self.query",
    "attention.self.key",
    "attention.self.value",
    "attention.output.dense",
    "intermediate.dense",
    "output.dense",
)
MEMORY_LIMIT = 3 * 2**30
"""Address-space cap of a CLI subprocess (torch alone maps about 1 GiB)."""
HANG_SECONDS = 3600
"""Wall seconds after which a subprocess counts as hung: a guard for a run blocked in the kernel (a FIFO
opened for reading), far beyond any CPU limit here even on a machine loaded 10 times over."""


def cpu_limited(cpu_seconds: float, memory: int | None = None) -> Callable[[], None]:
    """A ``preexec_fn``: the child's CPU-time limit (RLIMIT_CPU; the kernel sends SIGXCPU) and, when
    given, its address-space limit."""

    def limit() -> None:
        seconds = max(1, int(cpu_seconds))
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 5))
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return limit


def run_limited(
    command: list[str], cpu_seconds: float, what: str, *, memory: int | None = None, **options: Any
) -> subprocess.CompletedProcess:
    """``subprocess.run(command, **options)`` under :func:`cpu_limited`; a run past its CPU seconds (or
    blocked past :data:`HANG_SECONDS`) fails the test, naming ``what``."""
    try:
        completed = subprocess.run(
            command, preexec_fn=cpu_limited(cpu_seconds, memory), timeout=HANG_SECONDS, check=False, **options
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{what} hung (no exit within {HANG_SECONDS} s of wall time)")
    if completed.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        pytest.fail(f"{what} ran over its {cpu_seconds:.0f} CPU s")
    return completed


def tiny_state(hidden: int = 4, ffn: int = 4, seed: int = 0) -> dict[str, np.ndarray]:
    """Weights and biases (float64) of a one-layer BERT with BERT's module names."""
    rng = np.random.default_rng(seed)
    rows = {"intermediate.dense": ffn}
    cols = {"output.dense": ffn}
    state = {}
    for module in PROJECTION_MODULES:
        shape = (rows.get(module, hidden), cols.get(module, hidden))
        state[f"encoder.layer.0.{module}.weight"] = rng.standard_normal(shape)
        state[f"encoder.layer.0.{module}.bias"] = rng.standard_normal(shape[0])
    return state


def run_cli(*argv: object, timeout: float = 60, stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    """``python -m paper_checks.cli ARGV`` from the worktree root; a run past ``timeout`` CPU seconds (or
    blocked, :func:`run_limited`) fails the test."""
    return run_limited(
        [sys.executable, "-m", "paper_checks.cli", *map(str, argv)],
        timeout,
        f"specbound {' '.join(map(str, argv))}",
        memory=MEMORY_LIMIT,
        cwd=ROOT,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


class Hang(Exception):
    """Raised by SIGPROF inside :func:`deadline`."""


def _alarm(signum, frame):
    raise Hang


@contextlib.contextmanager
def deadline(seconds: int, what: str) -> Iterator[None]:
    """Fail the test if the block uses over ``seconds`` of this process's CPU time (ITIMER_PROF, SIGPROF:
    interrupts Python code, not a blocked system call; runs that may block in the kernel, like opening a
    FIFO, belong in :func:`run_cli`)."""
    previous = signal.signal(signal.SIGPROF, _alarm)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    except Hang:
        pytest.fail(f"hang: {what} ran over {seconds} CPU s")
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def strict_json(text: str) -> object:
    """json.loads that refuses NaN, Infinity and -Infinity (which Python's json would accept)."""

    def refuse(constant: str) -> object:
        raise ValueError(f"non-finite number {constant} in JSON output")

    return json.loads(text, parse_constant=refuse)


RUN_TIMEOUT = 30
"""CPU seconds one in-process CLI run may take before it counts as a hang."""


def run_in_process(*argv: object) -> tuple[int, str, str]:
    """(status, stdout, stderr) of ``main(argv)``; a traceback or a hang fails the test with its story."""
    from paper_checks.cli import main

    out, err = io.StringIO(), io.StringIO()
    try:
        # numpy's default error handling and visible warnings, as in a real run (tests/conftest.py makes
        # every floating-point event an exception instead): a warning would be a second stderr line.
        with (
            deadline(RUN_TIMEOUT, f"specbound {' '.join(map(str, argv))}"),
            np.errstate(all="warn", under="ignore"),
            warnings.catch_warnings(record=True) as caught,
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
        ):
            warnings.simplefilter("always")
            status = main([str(a) for a in argv])
        for warning in caught:
            err.write(
                f"{warning.filename}:{warning.lineno}: {warning.category.__name__}: {warning.message}\n"
            )
    except SystemExit as exit_:  # argparse usage errors end this way
        status = int(exit_.code or 0)
    except pytest.fail.Exception:
        raise
    except BaseException:
        pytest.fail(f"traceback from specbound {' '.join(map(str, argv))}:\n{traceback.format_exc()}")
    return status, out.getvalue(), err.getvalue()


def check_invariants(
    status: int, out: str, err: str, command: str, names: str, *, json_output: bool = True
) -> None:
    """Exit 0 (with strict JSON on stdout when ``json_output``), or exit 2 with one line naming the input
    (``names``) and no stdout."""
    assert "Traceback" not in err, err
    if status == 0:
        if json_output:
            strict_json(out)
        return
    assert status == 2, (status, out[-300:], err[-2000:])
    assert out == "", out[-300:]
    assert err.startswith(f"specbound {command}: error: ") and err.count("\n") == 1, err
    assert names in err, (names, err)


def call(capsys, *argv):
    """``main(argv)`` -> (status, stdout, stderr); an exception escaping main is a test failure."""
    from paper_checks.cli import main

    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def assert_error_line(status: int, err: str, command: str, *needles: str) -> None:
    """Exit 2 and one line on stderr, ``specbound COMMAND: error: ...``, holding every needle."""
    assert status == 2, err
    assert err.startswith(f"specbound {command}: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for needle in needles:
        assert needle in err, (needle, err)


def assert_one_line_error(result: subprocess.CompletedProcess, command: str, *needles: str) -> None:
    """Exit 2 and one line on stderr, ``specbound COMMAND: error: ...``, holding every needle."""
    assert result.returncode == 2, (result.returncode, result.stdout[-500:], result.stderr[-2000:])
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith(f"specbound {command}: error: "), result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    for needle in needles:
        assert needle in result.stderr, (needle, result.stderr)


def onnx_bert(
    path: Path,
    tensors: dict[str, np.ndarray],
    *,
    weight_dtype: object = None,
    identity_cycle: bool = False,
    external: str | None = None,
) -> Path:
    """An ONNX export of ``tensors`` (no Reshape: the head count must be given).

    ``weight_dtype`` casts every weight (e.g. np.int8, or object for strings); ``identity_cycle`` makes the
    first MatMul read its weight through two Identity nodes feeding each other; ``external`` stores the
    first weight in an external-data file of that (relative) location instead of inline.
    """
    from onnx import TensorProto, helper, numpy_helper

    nodes, inits = [], []
    weights = [n for n in tensors if n.endswith(".weight") and n.split(".", 3)[-1][:-7] in PROJECTION_MODULES]
    for count, name in enumerate(weights):
        module = name[: -len(".weight")]
        matrix = tensors[name].T.copy()
        if weight_dtype is not None:
            strings = weight_dtype is object
            matrix = matrix.astype(str).astype(object) if strings else matrix.astype(weight_dtype)
        weight, bias = f"onnx::MatMul_{count}", f"{module}.bias"
        tensor = numpy_helper.from_array(matrix, weight)
        if external is not None and count == 0:
            tensor.data_location = TensorProto.EXTERNAL
            raw = tensor.raw_data
            tensor.ClearField("raw_data")
            for key, value in (("location", external), ("offset", "0"), ("length", str(len(raw)))):
                entry = tensor.external_data.add()
                entry.key, entry.value = key, value
        inits += [tensor, numpy_helper.from_array(tensors[f"{module}.bias"], bias)]
        source = weight
        if identity_cycle and count == 0:
            nodes += [
                helper.make_node("Identity", ["loop_b"], ["loop_a"]),
                helper.make_node("Identity", ["loop_a"], ["loop_b"]),
            ]
            source = "loop_a"
        nodes += [
            helper.make_node("MatMul", ["x", source], [f"mm{count}"]),
            helper.make_node("Add", [bias, f"mm{count}"], [f"add{count}"]),
        ]
    outputs = [helper.make_tensor_value_info(f"add{i}", TensorProto.FLOAT, None) for i in range(len(weights))]
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["b", "t", "d"])]
    graph = helper.make_graph(nodes, "hostile", inputs, outputs, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    path.write_bytes(model.SerializeToString())
    return path
