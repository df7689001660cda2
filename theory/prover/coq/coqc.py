"""Run ``coqc`` on an exported file and read what the theorem rests on (``Print Assumptions``).

``check_file(path, hypotheses)`` compiles a copy of the file in a temporary directory (no .vo next to the
user's file) and returns a :class:`CoqCheck`: ``accepted`` when coqc compiled it, the file leaves no
hypothesis and every axiom ``Print Assumptions`` lists belongs to what Coq's real numbers and Interval
rest on (:data:`TRUSTED_AXIOMS`); ``hypotheses`` when it compiled with named premises left; ``rejected``
otherwise (the first error line kept). CPU seconds are coqc's own (its child-process rusage). coqc runs
with a CPU-time limit (:data:`CPU_LIMIT_SECONDS`, RLIMIT_CPU: the kernel stops it) besides the wall-clock
timeout, in a process group of its own that is killed whenever the run ends early (Ctrl-C, SIGTERM raised
as an interrupt, any error), so no coqc outlives specbound.
``unproved(probe, mark)`` compiles a probe file and lists the lemmas it reports unproved.
"""

from __future__ import annotations

import contextlib
import os
import re
import resource
import shutil
import signal
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from theory.errors import MissingDependency

TRUSTED_AXIOMS = (
    "ClassicalDedekindReals.",
    "FunctionalExtensionality.",
    "Classical_Prop.",
    "PrimInt63.",
    "Uint63.",
    "PrimFloat.",
    "FloatAxioms.",
)
"""Prefixes of the axioms an accepted theorem may rest on: the classical reals of Coq's standard library
(ClassicalDedekindReals, classical logic, functional extensionality) and the specifications of the
primitive integers and floats Interval computes with."""
TIMEOUT_SECONDS = 900.0
CPU_LIMIT_SECONDS = 900
"""coqc's CPU-time limit (RLIMIT_CPU of the child; SIGXCPU, then SIGKILL a few seconds later)."""


@dataclass(frozen=True)
class CoqCheck:
    """coqc's verdict on one file: status accepted | rejected | hypotheses, its CPU seconds, the axioms
    Print Assumptions listed, the hypotheses left and, when rejected, why."""

    status: str
    seconds: float
    axioms: tuple[str, ...] = ()
    hypotheses: tuple[str, ...] = ()
    reason: str = ""
    line: int | None = None
    """The line of the file where coqc stopped (rejected)."""

    def to_json(self) -> dict[str, Any]:
        """{"status", "coqc_cpu_seconds", "axioms", "hypotheses", "reason"?}."""
        record: dict[str, Any] = {
            "status": self.status,
            "coqc_cpu_seconds": round(self.seconds, 2),
            "axioms": list(self.axioms),
            "hypotheses": list(self.hypotheses),
        }
        if self.reason:
            record["reason"] = self.reason
        return record


def coqc_path() -> str:
    """The coqc executable, or :class:`MissingDependency` saying how to install it."""
    found = shutil.which("coqc")
    if found is None:
        raise MissingDependency(
            "coqc is not installed: --coq needs Coq and Interval (apt-get install coq libcoq-interval), "
            "or pass --no-coq-check to write the files without checking them"
        )
    return found


def axioms_of(output: str) -> tuple[str, ...]:
    """The names ``Print Assumptions`` listed (none when the theorem is closed)."""
    if "Axioms:" not in output:
        return ()
    listed = output.split("Axioms:", 1)[1]
    names = []
    for line in listed.splitlines():
        if line and not line[0].isspace():
            names.append(line.split(" ", 1)[0].rstrip(":"))
    return tuple(names)


def check_file(path: Path, hypotheses: tuple[str, ...] = ()) -> CoqCheck:
    """Compile ``path`` with coqc (see the module docstring)."""
    completed, seconds = _compile(path.read_text(encoding="utf-8"))
    if completed is None:
        return CoqCheck("rejected", seconds, reason=f"coqc ran over {TIMEOUT_SECONDS:.0f} s")
    if completed.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        return CoqCheck("rejected", seconds, reason=f"coqc ran over its CPU limit of {CPU_LIMIT_SECONDS} s")
    if completed.returncode != 0:
        return _rejected(completed.stderr, seconds)
    axioms = axioms_of(completed.stdout)
    untrusted = [a for a in axioms if not a.startswith(TRUSTED_AXIOMS)]
    if untrusted:
        return CoqCheck("rejected", seconds, axioms, hypotheses, f"untrusted axioms: {', '.join(untrusted)}")
    return CoqCheck("hypotheses" if hypotheses else "accepted", seconds, axioms, hypotheses)


def unproved(probe: str, mark: str) -> tuple[list[str], float] | None:
    """The lemmas a probe file reports (lines ``mark name``) and coqc's CPU seconds; None when the probe
    itself does not compile."""
    completed, seconds = _compile(probe)
    if completed is None or completed.returncode != 0:
        return None
    return [line.split()[1] for line in completed.stdout.splitlines() if line.startswith(mark + " ")], seconds


def _compile(text: str) -> tuple[subprocess.CompletedProcess[str] | None, float]:
    """coqc on ``text`` (a copy in a temporary directory), with its CPU seconds; None on a timeout."""
    coqc = coqc_path()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryDirectory(prefix="specbound-coq-") as scratch:
        copy = Path(scratch) / "Certificate.v"
        copy.write_text(text, encoding="utf-8")
        completed = _run_limited([coqc, "-q", copy.name], scratch)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return completed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _limit_cpu() -> None:
    """In the child before exec: the CPU-time limit (soft; the hard limit a little later)."""
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_LIMIT_SECONDS, CPU_LIMIT_SECONDS + 5))


def _run_limited(command: list[str], directory: str) -> subprocess.CompletedProcess[str] | None:
    """Run ``command`` in ``directory`` under the CPU limit, in its own process group; None on the
    wall-clock timeout. The group is killed on every way out but a normal end, so an interrupt of
    specbound (Ctrl-C, SIGTERM) leaves no coqc behind."""
    process = subprocess.Popen(
        command,
        cwd=directory,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_limit_cpu,
        start_new_session=True,
    )
    try:
        stdout, stderr = process.communicate(timeout=TIMEOUT_SECONDS)
    except BaseException as error:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        if isinstance(error, subprocess.TimeoutExpired):
            return None
        raise
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


def _rejected(stderr: str, seconds: float) -> CoqCheck:
    """The verdict of a failed coqc run: its first error message and the line it names."""
    lines = stderr.splitlines()
    error = next((i for i, text in enumerate(lines) if text.startswith("Error")), None)
    message = " ".join(lines[error : error + 3]).strip() if error is not None else "coqc failed"
    located = [int(m.group(1)) for text in lines if (m := re.search(r"line (\d+),", text))]
    line = located[-1] if located else None
    where = f" (line {line})" if line is not None else ""
    return CoqCheck("rejected", seconds, reason=message[:300] + where, line=line)
