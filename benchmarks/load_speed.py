"""Load both embedded models and extract all their matrices; compare with the 10 s target of issue 2.

Best of 3 runs in one process, the load cache cleared before each, so every run reads the files again.
Prints each run, then the best time per model, the total and the ratio total / target (below 1 meets the
target); the exit status is 1 when the target is missed. The operating system's file cache stays warm.
Run: ``python3 benchmarks/load_speed.py``.
"""

from __future__ import annotations

import sys
import time

from numerics.loading import DEFAULT_MODELS, load_weights
from numerics.spectra.matrices import extract_matrices

TARGET = 10.0
RUNS = 3


def load_and_extract(model: str) -> float:
    """Seconds to load ``model`` from disk (each load reads the files) and extract the bound's matrices."""
    start = time.perf_counter()
    extract_matrices(load_weights(model))
    return time.perf_counter() - start


def main() -> int:
    runs = {model: [load_and_extract(model) for _ in range(RUNS)] for model in DEFAULT_MODELS}
    best = {model: min(seconds) for model, seconds in runs.items()}
    total = sum(best.values())
    for model, seconds in runs.items():
        print(
            f"{model}: runs {', '.join(f'{s:.3f}' for s in seconds)} s (the first includes importing readers)"
        )
    times = ", ".join(f"{model} {seconds:.2f} s" for model, seconds in best.items())
    ratio = total / TARGET
    print(
        f"load+extract (best of {RUNS}) {times}, total {total:.2f} s, total/{TARGET:g}s target = {ratio:.3f}"
    )
    return 0 if total < TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
