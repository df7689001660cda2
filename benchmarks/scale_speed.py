"""``specbound bound`` against the floor of unavoidable linear algebra, and what ``--jobs 2`` buys.

Builds random BERT-shaped checkpoints (numpy + safetensors, :func:`stream_memory.write_checkpoint`):
BERT-mini (L4, N256, 4 heads, FFN 1024), BERT-base (L12, N768, 12 heads, FFN 3072) and BERT-large
(L24, N1024, 16 heads, FFN 4096; ``--large-layers`` keeps fewer layers, since one run of the full model takes
minutes on a shared 2-core machine: the per-layer work is the same, and the fixed start-up weighs more on
fewer layers, so the ratio measured there is if anything pessimistic). Times, as whole processes from start
to exit (interpreter start, imports and reading the files included on both sides):
  (a) ``python -m paper_checks.cli bound DIR --jobs 1``: the whole report, as a table (so without the
      (1,1) norms and the content hash, which only the JSON rows and run block show);
  (b) the floor: ``python benchmarks/scale_speed.py --floor DIR``: numpy + safetensors read every
      layer, upcast to float64, and do only the unavoidable linear algebra (one SVD per feed-forward
      matrix, in the tall orientation: W_in as stored, 4N x N, and W_out^T; thin QR of both factors and a
      d_h x d_h core SVD per head product), nothing else;
  (c) ``bound DIR --jobs 2`` on BERT-base, against (a);
  (d) ``bound DIR --jobs 1 --fast-svd`` on BERT-base (Gram path where decided), against (b).
Both sides run OpenBLAS single-threaded, with Python's bytecode cache on (in a temporary
PYTHONPYCACHEPREFIX, as an installed package has it, even when the calling shell sets
PYTHONDONTWRITEBYTECODE) and after one unmeasured warm-up run of each. Runs are interleaved (one of each
per round); printed are the best time of each over ``--repeats`` rounds, their ratio, and the spread
(min / median / max) of the per-round ratios: on a shared machine the ratios are noisy, absolute times
more so. Targets (issue 23): a/b <= 1.3 on BERT-mini, <= 1.10 on BERT-base and BERT-large, on CPU time
(user + system from the rusage of the children: robust to the other users of a shared machine, unlike the
wall time); (a, jobs 1)/(c, jobs 2) >= 1.7 only when a core is free.

Run: ``python3 benchmarks/scale_speed.py [--repeats 3] [--shapes mini,base,large] [--large-layers 6]
[--no-extras]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SHAPES = {
    "mini": ("BERT-mini", 4, 256, 4),
    "base": ("BERT-base", 12, 768, 12),
    "large": ("BERT-large", 24, 1024, 16),
}
"""key -> (name, layers, hidden size, heads); FFN = 4 x hidden."""


ROLES = {
    "bert": (
        ("attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense"),
        ("intermediate.dense",),
        "output.dense",
    ),
    "llama": (
        ("self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj", "self_attn.o_proj"),
        ("mlp.gate_proj", "mlp.up_proj"),
        "mlp.down_proj",
    ),
}
"""model_type -> ((Wq, Wk, Wv, Wo), the input projections stacked into M_in^T, W_out): module names of the
checkpoints :func:`stream_memory.write_checkpoint` and ``llama7b_layer.write_layer`` write."""


def floor(folder: Path) -> None:
    """The unavoidable linear algebra of the bound on a checkpoint written by ``write_checkpoint`` (BERT) or
    ``llama7b_layer.write_layer`` (LLaMA, no grouped heads): per head product thin QR of both factors and
    a d_h x d_h core SVD; per feed-forward matrix one values-only numpy SVD in the tall orientation (M_in^T
    as stored, 4N x N, a gated one's [W_gate; W_up], 2F x N; and W_out^T)."""
    import json

    import numpy as np
    from safetensors.numpy import load_file

    config = json.loads((folder / "config.json").read_text())
    heads = config["num_attention_heads"]
    attention, inputs, output = ROLES[config["model_type"]]
    for shard in sorted(folder.glob("*.safetensors")):
        tensors = {name: array.astype(np.float64) for name, array in load_file(str(shard)).items()}
        by_role = {name.split(".", 3)[3].rsplit(".", 1)[0]: array for name, array in tensors.items()}
        wq, wk, wv, wo = (by_role[role] for role in attention)
        dh = wq.shape[0] // heads
        for head in range(heads):
            rows = slice(head * dh, (head + 1) * dh)
            for left, right in ((wq[rows].T, wk[rows].T), (wv[rows].T, wo[:, rows])):
                r_left, r_right = np.linalg.qr(left, mode="r"), np.linalg.qr(right, mode="r")
                np.linalg.svd(r_left @ r_right.T, compute_uv=False)
        blocks = [by_role[role] for role in inputs]
        np.linalg.svd(blocks[0] if len(blocks) == 1 else np.vstack(blocks), compute_uv=False)  # M_in^T
        np.linalg.svd(by_role[output].T, compute_uv=False)


def process_seconds(arguments: list[str]) -> tuple[float, float]:
    """Wall-clock and CPU seconds (user + system, the child and its workers) of ``python arguments...``."""
    root = Path(__file__).resolve().parent.parent
    environment = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    command = [sys.executable, *arguments]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, cwd=root, env=environment, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def interleaved(commands: list[list[str]], repeats: int) -> list[list[tuple[float, float]]]:
    """(wall, CPU) of every run: ``repeats`` rounds of one run of each command, after a warm-up round."""
    for command in commands:
        process_seconds(command)  # warm-up: bytecode written, files in the page cache
    return [[process_seconds(command) for command in commands] for _ in range(repeats)]


def spread(values: list[float]) -> str:
    """min / median / max."""
    return f"{min(values):.2f} / {statistics.median(values):.2f} / {max(values):.2f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--floor", metavar="DIR", help="(internal) run the floor computation on DIR")
    parser.add_argument("--repeats", type=int, default=3, help="measured rounds (default 3)")
    parser.add_argument("--shapes", default="mini,base,large", help="comma-separated: mini, base, large")
    parser.add_argument("--large-layers", type=int, default=24, help="layers of the BERT-large shape (24)")
    parser.add_argument("--no-extras", action="store_true", help="skip --jobs 2 and --fast-svd on BERT-base")
    args = parser.parse_args()
    if args.floor:
        floor(Path(args.floor))
        return 0
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from stream_memory import write_checkpoint

    # both sides with a bytecode cache, as installed code has it, kept outside the source tree
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory(prefix="scale-speed-pycache-") as pycache:
        os.environ["PYTHONPYCACHEPREFIX"] = pycache
        measure(args, write_checkpoint)
    return 0


def measure(args: argparse.Namespace, write_checkpoint) -> None:
    """Print the timings of every shape in ``args.shapes``."""
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} (shared: times are noisy)")
    for key in args.shapes.split(","):
        name, layers, width, heads = SHAPES[key]
        if key == "large":
            layers = args.large_layers
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            write_checkpoint(folder, layers, width, heads)
            bound = ["-m", "paper_checks.cli", "bound", tmp, "--jobs"]
            commands = [[*bound, "1"], [__file__, "--floor", tmp]]
            extras = key == "base" and not args.no_extras
            if extras:
                commands += [[*bound, "2"], [*bound, "1", "--fast-svd"]]
            load_before = os.getloadavg()[0]
            rounds = interleaved(commands, args.repeats)
            cpu = [min(seconds for _, seconds in column) for column in zip(*rounds, strict=True)]
            wall = [min(seconds for seconds, _ in column) for column in zip(*rounds, strict=True)]
            print(f"{name} (L{layers}, N{width}, {heads} heads, FFN {4 * width}), best of {args.repeats}:")
            ratio = cpu[0] / cpu[1]
            print(f"  CPU: bound --jobs 1 {cpu[0]:7.2f} s   floor {cpu[1]:7.2f} s   ratio {ratio:.3f}")
            walls = [one[0][0] / one[1][0] for one in rounds]
            cpus = [one[0][1] / one[1][1] for one in rounds]
            print(f"    per-round ratios min / median / max: CPU {spread(cpus)}, wall {spread(walls)}")
            print(f"    load average before / after: {load_before:.1f} / {os.getloadavg()[0]:.1f}")
            if extras:
                speed_up = wall[0] / wall[2]
                print(f"  bound --jobs 2 wall {wall[2]:7.2f} s   speed-up (wall) jobs 1 / 2 {speed_up:.2f}")
                print(f"    CPU jobs 2 / jobs 1: {cpu[2] / cpu[0]:.2f} (the workers' start-up and reading)")
                cores = cpu[2] / wall[2]
                print(f"    cores the --jobs 2 run obtained (CPU s / wall s): {cores:.2f}; no speed-up can")
                print("    exceed it, so on a busy machine this, not the 1.7x target, is the ceiling")
                fast = cpu[3] / cpu[1]
                print(f"  CPU: bound --jobs 1 --fast-svd {cpu[3]:7.2f} s   ratio to the floor {fast:.3f}")


if __name__ == "__main__":
    sys.exit(main())
