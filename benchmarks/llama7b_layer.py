"""One LLaMA-7B-shaped layer through ``specbound bound``: time, peak memory, and a 32-layer extrapolation.

Writes (numpy + safetensors, float16 random weights scaled by 1/sqrt(fan-in)) a one-layer LLaMA
checkpoint of the 7B shape: N = 4096, FFN 11008 (M_in = [W_gate; W_up]^T is 4096 x 22016, kept as its two
blocks), 32 heads, in a temporary folder. Runs ``python -m paper_checks.cli bound DIR --jobs 1`` (and, with
``--fast-svd``, the same with the Gram path) in a child process, reading the child's wall time and peak RSS,
and the same command on a tiny checkpoint for the start-up time. Targets: peak RSS <= the layer's float64
matrices + 300 MB (exit status 1 when missed) and <= 90 s CPU (printed).
Times are the child's CPU time (user + system; the run is
single-threaded, so on an idle machine it is the wall time; on a shared one the wall time is inflated).
Extrapolation to the 32 layers of a 7B model: start-up + 32 x (one-layer time - start-up), serial; layers
are independent, so ``--jobs J`` divides the second term by at most J. Peak memory stays that of one layer
(streaming). ``--baseline DIR`` runs the same command in another checkout of specbound (e.g. the tree
before a change) right after, for a before/after pair from one run. ``--floor`` also runs the numpy floor
of the same layer (``scale_speed.py --floor``: the file read and upcast, a values-only dgesdd of the stacked
[W_gate; W_up] and of W_down^T, thin QRs and a core SVD per head product, nothing else) after this tree's
run, and prints this tree's CPU time as a multiple of it. ``--rounds R`` repeats the whole sequence R times
(interleaved: this tree, floor, baseline, this tree, ...).

Run: ``python3 benchmarks/llama7b_layer.py [--fast-svd] [--floor] [--baseline DIR] [--rounds 1]`` (minutes
of CPU per run, ~1.7 GB).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

N, FFN, HEADS, LAYERS_7B = 4096, 11008, 32, 32
CPU_TARGET = 90.0
"""Issue 23: one layer (spectra, the coverage's SwiGLU and rotary figures from the same read) in 90 s CPU."""
SHAPES = {
    "self_attn.q_proj": (N, N),
    "self_attn.k_proj": (N, N),
    "self_attn.v_proj": (N, N),
    "self_attn.o_proj": (N, N),
    "mlp.gate_proj": (FFN, N),
    "mlp.up_proj": (FFN, N),
    "mlp.down_proj": (N, FFN),
}


def write_layer(folder: Path, hidden: int = N, ffn: int = FFN, heads: int = HEADS) -> int:
    """A one-layer LLaMA checkpoint of the given shape; returns the float64 bytes of its matrices."""
    from safetensors.numpy import save_file

    rng = np.random.default_rng(0)
    tensors = {}
    total = 0
    for name, (rows, cols) in SHAPES.items():
        rows, cols = (hidden if rows == N else ffn), (hidden if cols == N else ffn)
        tensors[f"model.layers.0.{name}.weight"] = (
            rng.standard_normal((rows, cols), dtype=np.float32) / np.sqrt(cols)
        ).astype(np.float16)
        total += 8 * rows * cols
    save_file(tensors, str(folder / "model.safetensors"))
    config = {
        "model_type": "llama",
        "num_hidden_layers": 1,
        "hidden_size": hidden,
        "intermediate_size": ffn,
        "num_attention_heads": heads,
        "num_key_value_heads": heads,
    }
    (folder / "config.json").write_text(json.dumps(config))
    return total


def timed(label: str, code: list[str], tree: str | None = None) -> tuple[float, float]:
    """Run ``python code...`` (in checkout ``tree``) as :func:`stream_memory.child_peak` does, print its CPU,
    wall, peak RSS and the load average around it; return (peak RSS MB, CPU seconds)."""
    from stream_memory import child_peak

    load = os.getloadavg()[0]
    peak, wall, seconds = child_peak(code, cwd=tree)
    print(f"{label}: one layer {seconds:.0f} s CPU ({wall:.0f} s wall), peak RSS {peak:.0f} MB")
    print(f"  load average before / after: {load:.1f} / {os.getloadavg()[0]:.1f}")
    return peak, seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fast-svd", action="store_true", help="also time the Gram path")
    parser.add_argument("--baseline", metavar="DIR", help="also run the command in this specbound checkout")
    parser.add_argument("--floor", action="store_true", help="also time the numpy floor of the layer")
    parser.add_argument("--rounds", type=int, default=1, help="interleaved rounds of every run (default 1)")
    args = parser.parse_args()
    if args.baseline and not (Path(args.baseline) / "paper_checks" / "cli.py").is_file():
        print(
            f"llama7b_layer.py: error: --baseline {args.baseline}: not a specbound checkout "
            "(no paper_checks/cli.py in it); name one, e.g. a git worktree of main",
            file=sys.stderr,
        )
        return 2
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from stream_memory import MB, child_peak, in_fresh_process

    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} (shared: times are noisy)")
    with tempfile.TemporaryDirectory() as tiny_dir, tempfile.TemporaryDirectory() as big_dir:
        in_fresh_process(write_layer, Path(tiny_dir), 64, 128, 4)
        layer_bytes = in_fresh_process(write_layer, Path(big_dir))
        _, _, startup = child_peak(["-m", "paper_checks.cli", "bound", tiny_dir, "--jobs", "1"])
        print(f"one 7B-shaped layer: {layer_bytes / MB:.0f} MB of float64 matrices; start-up {startup:.1f} s")
        target = layer_bytes / MB + 300
        variants = [[], ["--fast-svd"]] if args.fast_svd else [[]]
        met = True
        trees = [(None, "this tree")]
        if args.baseline:
            trees.append((args.baseline, f"baseline {args.baseline}"))
        floor_command = [str(Path(__file__).resolve().parent / "scale_speed.py"), "--floor", big_dir]
        for round_index in range(args.rounds):
            print(f"round {round_index + 1} of {args.rounds}")
            for (tree, name), extra in ((t, e) for t in trees for e in variants):
                command = ["-m", "paper_checks.cli", "bound", big_dir, "--jobs", "1", *extra]
                label = " ".join([f"{name}: bound --jobs 1", *extra])
                peak, seconds = timed(label, command, tree)
                print(f"  target layer + 300 MB: {target:.0f} MB; ratio peak / target = {peak / target:.3f}")
                verdict = "met" if seconds <= CPU_TARGET else "missed"
                print(f"  target <= {CPU_TARGET:.0f} s CPU for the layer: {verdict}")
                whole = startup + LAYERS_7B * (seconds - startup)
                halved = startup + LAYERS_7B * (seconds - startup) / 2
                print(f"  32 layers extrapolated: serial {whole / 60:.0f} min, jobs 2 {halved / 60:.0f} min")
                met = met and (tree is not None or peak <= target)
                if args.floor and tree is None and not extra:
                    _, floor_seconds = timed("floor (numpy dgesdd, scale_speed.py --floor)", floor_command)
                    print(f"  this tree / floor: {seconds / floor_seconds:.2f}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
