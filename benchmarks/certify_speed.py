"""Certified proxies against the plain run, as time ratios, on a BERT-base shape and on the MiniLM defaults.

For each model, in one process with OpenBLAS single-threaded and the weights loaded once: the plain
float64/mpmath pipeline (:func:`numerics.bounds.proxies.proxies`: spectra, post hoc p, both proxies) and the
certified one (:func:`numerics.certify.certified.certify_proxies`, default path: Gram certificates for the
dense matrices, float-bounds ones for the products, per-matrix fallbacks), interleaved (one of each per
round), best of ``--rounds``.
Prints the times, the ratio certified / plain, how many matrices took each certificate path, and the
relative widths of both certified proxies.

BERT-base is random-init (L12, N768, 12 heads, FFN 3072; float32 weights written as a sharded
safetensors checkpoint by :func:`stream_memory.write_checkpoint`, as the other benchmarks build it).
Target (issue 13): certified / plain <= 8 on BERT-base (41x with arb products).

``--cli`` also measures the command itself, as whole processes (start-up and reading included),
``bound MODEL --jobs 1`` against ``bound MODEL --jobs 1 --certify`` (the plain report; the same read of each
layer also certifying it), interleaved (one of each per round, ``--rounds`` rounds), on the BERT-base
checkpoint and on minilm-l6 (one line each, in the same run; ``--skip-base`` / ``--skip-minilm`` drop
one): the CPU time (user + system) and the peak resident set size of each child (``os.wait4``), best of
the rounds, their ratios and the load average. Targets (issue 23): CPU ratio <= 4, peak RSS ratio <= 1.5;
(issue 45): CPU ratio <= 2, peak RSS ratio <= 1. ``--only-cli`` takes only that measurement;
``--cli-model MODEL`` (repeatable) takes it on MODEL (an alias such as minilm-l6, or a folder) instead, and
nothing else. Run it from the tree to measure (the children run ``python -m paper_checks.cli`` there).

``--compare-arb`` also certifies each MiniLM model on the arb path (slow: about 20 s and 40 s) and prints
the width ratio float-bounds / arb of every singular-value enclosure (max and median), of the (2,1)
norms and of both proxies, and whether every rank interval and post hoc p candidate set is the same.

Run: ``python3 benchmarks/certify_speed.py [--rounds 2] [--skip-base] [--cli] [--only-cli] [--compare-arb]
[--cli-model MODEL]``.
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
from numerics.spectra.model import SpectraOptions  # noqa: E402

BERT_BASE = (12, 768, 12)
"""layers, hidden size, heads (FFN 4 x hidden)."""
CLI_MINILM = "minilm-l6"
"""The MiniLM model whose whole-process ratios ``--cli`` prints beside BERT-base's."""


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
        [lambda: proxies(weights), lambda: certify_proxies(weights, SpectraOptions(certify_progress=False))],
        rounds,
    )
    assert certified.dps is None  # balls, not mpmath points
    paths = Counter(c.spectrum.path for c in certified.matrices)
    print(
        f"{name}: plain {plain_s:.2f} s, certified {certified_s:.2f} s, ratio {certified_s / plain_s:.1f}x "
        f"(best of {rounds} interleaved); {len(certified.matrices)} matrices, certificate paths "
        f"{dict(sorted(paths.items()))}; relative width B_ours {relative_width(certified.ours):.1e}, "
        f"B_Edelman {relative_width(certified.edelman):.1e}; "
        f"B_ours < B_Edelman: {certified.ours_below_edelman}",
        flush=True,
    )
    return certified


def compare_with_arb(name: str, weights: TransformerWeights, fast: CertifiedProxies) -> None:
    """Print the width ratios float-bounds / arb and whether every decision is the same."""
    start = time.perf_counter()
    slow = certify_proxies(weights, SpectraOptions(certify_progress=False, certify_path=ARB_PATH))
    arb_s = time.perf_counter() - start
    values, norms, same = [], [], True
    for a, b in zip(fast.matrices, slow.matrices, strict=True):
        for x, y in zip(a.spectrum.enclosure.balls, b.spectrum.enclosure.balls, strict=True):
            if y.rad() > 0:
                values.append(float(x.rad() / y.rad()))
        norms.append(relative_width(a.spectrum.norm_21) / max(relative_width(b.spectrum.norm_21), 1e-300))
        same &= (a.spectrum.rank, a.choice.candidates) == (b.spectrum.rank, b.choice.candidates)
    print(
        f"{name}: arb path {arb_s:.2f} s; singular-value width ratio float-bounds / arb: max "
        f"{max(values):.3f}, median {statistics.median(values):.3f} ({len(values)} enclosures); (2,1)-norm "
        f"relative width {max(relative_width(c.spectrum.norm_21) for c in fast.matrices):.1e} "
        f"(arb {max(relative_width(c.spectrum.norm_21) for c in slow.matrices):.1e}); "
        f"proxy width ratio B_ours {relative_width(fast.ours) / relative_width(slow.ours):.3f}, B_Edelman "
        f"{relative_width(fast.edelman) / relative_width(slow.edelman):.3f}; "
        f"same ranks and p candidates: {same}",
        flush=True,
    )


def cli_ratios(folder: str, rounds: int, name: str = "BERT-base") -> None:
    """Print CPU and peak-RSS ratios of ``bound --certify`` to ``bound`` on ``folder`` (``name``)."""
    from stream_memory import child_peak

    command = ["-m", "paper_checks.cli", "bound", folder, "--jobs", "1"]
    load = os.getloadavg()[0]
    runs = [[child_peak(c) for c in (command, [*command, "--certify"])] for _ in range(rounds)]
    (plain_rss, certified_rss), (plain_cpu, certified_cpu) = (
        [min(run[i][field] for run in runs) for i in (0, 1)] for field in (0, 2)
    )
    print(
        f"{name}, whole processes, best of {rounds} interleaved (load {load:.1f} before, "
        f"{os.getloadavg()[0]:.1f} after): bound {plain_cpu:.2f} s CPU, peak RSS {plain_rss:.0f} MB; "
        f"bound --certify {certified_cpu:.2f} s CPU, peak RSS {certified_rss:.0f} MB; ratios CPU "
        f"{certified_cpu / plain_cpu:.2f}x (target <= 2), peak RSS {certified_rss / plain_rss:.2f}x "
        "(target <= 1)",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--skip-base", action="store_true", help="only the MiniLM models")
    parser.add_argument("--compare-arb", action="store_true", help="MiniLM widths against the arb path")
    parser.add_argument("--cli", action="store_true", help="also bound vs bound --certify as processes")
    parser.add_argument("--skip-minilm", action="store_true", help="only the BERT-base shape")
    parser.add_argument("--only-cli", action="store_true", help="only the --cli measurement")
    parser.add_argument(
        "--cli-model", action="append", help="only the --cli measurement, on this model alias or folder"
    )
    args = parser.parse_args()
    if args.cli_model:
        for model in args.cli_model:
            cli_ratios(model, args.rounds, model)
        return 0
    if not args.skip_base:
        from stream_memory import in_fresh_process, write_checkpoint

        with tempfile.TemporaryDirectory() as folder:
            # written in a fresh process and measured as processes first: a child forked from a parent
            # that holds the weights would inherit its resident size as a floor of its own peak
            in_fresh_process(write_checkpoint, Path(folder), *BERT_BASE)
            if args.cli or args.only_cli:
                cli_ratios(folder, args.rounds)
            if not args.only_cli:
                measure("BERT-base (random init)", load_weights(folder), args.rounds)
    if (args.cli or args.only_cli) and not args.skip_minilm:
        cli_ratios(CLI_MINILM, args.rounds, CLI_MINILM)
    for model in () if args.skip_minilm or args.only_cli else sorted(DEFAULT_MODELS):
        weights = load_weights(model)
        certified = measure(model, weights, args.rounds)
        if args.compare_arb:
            compare_with_arb(model, weights, certified)
    return 0


if __name__ == "__main__":
    sys.exit(main())
