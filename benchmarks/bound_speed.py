"""How close ``specbound bound`` is to the cheapest exact computation, and what thin factors save.

On minilm-l6, after loading the weights once, the best of 5 interleaved wall-clock runs of:
  (a) the whole bound pipeline: every spectrum, alpha, gamma, post hoc p and both proxies (``proxies``);
  (b) the floor: the cheapest exact computation of all the singular values the bound needs (thin QR
      and a d_h x d_h core SVD per head product, one SVD per feed-forward matrix), nothing else;
  (c) the naive pipeline: a full SVD of every dense N x N head product and of the feed-forward matrices,
      then the same norms, grid evaluation and proxies.
All three run with single-threaded OpenBLAS, as the pipeline does (numerics.spectra.blas). Prints the times,
a/b (target <= 1.5) and c/a (target >= 4), then the end-to-end ``specbound bound`` command time
(process start to output; target < 8 s). Timings on a shared machine are noisy.

Run: python3 benchmarks/bound_speed.py [MODEL]
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable

import numpy as np

from numerics.bounds.proxies import proxies
from numerics.loading import load_weights
from numerics.spectra.blas import single_threaded_blas
from numerics.spectra.matrices import extract_matrices
from numerics.spectra.spectrum import core_singular_values, spectrum

REPEATS = 5


def wall_time(function: Callable[[], object]) -> float:
    """Wall-clock seconds of one call."""
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def best_interleaved(*functions: Callable[[], object], repeats: int = REPEATS) -> list[float]:
    """The best time of each function over ``repeats`` rounds, one call of each per round.

    Interleaving gives every function the same share of the quiet moments of a shared machine.
    """
    rounds = [[wall_time(function) for function in functions] for _ in range(repeats)]
    return [min(times) for times in zip(*rounds, strict=True)]


def main(model: str = "minilm-l6") -> int:
    weights = load_weights(model)
    matrices = extract_matrices(weights)

    def pipeline() -> object:
        return proxies(weights)

    def floor() -> object:
        return [
            core_singular_values(m.left, m.right)[0]
            if m.right is not None
            else np.linalg.svd(m.left, compute_uv=False)
            for m in matrices
        ]

    def naive() -> object:
        return proxies([(m, spectrum(m.dense())) for m in matrices], source=model)

    with single_threaded_blas():  # the setting the pipeline itself uses, for all three
        naive_report, exact_report = naive(), pipeline()
        a, b, c = best_interleaved(pipeline, floor, naive)
    agreement = abs(float(naive_report.ours) / float(exact_report.ours) - 1)
    print(f"model {model}: L={weights.num_layers}, N={weights.hidden_size}, {len(matrices)} matrices")
    print(f"(a) bound pipeline after loading   {a:7.3f} s")
    print(f"(b) floor: all singular values      {b:7.3f} s")
    print(f"(c) naive: dense SVDs + same grid   {c:7.3f} s")
    print(f"a/b = {a / b:.2f}  (target <= 1.5)")
    print(f"c/a = {c / a:.2f}  (target >= 4)")
    print(f"B_ours naive vs exact: relative difference {agreement:.1e}")

    command = [sys.executable, "-m", "paper_checks.cli", "bound", model]
    (end_to_end,) = best_interleaved(
        lambda: subprocess.run(command, check=True, capture_output=True), repeats=3
    )
    print(f"end to end: specbound bound {model}  {end_to_end:.2f} s  (target < 8 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:2]))
