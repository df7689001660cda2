"""coqc on a folder of exported files: one process per file against several files per process.

``python3 benchmarks/coq_speed.py DIR [--jobs N] [--group G] [--grouped-only]``: DIR holds Coq files
written by ``specbound theory --coq DIR --no-coq-check`` (the registry's 37 files and theorem_3_1.v).
Each file is compiled once per way, through :func:`theory.prover.coq.coqc.check_files`: first one coqc
process per file (each file exactly as written, its own ``Print Assumptions``), then the files grouped per
process (at most G a process, :data:`~theory.prover.coq.coqc.GROUP` by default; one ``Print Assumptions``
a process). Printed: per way the processes, their CPU total (each process's rusage, children included),
the wall-clock seconds and the verdicts; with one file a process the five costliest files, grouped each
process's files and CPU seconds; then the ratio grouped / alone.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

from theory.prover.coq import coqc


def measure(
    files: list[Path], group: int, jobs: int
) -> tuple[list[tuple[list[str], float]], float, Counter[str]]:
    """(each process's file names and CPU seconds, wall seconds, verdict counts) with ``group`` files a
    process."""
    processes: list[tuple[list[str], float]] = []
    names = {path.read_text(encoding="utf-8"): path.stem for path in files}
    compile_group = coqc._compile_group

    def counted(texts: list[str]) -> coqc._Run:
        run = compile_group(texts)
        processes.append(([names[text] for text in texts], run.seconds))
        return run

    coqc._compile_group = counted
    coqc.GROUP = group
    start = time.perf_counter()
    try:
        verdicts = coqc.check_files([(path, ()) for path in files], jobs)
    finally:
        coqc._compile_group = compile_group
    return processes, time.perf_counter() - start, Counter(v.status for v in verdicts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--grouped-only", action="store_true", help="skip the one-file-a-process way")
    parser.add_argument("--group", type=int, default=coqc.GROUP, help="files at most per process")
    args = parser.parse_args()
    files = sorted(args.folder.glob("*.v"))
    grouped = args.group
    ways = [(f"up to {grouped} files per process", grouped)]
    if not args.grouped_only:
        ways.insert(0, ("one file per process", 1))
    results = {}
    for name, group in ways:
        processes, wall, verdicts = measure(files, group, args.jobs)
        cpu = sum(seconds for _, seconds in processes)
        results[name] = cpu
        counts = dict(verdicts)
        print(f"{name}: {len(processes)} coqc processes, {cpu:.1f} CPU s, {wall:.1f} wall s, {counts}")
        if group == 1:
            costliest = sorted(processes, key=lambda process: -process[1])[:5]
            print("  costliest files: " + ", ".join(f"{n[0]} {s:.1f} s" for n, s in costliest))
        else:
            for names, seconds in processes:
                print(f"  {seconds:6.1f} CPU s: {', '.join(names)}")
    if len(results) == 2:
        alone, together = results.values()
        print(f"{len(files)} files; grouped / alone CPU: {together / alone:.2f}")


if __name__ == "__main__":
    main()
