"""Start-up of the command line: ``specbound --version``, ``--help`` and ``prove`` against bare Python.

Each command runs as a whole process (``python -m paper_checks.cli ...``, bytecode cache on in a temporary
PYTHONPYCACHEPREFIX, as an installed package has it), interleaved with the floor ``python -c pass`` (one
run of each per round, after one unmeasured warm-up round), ``--repeats`` rounds. Printed: the best CPU
time (user + system, from the rusage of the children) of each, the difference to the floor, and the load
average. ``prove --help`` is the prove command's start-up (its parser alone: no sympy); ``prove x <= x + 1``
the whole of a one-box proof (the parser's polynomial back end reads the statement without sympy, the
kernel re-checks the proof; benchmarks/prove_startup.py measures 20 such statements against z3).
Target (issue 23): ``--version`` <= 0.15 s CPU (it imports no numpy, mpmath or sympy and registers
no command: tests/unit/paper_checks/test_startup.py checks what is imported, not the time).

Run: ``python3 benchmarks/startup_speed.py [--repeats 7]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from scale_speed import interleaved

COMMANDS = {
    "python -c pass (floor)": ["-c", "pass"],
    "specbound --version": ["-m", "paper_checks.cli", "--version"],
    "specbound --help": ["-m", "paper_checks.cli", "--help"],
    "specbound bound --help": ["-m", "paper_checks.cli", "bound", "--help"],
    "specbound prove --help": ["-m", "paper_checks.cli", "prove", "--help"],
    "specbound prove x <= x + 1": ["-m", "paper_checks.cli", "prove", "x <= x + 1", "--domain", "x: [0, 1]"],
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7, help="measured rounds (default 7)")
    args = parser.parse_args()
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory(prefix="startup-speed-pycache-") as pycache:
        os.environ["PYTHONPYCACHEPREFIX"] = pycache
        load = os.getloadavg()[0]
        rounds = interleaved(list(COMMANDS.values()), args.repeats)
    cpu = [min(seconds for _, seconds in column) for column in zip(*rounds, strict=True)]
    print(f"machine: {os.cpu_count()} cores, load average {load:.1f} before, {os.getloadavg()[0]:.1f} after")
    for (name, _), seconds in zip(COMMANDS.items(), cpu, strict=True):
        over = seconds - cpu[0]
        print(f"  {name:28s} {seconds:6.3f} s CPU (best of {args.repeats}), {over:+.3f} s over the floor")
    version = cpu[1]
    print(f"--version {version:.3f} s CPU: target <= 0.15 s {'met' if version <= 0.15 else 'MISSED'}")
    return 0 if version <= 0.15 else 1


if __name__ == "__main__":
    sys.exit(main())
