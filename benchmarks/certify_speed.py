"""Certified proxies against the plain run, as time ratios, on a BERT-base shape and on the MiniLM defaults.

For each model, in one process with OpenBLAS single-threaded and the weights loaded once: the plain
float64/mpmath pipeline (:func:`numerics.bounds.proxies.proxies`: spectra, post hoc p, both proxies) and the
certified one (:func:`numerics.certify.certified.certify_proxies`, default path: float-bounds
certificates with a per-matrix arb fallback), interleaved (one of each per round), best of ``--rounds``.
Prints the times, the ratio certified / plain, how many matrices took each certificate path, and the
relative widths of both certified proxies.

BERT-base is random-init (L12, N768, 12 heads, FFN 3072; float32 weights written as a sharded
safetensors checkpoint by :func:`stream_memory.write_checkpoint`, as the other benchmarks build it).
Target (issue 13): certified / plain <= 8 on BERT-base (41x with arb products).

``--cli`` also times the command itself on the BERT-base checkpoint, as whole processes (start-up and
reading included, :func:`scale_speed.best_interleaved`): ``bound DIR`` against ``bound DIR --certify``,
which runs the plain report and then the certificate.

``--compare-arb`` also certifies each MiniLM model on the arb path (slow: about 20 s and 40 s) and prints
the width ratio float-bounds / arb of every singular-value enclosure (max and median), of the (2,1)
norms and of both proxies, and whether every rank interval and post hoc p candidate set is the same.

Run: ``python3 benchmarks/certify_speed.py [--rounds 2] [--skip-base] [--cli] [--compare-arb]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

from numerics.bounds.proxies import proxies  # noqa: E402
from numerics.certify.certified import ARB_PATH, CertifiedProxies, certify_proxies  # noqa: E402
from numerics.loading import DEFAULT_MODELS, load_weights  # noqa: E402
from numerics.loading.weights import TransformerWeights  # noqa: E402

BERT_BASE = (12, 768, 12)
"""layers, hidden size, heads (FFN 4 x hidden)."""


def interleaved(functions: list[Callable[[], object]], rounds: int) -> list[tuple[float, object]]:
    """(best wall time, last result) of each function over ``rounds`` rounds, one call of each per round."""
    times: list[list[float]] = [[] for _ in functions]
    results: list[object] = [None] * len(functions)
    for _ in range(rounds):
        for index, function in enumerate(functions):
            start = time.perf_counter()
            results[index] = function()
            times[index].append(time.perf_counter() - start)
    return [(min(t), r) for t, r in zip(times, results, strict=True)]


def relative_width(ball: object) -> float:
    """(hi - lo) / |mid| of an arb ball, as a float (reporting only)."""
    return float(2 * ball.rad() / abs(ball.mid()))  # type: ignore[attr-defined]


def measure(name: str, weights: TransformerWeights, rounds: int) -> CertifiedProxies:
    """Print one model's plain and certified times and ratio; return the certified proxies."""
    (plain_s, _), (certified_s, certified) = interleaved(
        [lambda: proxies(weights), lambda: certify_proxies(weights, show_progress=False)], rounds
    )
    assert isinstance(certified, CertifiedProxies)
    paths = Counter(c.certified.path for c in certified.contributions)
    print(
        f"{name}: plain {plain_s:.2f} s, certified {certified_s:.2f} s, ratio {certified_s / plain_s:.1f}x "
        f"(best of {rounds} interleaved); {len(certified.contributions)} matrices, certificate paths "
        f"{dict(sorted(paths.items()))}; relative width B_ours {relative_width(certified.ours):.1e}, "
        f"B_Edelman {relative_width(certified.edelman):.1e}; "
        f"B_ours < B_Edelman: {certified.ours_below_edelman}",
        flush=True,
    )
    return certified


def compare_with_arb(name: str, weights: TransformerWeights, fast: CertifiedProxies) -> None:
    """Print the width ratios float-bounds / arb and whether every decision is the same."""
    start = time.perf_counter()
    slow = certify_proxies(weights, show_progress=False, path=ARB_PATH)
    arb_s = time.perf_counter() - start
    values, norms, same = [], [], True
    for a, b in zip(fast.contributions, slow.contributions, strict=True):
        for x, y in zip(a.certified.enclosure.balls, b.certified.enclosure.balls, strict=True):
            if y.rad() > 0:
                values.append(float(x.rad() / y.rad()))
        norms.append(relative_width(a.certified.norm_21) / max(relative_width(b.certified.norm_21), 1e-300))
        same &= (a.certified.rank, a.candidates) == (b.certified.rank, b.candidates)
    print(
        f"{name}: arb path {arb_s:.2f} s; singular-value width ratio float-bounds / arb: max "
        f"{max(values):.3f}, median {statistics.median(values):.3f} ({len(values)} enclosures); (2,1)-norm "
        f"relative width {max(relative_width(c.certified.norm_21) for c in fast.contributions):.1e} "
        f"(arb {max(relative_width(c.certified.norm_21) for c in slow.contributions):.1e}); "
        f"proxy width ratio B_ours {relative_width(fast.ours) / relative_width(slow.ours):.3f}, B_Edelman "
        f"{relative_width(fast.edelman) / relative_width(slow.edelman):.3f}; "
        f"same ranks and p candidates: {same}",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--skip-base", action="store_true", help="only the MiniLM models")
    parser.add_argument("--compare-arb", action="store_true", help="MiniLM widths against the arb path")
    parser.add_argument("--cli", action="store_true", help="also time bound vs bound --certify as processes")
    args = parser.parse_args()
    if not args.skip_base:
        from stream_memory import write_checkpoint

        with tempfile.TemporaryDirectory() as folder:
            write_checkpoint(Path(folder), *BERT_BASE)
            measure("BERT-base (random init)", load_weights(folder), args.rounds)
            if args.cli:
                from scale_speed import best_interleaved

                command = ["-m", "paper_checks.cli", "bound", folder, "--jobs", "1"]
                (plain, _), (certified, _) = best_interleaved([command, [*command, "--certify"]], args.rounds)
                print(
                    f"BERT-base, whole processes: bound {plain:.1f} s, bound --certify {certified:.1f} s, "
                    f"ratio {certified / plain:.1f}x (best of {args.rounds} interleaved)",
                    flush=True,
                )
    for model in sorted(DEFAULT_MODELS):
        weights = load_weights(model)
        certified = measure(model, weights, args.rounds)
        if args.compare_arb:
            compare_with_arb(model, weights, certified)
    return 0


if __name__ == "__main__":
    sys.exit(main())
