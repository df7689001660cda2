"""``bound --device cuda`` against the CPU on BERT-large and one LLaMA-7B-shaped layer (for a GPU machine).

For each shape (random weights written by :func:`stream_memory.write_checkpoint` and
:func:`llama7b_layer.write_layer`, in a fresh process), runs as whole processes, interleaved (one run of
each per round after a warm-up round, ``--repeats`` rounds):
  (a) ``bound DIR --jobs 1 --json``: numpy's LAPACK on one CPU thread (the default);
  (b) the same with ``--device cpu``: torch's float64 linear algebra on the CPU (the batched calls of
      :func:`numerics.spectra.spectrum.layer_spectra`);
  (c) the same with ``--device cuda``: torch on the GPU; only where ``torch.cuda.is_available()``,
      otherwise the line says "cuda: not available on this machine" and only (a) and (b) run.
Printed per shape and variant: the best wall time and CPU time (user + system of the child) of the rounds,
the speed-up in wall time of each variant over (a), and the largest relative difference of B_ours and
B_Edelman to (a)'s (the torch backends agree with numpy within the SVD backward error:
tests/unit/numerics/test_device.py; a difference above 1e-10 is flagged). Exit status 1 when a difference
is flagged.

Run: ``python3 benchmarks/device_speed.py [--repeats 2] [--shapes large,llama] [--large-layers 24]``
(several CPU minutes per shape on the CPU variants).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from llama7b_layer import write_layer
from stream_memory import in_fresh_process, write_checkpoint

ROOT = Path(__file__).resolve().parent.parent


def cuda_available() -> bool:
    """Whether torch sees a CUDA device (False without torch)."""
    try:
        import torch
    except ImportError:
        return False
    return bool(torch.cuda.is_available())


def run(arguments: list[str]) -> tuple[float, float, dict]:
    """(wall s, CPU s, proxies) of ``python -m paper_checks.cli bound ARGUMENTS --json``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "paper_checks.cli", "bound", *arguments, "--json"],
        cwd=ROOT,
        env={**os.environ, "OPENBLAS_NUM_THREADS": "1"},
        check=True,
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, json.loads(done.stdout)["proxies"]


def measure(name: str, folder: str, repeats: int) -> bool:
    """Print one shape's figures; True when every backend agrees with numpy's to 1e-10 relative."""
    variants = {"numpy (LAPACK, 1 thread)": [], "torch --device cpu": ["--device", "cpu"]}
    if cuda_available():
        variants["torch --device cuda"] = ["--device", "cuda"]
    commands = [[folder, "--jobs", "1", *extra] for extra in variants.values()]
    for command in commands:
        run(command)  # warm-up: bytecode, page cache, CUDA context
    rounds = [[run(command) for command in commands] for _ in range(repeats)]
    print(f"{name}, best of {repeats} interleaved, load average {os.getloadavg()[0]:.1f}:")
    if not cuda_available():
        print("  cuda: not available on this machine (torch.cuda.is_available() is False)")
    reference_wall = min(r[0][0] for r in rounds)
    reference = rounds[-1][0][2]
    agree = True
    for index, label in enumerate(variants):
        wall, cpu = min(r[index][0] for r in rounds), min(r[index][1] for r in rounds)
        proxies = rounds[-1][index][2]
        difference = max(abs(float(proxies[k]) / float(reference[k]) - 1) for k in ("ours", "edelman"))
        agree &= difference <= 1e-10
        print(
            f"  {label:26s} wall {wall:8.2f} s  CPU {cpu:8.2f} s  speed-up over numpy (wall) "
            f"{reference_wall / wall:5.2f}  B_ours/B_Edelman relative difference {difference:.1e}"
        )
    return agree


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--shapes", default="large,llama", help="comma-separated: large, llama")
    parser.add_argument("--large-layers", type=int, default=24, help="layers of the BERT-large shape (24)")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores, CUDA available: {cuda_available()}")
    agree = True
    for key in args.shapes.split(","):
        with tempfile.TemporaryDirectory() as folder:
            if key == "large":
                in_fresh_process(write_checkpoint, Path(folder), args.large_layers, 1024, 16)
                name = f"BERT-large (L{args.large_layers}, N1024, 16 heads)"
            else:
                in_fresh_process(write_layer, Path(folder))
                name = "one LLaMA-7B-shaped layer (N4096, FFN 11008, 32 heads)"
            agree &= measure(name, folder, args.repeats)
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
