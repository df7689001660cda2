"""Will the default ranking study (``specbound correlate --profile default``) finish within 30 minutes?

Trains and measures one seed of the default profile (every configuration of the design once: 15 models)
without a cache, with ``--jobs`` worker processes (default 2, the target machine's cores), and
extrapolates the wall-clock time to the whole profile: wall(one seed) x (models in the profile / 15).
Prints the per-model worker time, the extrapolated study time and its ratio to the 30-minute target
(target <= 1). The same for the quick profile against its 3-minute target. Timings on a shared machine
are noisy (and pessimistic).

Run: python3 benchmarks/correlate_speed.py [JOBS]
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from numerics.ranking.study import PROFILES, run_study

TARGETS = {"quick": 180.0, "default": 1800.0}


def main(jobs: int = 2) -> int:
    for name, target in TARGETS.items():
        profile = PROFILES[name]
        points = profile.points()
        one_seed = [p for p in points if p.seed == profile.seeds[0]]
        with tempfile.TemporaryDirectory() as cache:
            start = time.perf_counter()
            records = run_study(one_seed, jobs=jobs, cache=Path(cache))
            wall = time.perf_counter() - start
        per_model = sum(r.seconds for r in records) / len(records)
        estimate = wall * len(points) / len(one_seed)
        print(
            f"{name}: {len(one_seed)} of {len(points)} models in {wall:.1f} s with {jobs} jobs "
            f"(worker time {per_model:.1f} s per model); whole profile ~{estimate:.0f} s, "
            f"ratio to the {target:.0f} s target {estimate / target:.2f} (target <= 1)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(*(int(a) for a in sys.argv[1:])))
