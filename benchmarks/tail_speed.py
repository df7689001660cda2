"""The half-line tail's CPU: ``derive`` of docs/examples/l2_below_edelman_minilm_l6.toml and
``growth --edelman-at minilm-l6`` (its ceiling-tail certificate) in this tree against a baseline tree, in
one run.

Each command runs as a whole process (``python -m paper_checks.cli ...`` with PYTHONPATH set to the tree,
the same example file for both), interleaved round by round; printed are the process CPU (user + system)
of each run, the best of each over the rounds and their ratio this tree / baseline. The baseline is any
checkout of the project, e.g. ``git worktree add /tmp/old <commit>``. On a shared machine absolute CPU
seconds move with the load (cache contention), the ratio much less.

Run: ``python benchmarks/tail_speed.py --baseline /tmp/old [--rounds 2] [--no-growth]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "l2_below_edelman_minilm_l6.toml"
COMMANDS = {
    "derive l2 example": ["derive", str(EXAMPLE), "--budget", "100", "--quiet"],
    "growth --edelman-at minilm-l6": ["growth", "--edelman-at", "minilm-l6", "--budget", "100", "--quiet"],
}


def cpu_seconds(tree: Path, arguments: list[str]) -> float:
    """User + system CPU of ``python -m paper_checks.cli arguments`` run from ``tree``."""
    environment = {**os.environ, "PYTHONPATH": str(tree), "OPENBLAS_NUM_THREADS": "1"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    command = [sys.executable, "-m", "paper_checks.cli", *arguments]
    subprocess.run(command, cwd=tree, env=environment, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="a checkout to compare with")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--no-growth", action="store_true")
    options = parser.parse_args()
    names = [n for n in COMMANDS if not (options.no_growth and n.startswith("growth"))]
    trees = {"this tree": ROOT, "baseline": options.baseline.resolve()}
    runs: dict[tuple[str, str], list[float]] = {(n, t): [] for n in names for t in trees}
    for round_ in range(1, options.rounds + 1):
        for name in names:
            for label, tree in trees.items():
                seconds = cpu_seconds(tree, COMMANDS[name])
                runs[name, label].append(seconds)
                print(f"round {round_}: {name}, {label}: {seconds:.2f} CPU s", flush=True)
    for name in names:
        mine, base = min(runs[name, "this tree"]), min(runs[name, "baseline"])
        print(f"{name}: this tree {mine:.2f} CPU s, baseline {base:.2f} CPU s, ratio {mine / base:.2f}")


if __name__ == "__main__":
    main()
