"""What z3's proposals (theory.prover.proposals) decide on statements of the kinds they are for.

Each statement below has its truth fixed by hand (the comment): touching minima at points no midpoint
split reaches (1/3, 15/7, (1/3, 2/7), ...), strict claims false only where the gap is exactly 0, and
violations in a region too small for the probes. Each is proved twice in this process with the same CPU
budget, by the prover alone (``solver=False``) and with z3 proposing; printed: both verdicts, both CPU
times, and a verdict that contradicts the truth as WRONG (the exit status is then 1). Run:
``python benchmarks/solver_proposals.py [--budget 2]`` (z3 is the ``solver`` extra).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

STATEMENTS: list[tuple[str, str, bool]] = [
    # the distances from (x, 0) to (0, 1) and (1, -2) add to >= sqrt(10), equality at x = 1/3
    ("sqrt(x^2 + 1) + sqrt((x - 1)^2 + 4) >= sqrt(10)", "x: [-3, 3]", True),
    ("sqrt(x^2 + 1) + sqrt((x - 1)^2 + 4) > sqrt(10)", "x: [-3, 3]", False),
    # (0, 3) to (5, -4): sqrt(25 + 49) = sqrt(74), equality at x = 15/7
    ("sqrt(x^2 + 9) + sqrt((x - 5)^2 + 16) >= sqrt(74)", "x: [-10, 10]", True),
    ("sqrt(x^2 + 9) + sqrt((x - 5)^2 + 16) > sqrt(74)", "x: [-10, 10]", False),
    # AM-GM on x, y, 1 - x - y (the product is <= 0 where 1 - x - y < 0), equality at (1/3, 1/3)
    ("x*y*(1 - x - y) <= 1/27", "x: [0, 1], y: [0, 1]", True),
    ("x*y*(1 - x - y) < 1/27", "x: [0, 1], y: [0, 1]", False),
    # u^2 + u v + v^2 = (u + v/2)^2 + 3 v^2/4 with u = 3x - 1, v = 7y - 2: 0 only at (1/3, 2/7)
    ("(3*x - 1)^2 + (3*x - 1)*(7*y - 2) + (7*y - 2)^2 >= 0", "x: [-1, 1], y: [-1, 1]", True),
    ("(3*x - 1)^2 + (3*x - 1)*(7*y - 2) + (7*y - 2)^2 > 0", "x: [-1, 1], y: [-1, 1]", False),
    # Motzkin's polynomial, >= 0 by AM-GM on x^4 y^2, x^2 y^4, 1; 0 at (1, 1)
    ("x^4*y^2 + x^2*y^4 - 3*x^2*y^2 + 1 >= 0", "x: [0, 2], y: [0, 2]", True),
    # a sum of squares, 0 only at (1/3, 1/5, 1/7)
    ("(x - 1/3)^2 + (y - 1/5)^2 + (z - 1/7)^2 > 0", "x: [0, 1], y: [0, 1], z: [0, 1]", False),
    # below 10^-20 only within about 10^-11 of (sqrt 2, sqrt 3, sqrt 5)
    ("(x^2 - 2)^2 + (y^2 - 3)^2 + (z^2 - 5)^2 >= 10^-20", "x: [0, 3], y: [0, 3], z: [0, 3]", False),
    # (x - 1/3)^2 (x - 2/7)^2 is 0 at 1/3 and 2/7
    ("(x - 1/3)^2*(x - 2/7)^2 >= 10^-30", "x: [0, 1]", False),
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=2.0, help="CPU seconds per statement and run (2)")
    args = parser.parse_args(argv)
    if importlib.util.find_spec("z3") is None:
        print("z3 not installed (pip install -e .[solver]), skipped")
        return 0
    from theory.prover import prove

    load, wrong, totals = os.getloadavg()[0], 0, [0.0, 0.0]
    print("| statement | domain | truth | alone | CPU s | with z3 | CPU s |")
    print("|---|---|---|---|---:|---|---:|")
    for statement, domain, truth in STATEMENTS:
        row = [f"`{statement}`", domain, "true" if truth else "false"]
        for index, solver in enumerate((False, True)):
            start = time.process_time()
            verdict = str(prove(statement, domain, args.budget, 10**9, solver).status)
            seconds = time.process_time() - start
            totals[index] += seconds
            bad = verdict == ("refuted" if truth else "proved")
            wrong += bad
            row += [verdict + (" WRONG" if bad else ""), f"{seconds:.2f}"]
        print("| " + " | ".join(row) + " |")
    print(
        f"\n{len(STATEMENTS)} statements, {args.budget} CPU s each: CPU {totals[0]:.1f} s alone, "
        f"{totals[1]:.1f} s with z3 proposing; {wrong} wrong; load average {load:.1f} before, "
        f"{os.getloadavg()[0]:.1f} after"
    )
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
