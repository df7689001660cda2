"""Peak memory of ``specbound bound`` on a deep, wide checkpoint: it must stay near one layer, not the model.

Builds (numpy + safetensors only, no torch), in a separate process, a BERT-shaped checkpoint of random
weights, by default 24 layers of width N = 1024 (16 heads, FFN 4096; 2.3 GB: the float32 draws divided by
a float64 sqrt(fan-in) are float64 under NumPy 2), saved as one shard per layer with a
``model.safetensors.index.json``, in a temporary folder. Then runs
``python -m paper_checks.cli bound DIR --json`` in a child process and reads the child's peak resident
set size (``ru_maxrss`` of that child, from ``os.wait4`` in a small launcher that forks it: see
:data:`LAUNCHER`). Target: peak <= the largest layer's float64
matrices + 300 MB. Prints the figures and the ratio peak / target (at most 1 meets it); exit
status 1 when it is missed. With ``--eager`` it also measures the same model loaded whole
(``load_weights`` then ``proxies``) for comparison.
Run: ``python3 benchmarks/stream_memory.py [--layers 24] [--width 1024] [--eager]``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

MB = 2**20
T = TypeVar("T")


def write_checkpoint(folder: Path, layers: int, width: int, heads: int) -> int:
    """Write the sharded checkpoint; return the float64 bytes of one layer's six projections."""
    from safetensors.numpy import save_file

    ffn = 4 * width
    rng = np.random.default_rng(0)
    shapes = {
        "attention.self.query": (width, width),
        "attention.self.key": (width, width),
        "attention.self.value": (width, width),
        "attention.output.dense": (width, width),
        "intermediate.dense": (ffn, width),
        "output.dense": (width, ffn),
    }
    weight_map = {}
    for index in range(layers):
        shard = f"model-{index + 1:05d}-of-{layers:05d}.safetensors"
        tensors = {
            f"encoder.layer.{index}.{module}.weight": (
                rng.standard_normal(shape, dtype=np.float32) / np.sqrt(shape[1])
            )
            for module, shape in shapes.items()
        }
        save_file(tensors, str(folder / shard))
        weight_map.update(dict.fromkeys(tensors, shard))
    (folder / "model.safetensors.index.json").write_text(json.dumps({"weight_map": weight_map}))
    config = {
        "model_type": "bert",
        "num_hidden_layers": layers,
        "hidden_size": width,
        "num_attention_heads": heads,
        "intermediate_size": ffn,
    }
    (folder / "config.json").write_text(json.dumps(config))
    return 8 * sum(rows * cols for rows, cols in shapes.values())


def in_fresh_process(function: Callable[..., T], *args: Any) -> T:
    """``function(*args)`` in a freshly spawned process. The checkpoints are written there: a child started
    by this process inherits its resident size at the fork as a floor of its own ru_maxrss, so a parent that
    had just generated a checkpoint would inflate every peak measured after it."""
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return pool.apply(function, args)


LAUNCHER = """
import os, sys, time
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.execv(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
print(os.waitstatus_to_exitcode(status), usage.ru_maxrss, time.perf_counter() - start,
      usage.ru_utime + usage.ru_stime)
"""
"""Forks and execs the measured command, as GNU time does, and prints its exit status, ru_maxrss (KB), wall
and CPU seconds. A process started directly by the benchmark would not do: Linux carries the parent's
high-water RSS into a vforked child's ru_maxrss at its exec (a parent holding 300 MB makes ``python -c
pass`` report 328 MB), so every peak read that way is at least the benchmark's own. This launcher is a
fresh interpreter of a few MB, and its forked child's ru_maxrss is the measured process's own peak."""


def child_peak(code: list[str], cwd: str | None = None) -> tuple[float, float, float]:
    """Run ``python code...`` in a fresh child (in ``cwd``, default here), forked by :data:`LAUNCHER`: its
    peak RSS in MB (the whole process's maximum resident set size, ru_maxrss, as ``/usr/bin/time -v`` reports
    it), its wall time and its CPU time (user + system: robust on a shared machine)."""
    child = subprocess.run(
        [sys.executable, "-c", LAUNCHER, sys.executable, *code], capture_output=True, cwd=cwd, check=False
    )
    fields = child.stdout.split()
    if child.returncode != 0 or len(fields) != 4 or int(fields[0]) != 0:
        raise SystemExit(f"child failed: {child.stderr.decode().strip()}")
    peak_kb, wall, cpu = int(fields[1]), float(fields[2]), float(fields[3])
    return peak_kb / 1024, wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=24)
    parser.add_argument("--width", type=int, default=1024)
    parser.add_argument("--heads", type=int, default=16)
    parser.add_argument(
        "--eager", action="store_true", help="also measure load_weights + proxies (whole model)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        layer_bytes = in_fresh_process(write_checkpoint, folder, args.layers, args.width, args.heads)
        target = (layer_bytes + 300 * MB) / MB
        peak, seconds, cpu = child_peak(["-m", "paper_checks.cli", "bound", str(folder), "--json"])
        print(f"model: {args.layers} layers, N={args.width}, {args.heads} heads, FFN={4 * args.width}")
        whole = args.layers * layer_bytes / MB
        print(f"largest layer's float64 matrices: {layer_bytes / MB:.0f} MB; whole model {whole:.0f} MB")
        print(f"bound (streamed) peak RSS: {peak:.0f} MB in {seconds:.0f} s ({cpu:.0f} s CPU)")
        print(f"target layer + 300 MB: {target:.0f} MB; ratio peak / target = {peak / target:.3f}")
        if args.eager:
            code = (
                "import sys; from numerics import load_weights, proxies; proxies(load_weights(sys.argv[1]))"
            )
            eager, eager_seconds, _ = child_peak(["-c", code, str(folder)])
            print(f"load_weights + proxies (whole model) peak RSS: {eager:.0f} MB in {eager_seconds:.0f} s")
    return 0 if peak <= target else 1


if __name__ == "__main__":
    sys.exit(main())
