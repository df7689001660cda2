"""Certified proxies against plain evaluation on the two embedded models, printed as time ratios.

For each model: the plain float64/mpmath pipeline (:func:`numerics.proxies.proxies`: spectra, post hoc p,
both proxies) and the certified one (:func:`numerics.certify.certified.certify_proxies`: arb enclosures
of every singular value, rank, norm, contribution and both proxies), best of ``RUNS`` each, weights loaded
once. Prints the times, the ratio certified / plain, and the relative widths of the certified proxies.
Timings on a shared 2-core machine are noisy (OpenBLAS threads contend under load): read the ratios, not
single numbers. Run: ``python3 benchmarks/certify_speed.py [RUNS]``.
"""

from __future__ import annotations

import sys
import time

from numerics.certify.certified import certify_proxies
from numerics.loading import DEFAULT_MODELS, load_weights
from numerics.proxies import proxies

RUNS = 1


def best_time(function, runs: int) -> tuple[float, object]:
    """The smallest wall time of ``runs`` calls and the last result."""
    times, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return min(times), result


def main(runs: int = RUNS) -> int:
    total_plain = total_certified = 0.0
    for model in sorted(DEFAULT_MODELS):
        weights = load_weights(model)
        plain_s, plain = best_time(lambda w=weights: proxies(w), runs)
        certified_s, certified = best_time(lambda w=weights: certify_proxies(w, show_progress=False), runs)
        total_plain += plain_s
        total_certified += certified_s
        widths = {
            name: float(2 * ball.rad() / abs(ball.mid()))
            for name, ball in (("B_ours", certified.ours), ("B_Edelman", certified.edelman))
        }
        undecided_p = sum(not c.p_decided for c in certified.contributions)
        undecided_rank = sum(not c.certified.rank.decided for c in certified.contributions)
        ratio = certified_s / plain_s
        print(
            f"{model}: plain {plain_s:.2f} s, certified {certified_s:.2f} s, ratio {ratio:.1f}x; "
            f"relative width B_ours {widths['B_ours']:.1e}, B_Edelman {widths['B_Edelman']:.1e}; "
            f"{len(certified.contributions)} matrices, undecided ranks {undecided_rank}, "
            f"undecided p {undecided_p}; B_ours < B_Edelman: {certified.ours_below_edelman}; "
            f"plain B_ours {float(plain.ours):.10g}"
        )
    print(
        f"total (best of {runs}): plain {total_plain:.2f} s, certified {total_certified:.2f} s, "
        f"ratio {total_certified / total_plain:.1f}x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else RUNS))
