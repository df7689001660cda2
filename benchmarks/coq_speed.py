"""coqc on a folder of exported files: one process per file against several files per process.

``python3 benchmarks/coq_speed.py DIR [--jobs N]``: DIR holds Coq files written by ``specbound theory
--coq DIR --no-coq-check`` (the registry's 37 files). Each file is compiled once per way, through
:func:`theory.prover.coq.coqc.check_files`: first one coqc process per file (the cost of a final-file
check before the grouping; the former probe doubled it), then the files grouped per process
(:data:`~theory.prover.coq.coqc.GROUP`). Printed: per way the coqc processes, their CPU seconds (the
processes' rusage), the wall-clock seconds and the verdicts, then the ratio grouped / alone.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

from theory.prover.coq import coqc


def measure(files: list[Path], group: int, jobs: int) -> tuple[int, float, float, Counter[str]]:
    """(coqc processes, their CPU seconds, wall seconds, verdict counts) with ``group`` files a process."""
    processes: list[float] = []
    run = coqc._run_limited

    def counted(command: list[str], directory: str):
        completed, seconds = run(command, directory)
        processes.append(seconds)
        return completed, seconds

    coqc._run_limited = counted
    coqc.GROUP = group
    start = time.perf_counter()
    try:
        verdicts = coqc.check_files([(path, ()) for path in files], jobs)
    finally:
        coqc._run_limited = run
    return len(processes), sum(processes), time.perf_counter() - start, Counter(v.status for v in verdicts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    files = sorted(args.folder.glob("*.v"))
    grouped = coqc.GROUP
    results = {}
    for name, group in (("one file per process", 1), (f"up to {grouped} files per process", grouped)):
        processes, cpu, wall, verdicts = measure(files, group, args.jobs)
        results[name] = cpu
        print(f"{name}: {processes} coqc processes, {cpu:.1f} CPU s, {wall:.1f} wall s, {dict(verdicts)}")
    alone, together = results.values()
    print(f"{len(files)} files; grouped / alone CPU: {together / alone:.2f}")


if __name__ == "__main__":
    main()
