"""Mutation run: does the default test tier notice realistic mistakes? (on demand; not in `make test`)

Copies the repository to a temporary folder, then for each mutant of the table (benchmarks/mutants.py), one
at a time: applies its textual replacement (which must match exactly once), runs ``python -m pytest -x -q
-m "not slow"`` on the mutant's fast test files in the copy (its own, else those covering its module), and,
when those pass and the mutant names claims, ``python -m paper_checks.cli check --json --only IDS`` in the
copy, compared with the pinned verdicts and figures of tests/slow/test_check_cli.py (what its slow pin test
would say). Restores the file and goes on. Prints one row per mutant: killed (by which test, or by the
pins), SURVIVED, or LINE NOT FOUND (its text is no longer in the file, or stands there more than once: the
table needs updating; such a mutant is counted apart, not as killed), then the kill rate per area.

    python benchmarks/mutation.py --area kernel             # one area (kernel, derive, certify, coq, ...)
    python benchmarks/mutation.py --area kernel --part 2/4  # the second quarter of it (runs in parts)
    python benchmarks/mutation.py --only gelu-constant-1.2,alpha-layer-off-by-one
    python benchmarks/mutation.py --list

A whole run is about 190 mutants at 10-60 CPU s each; run it in parts under ``nice -n 10``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from mutants import MUTANTS, Mutant

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 900
NOT_FOUND = "LINE NOT FOUND"

GENERATED_FROM = ("theory/proxy.py",)
"""The sources of numerics/formulas/generated.py: after a mutant of one (and after restoring it) the copy
runs ``python -m numerics.formulas.codegen``, so the tests see the mutated formulas, as they would after a
developer regenerated them."""


def copy_repository(destination: Path) -> Path:
    """A copy of the working tree without VCS data and caches."""
    target = destination / "repo"
    shutil.copytree(
        ROOT,
        target,
        ignore=shutil.ignore_patterns(
            ".git",
            ".venv",
            "__pycache__",
            ".mypy_cache",
            ".ruff_cache",
            ".pytest_cache",
            "*.egg-info",
            ".hypothesis",
        ),
    )
    return target


def environment(copy: Path) -> dict[str, str]:
    """The copy first on the import path (an editable install elsewhere must not be imported)."""
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "PYTHONPATH")}
    env.update(PYTHONPATH=str(copy), HYPOTHESIS_PROFILE="dev", OMP_NUM_THREADS="1")
    return env


def run_tests(copy: Path, tests: tuple[str, ...]) -> tuple[bool, str]:
    """(killed, by which test) for ``pytest -x -q -m "not slow"`` (the default tier) on ``tests`` in
    ``copy``."""
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-x",
        "-q",
        "-m",
        "not slow",
        "-p",
        "no:randomly",
        "-p",
        "no:cacheprovider",
        *tests,
    ]
    done = subprocess.run(
        command, cwd=copy, env=environment(copy), capture_output=True, text=True, timeout=TIMEOUT, check=False
    )
    if done.returncode == 0:
        return False, ""
    failed = re.search(r"^(?:FAILED|ERROR) (\S+)", done.stdout, flags=re.M)
    return True, failed.group(1) if failed else f"pytest exit {done.returncode}"


def pinned_differences(copy: Path) -> object:
    """tests/slow/test_check_cli.py's pin_differences, loaded from the copy."""
    spec = importlib.util.spec_from_file_location("pins", copy / "tests/slow/test_check_cli.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(copy))  # its tests.helpers imports, as pytest's pythonpath (the root) gives them
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(copy))
    return module.pin_differences


def run_check(copy: Path, claims: tuple[str, ...]) -> tuple[bool, str]:
    """(killed, why) for ``check --json --only claims`` in ``copy`` against the pins."""
    command = [sys.executable, "-m", "paper_checks.cli", "check", "--json", "--only", ",".join(claims)]
    done = subprocess.run(
        command, cwd=copy, env=environment(copy), capture_output=True, text=True, timeout=TIMEOUT, check=False
    )
    if done.returncode not in (0, 1):
        return True, f"check exit {done.returncode}: {done.stderr.strip().splitlines()[-1:]}"
    differences = pinned_differences(copy)(json.loads(done.stdout)["claims"], set(claims))  # type: ignore[operator]
    return (True, "pins: " + "; ".join(differences)[:160]) if differences else (False, "")


def regenerate(copy: Path) -> tuple[bool, str]:
    """(failed, why) for ``python -m numerics.formulas.codegen`` in ``copy``."""
    command = [sys.executable, "-m", "numerics.formulas.codegen"]
    done = subprocess.run(
        command, cwd=copy, env=environment(copy), capture_output=True, text=True, timeout=TIMEOUT, check=False
    )
    return done.returncode != 0, f"codegen exit {done.returncode}: {done.stderr.strip().splitlines()[-1:]}"


def run_mutant(copy: Path, mutant: Mutant) -> tuple[str, str, float]:
    """Apply (regenerating the generated formulas after a mutant of their source), test, restore."""
    path = copy / mutant.path
    original = path.read_text()
    count = original.count(mutant.old)
    if count != 1:
        return NOT_FOUND, f"its line stands {count} times in {mutant.path}: update the table", 0.0
    start = time.perf_counter()
    path.write_text(original.replace(mutant.old, mutant.new))
    generated = mutant.path in GENERATED_FROM
    try:
        killed, by = regenerate(copy) if generated else (False, "")
        if not killed:
            killed, by = run_tests(copy, mutant.test_files)
        if not killed and mutant.claims:
            killed, by = run_check(copy, mutant.claims)
    finally:
        path.write_text(original)
        if generated and regenerate(copy)[0]:
            raise RuntimeError(f"codegen fails on the restored {mutant.path}: the copy is broken")
    return ("killed" if killed else "SURVIVED"), by, time.perf_counter() - start


def selected(mutants: tuple[Mutant, ...], area: str | None, part: str | None) -> tuple[Mutant, ...]:
    """The mutants of ``area`` (all when None), then the K-th of N consecutive slices for ``part`` "K/N"."""
    chosen = tuple(m for m in mutants if area is None or m.where == area)
    if part is None:
        return chosen
    k, n = (int(x) for x in part.split("/"))
    size = -(-len(chosen) // n)
    return chosen[(k - 1) * size : k * size]


def summary(rows: list[tuple[Mutant, str, str]]) -> list[str]:
    """Per area: killed / mutants found (the kill rate), and the survivors and lines not found by name."""
    lines = []
    for area in sorted({m.where for m, _, _ in rows}):
        mine = [(m, status) for m, status, _ in rows if m.where == area]
        counts = Counter(status for _, status in mine)
        found = len(mine) - counts[NOT_FOUND]
        rate = f"{100 * counts['killed'] / found:.0f}%" if found else "n/a"
        lines.append(f"{area:9} {counts['killed']}/{found} killed ({rate})")
        for label in ("SURVIVED", NOT_FOUND):
            names = [m.name for m, status in mine if status == label]
            if names:
                lines.append(f"          {label.lower()}: {', '.join(names)}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated mutant names")
    parser.add_argument(
        "--area", help="only the mutants of this area (kernel, derive, certify, coq, verdicts, ...)"
    )
    parser.add_argument("--part", help="K/N: the K-th of N consecutive slices of the selection")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument(
        "--no-baseline", action="store_true", help="skip the unmutated run of the test files (known green)"
    )
    args = parser.parse_args(argv)
    if args.part is not None and not re.fullmatch(r"[1-9]\d*/[1-9]\d*", args.part):
        parser.error(f"--part must be K/N with 1 <= K <= N, not {args.part!r}")
    mutants = selected(MUTANTS, args.area, args.part)
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - {m.name for m in MUTANTS}
        if unknown:
            parser.error(f"unknown mutants {sorted(unknown)}")
        mutants = tuple(m for m in mutants if m.name in wanted)
    if args.list:
        for m in mutants:
            print(f"{m.name:56} {m.where:9} {m.path}")
        return 0
    if not mutants:
        parser.error("no mutant selected")
    with tempfile.TemporaryDirectory(prefix="specbound-mutation-") as tmp:
        copy = copy_repository(Path(tmp))
        baseline_tests = tuple(sorted({t for m in mutants for t in m.test_files}))
        broken, by = (False, "") if args.no_baseline else run_tests(copy, baseline_tests)
        if broken:
            print(f"baseline fails before any mutation ({by}): fix the suite first", file=sys.stderr)
            return 2
        checked = "not run" if args.no_baseline else "green"
        print(f"{len(mutants)} mutants; baseline {checked} on {len(baseline_tests)} test files", flush=True)
        print(f"{'mutant':56} {'status':14} {'seconds':>7}  by")
        rows = []
        for mutant in mutants:
            status, by, seconds = run_mutant(copy, mutant)
            rows.append((mutant, status, by))
            print(f"{mutant.name:56} {status:14} {seconds:7.0f}  {by}", flush=True)
        print()
        print("\n".join(summary(rows)))
    return 0 if all(status == "killed" for _, status, _ in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
