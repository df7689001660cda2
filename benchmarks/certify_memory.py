"""Where `bound --certify`'s extra resident memory goes: python-flint's import against everything else.

For each model (default minilm-l6), runs ``bound MODEL --jobs 1 --quiet`` and the same with ``--certify``,
interleaved, each in a fresh child process started by :func:`stream_memory.child_peak`'s launcher (its
ru_maxrss is the peak RSS). Inside each child a thread samples ``/proc/self/status`` every
``--interval`` ms and notes the samples just before python-flint's import started (``flint`` in
``sys.modules``) and just after it ended (its ``__init__``'s last name, ``__all__``, is set). Prints, best of
``--rounds`` (lowest peak): plain's and certify's peak RSS and their ratio (issue 45's target: <= 1), the
certified run's resident just before and after python-flint was imported (flint's share of the gap),
its highest sample before that import, and both runs' resident at the end (after the layers, where
an arb-free layer pass would first need python-flint). Linux only (``/proc``).

Run from the tree to measure: ``python3 benchmarks/certify_memory.py [--model minilm-l6] [--rounds 2]``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "benchmarks")]

from stream_memory import child_peak  # noqa: E402

SAMPLER = """
import json, os, sys, threading, time

def resident():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0

def flint_state():  # 0 not imported, 1 importing, 2 imported (its __init__ ends with __all__)
    module = sys.modules.get("flint")
    return 0 if module is None else 2 if hasattr(module, "__all__") else 1

samples = []  # (resident MB, flint_state())
stop = threading.Event()

def sample():
    while not stop.is_set():
        samples.append((resident(), flint_state()))
        time.sleep(INTERVAL)

thread = threading.Thread(target=sample, daemon=True)
thread.start()
from paper_checks.cli import main
try:
    main(ARGS)
except SystemExit:
    pass
stop.set()
thread.join()
samples.append((resident(), flint_state()))
started = next((i for i, (_, state) in enumerate(samples) if state), None)
done = next((i for i, (_, state) in enumerate(samples) if state == 2), None)
before = [mb for mb, state in samples if not state]
print(json.dumps({
    "end": samples[-1][0],
    "max_before_flint": max(before) if before else None,
    "at_flint": None if not started or done is None else [samples[started - 1][0], samples[done][0]],
}), file=sys.stderr)
"""


def traced_run(arguments: list[str], interval_ms: float) -> tuple[float, float, dict[str, object]]:
    """(peak RSS MB, CPU s, the sampler's record) of ``bound`` with ``arguments`` in a fresh child."""
    code = SAMPLER.replace("INTERVAL", repr(interval_ms / 1000)).replace("ARGS", repr(arguments))
    record_file = Path(os.environ.get("TMPDIR", "/tmp")) / f"certify_memory_{os.getpid()}.json"
    wrapped = f"import sys; sys.stderr = open({str(record_file)!r}, 'w')\n{code}"
    peak, _, cpu = child_peak(["-c", wrapped], cwd=str(ROOT))
    lines = record_file.read_text().strip().splitlines()
    record_file.unlink()
    return peak, cpu, json.loads(lines[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", action="append", help="alias or folder (repeatable; default minilm-l6)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--interval", type=float, default=2.0, help="sampling interval, ms")
    args = parser.parse_args()
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    for model in args.model or ["minilm-l6"]:
        command = ["bound", model, "--jobs", "1", "--quiet"]
        runs = [
            [traced_run(c, args.interval) for c in (command, [*command, "--certify"])]
            for _ in range(args.rounds)
        ]
        plain = min((pair[0] for pair in runs), key=lambda run: run[0])
        certified = min((pair[1] for pair in runs), key=lambda run: run[0])
        record = certified[2]
        at_flint = record["at_flint"]
        print(
            f"{model}: peak RSS certify / plain {certified[0]:.1f} / {plain[0]:.1f} MB = "
            f"{certified[0] / plain[0]:.2f}x; CPU {certified[1]:.2f} / {plain[1]:.2f} s = "
            f"{certified[1] / plain[1]:.2f}x (best of {args.rounds}, load {os.getloadavg()[0]:.1f})"
        )
        if isinstance(at_flint, list):
            print(
                f"  certify: resident {at_flint[0]:.1f} -> {at_flint[1]:.1f} MB across python-flint's "
                f"import; highest before it {record['max_before_flint']:.1f} MB"
            )
        print(f"  resident at the end: certify {record['end']:.1f} MB, plain {plain[2]['end']:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
