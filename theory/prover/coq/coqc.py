"""Run ``coqc`` on exported files and read what each theorem rests on (``Print Assumptions``).

``check_files(files, jobs)`` compiles copies of the files in a temporary directory (no .vo next to the
user's files) and returns one :class:`CoqCheck` per file: ``accepted`` when coqc compiled it, the file
leaves no hypothesis and every axiom ``Print Assumptions`` lists belongs to what Coq's real numbers and
Interval rest on (:data:`TRUSTED_AXIOMS`); ``hypotheses`` when it compiled with named premises left;
``timeout`` when coqc hit its CPU-time or wall-clock limit on it; ``rejected`` otherwise (the first error
line kept, with the file's own line number). ``check_file(path)`` is one file.

Several files share one coqc process (at most :data:`GROUP` a process; loading Coq's reals, Coquelicot and
Interval costs each process about 1.3 CPU s, and the preamble's lemmas a little more): each file's text,
verbatim but for its ``Require`` lines (hoisted to the top of the process's file) and its ``Print
Assumptions`` line (both left blank in place so the line numbers stay the file's own), sits in a
``Module`` of its own, followed by a line that prints an end mark. After the last file, one ``Print
Assumptions`` of the tuple of every file's printed theorem lists what any of them rests on: Coq walks
Interval's and Flocq's proofs once a process instead of once a file (about 6 CPU s a walk for a theorem
proved with ``interval``). A file that printed its assumptions is judged by that list (the union over its
process, its own when it was alone); when the list names an untrusted axiom, each file of the process is
compiled again alone, so the verdict names the file it belongs to. The marks split coqc's output per
file, and an error's line names the file it lies in: that file is rejected and the others are compiled
again (those before it never reached the process's ``Print Assumptions``). A file alone in its process is
compiled exactly as written. ``jobs`` processes run at once.

CPU seconds are coqc's own (each process's rusage from ``wait4``; a process's seconds are shared equally
among the files it compiled). coqc runs with a CPU-time limit (:data:`CPU_LIMIT_SECONDS`, RLIMIT_CPU: the
kernel stops it) besides the wall-clock timeout, in a process group of its own that is killed whenever the
run ends early (Ctrl-C, SIGTERM raised as an interrupt, any error), so no coqc outlives specbound. A limit
hit names a file ``timeout`` only when that file was alone in its process (so the limit was its own);
otherwise the file in progress is compiled again alone and the others of the process shared again.
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
import threading
from concurrent.futures import ThreadPoolExecutor
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
    """coqc's verdict on one file: status accepted | rejected | hypotheses | timeout, its CPU seconds, the
    axioms Print Assumptions listed, the hypotheses left and, when rejected or timed out, why."""

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


GROUP = 10
"""Files at most per coqc process: the load of the libraries and the walk of ``Print Assumptions`` are paid
once per process, and a file that fails costs the other files of its process one more compile."""
END_MARK = "specbound-end-of-file"
"""What the line after each file of a shared process prints (``END_MARK k``)."""
THEOREMS = "sb_process_theorems"
"""The tuple of a shared process's printed theorems, whose ``Print Assumptions`` ends the process."""
_REQUIRE = re.compile(r"^(From \S+ )?Require ")
UNTRUSTED = "untrusted axioms"
_PRINTED = re.compile(r"^Print Assumptions (@?)(\S+)\.\s*$")


def check_file(path: Path, hypotheses: tuple[str, ...] = ()) -> CoqCheck:
    """Compile ``path`` with coqc (see the module docstring)."""
    return check_files([(path, hypotheses)])[0]


def check_files(files: list[tuple[Path, tuple[str, ...]]], jobs: int = 1) -> list[CoqCheck]:
    """coqc's verdict on each (path, its hypotheses), grouped per process, ``jobs`` processes at once."""
    texts = [path.read_text(encoding="utf-8") for path, _ in files]
    workers = max(jobs, 1)
    verdicts: dict[int, CoqCheck] = {}
    pending: list[int] = list(range(len(files)))
    alone: set[int] = set()
    while pending:
        shared = [i for i in pending if i not in alone]
        size = max(1, min(GROUP, -(-len(shared) // workers)))
        groups = [[i] for i in pending if i in alone]
        groups += [shared[k : k + size] for k in range(0, len(shared), size)]
        runs = _compile_all([[texts[i] for i in group] for group in groups], workers)
        pending = []
        for group, run in zip(groups, runs, strict=True):
            again, apart = _judge(group, run, files, verdicts)
            alone |= set(apart)
            pending += again + apart
    return [verdicts[i] for i in range(len(files))]


def _compile_all(groups: list[list[str]], workers: int) -> list[_Run]:
    """Each group compiled by its own coqc, ``workers`` at once (in this thread when one is). An
    interrupt of the waiting thread kills every running coqc's process group before it propagates."""
    if workers == 1 or len(groups) == 1:
        return [_compile_group(group) for group in groups]
    pool = ThreadPoolExecutor(max_workers=workers)
    try:
        return list(pool.map(_compile_group, groups))
    except BaseException:
        with _RUNNING_LOCK:
            for pid in _RUNNING:
                _kill(pid)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


_RUNNING: set[int] = set()
"""The coqc processes running now (their process groups' ids), killed on an interrupt."""
_RUNNING_LOCK = threading.Lock()


@dataclass(frozen=True)
class _Run:
    """One coqc process on a group: its result (None on the wall-clock timeout), its CPU seconds, the
    output split per file (a file's text once its end mark printed), the first line of each file, the
    output after the last end mark (a shared process's ``Print Assumptions``) and which files printed
    their assumptions there."""

    completed: subprocess.CompletedProcess[str] | None
    seconds: float
    outputs: list[str]
    starts: list[int]
    assumptions: str = ""
    printed: tuple[bool, ...] = ()
    closing: int | None = None
    """The line where the shared process's ``Print Assumptions`` of every file's theorem starts."""


def _judge(
    group: list[int], run: _Run, files: list[tuple[Path, tuple[str, ...]]], verdicts: dict[int, CoqCheck]
) -> tuple[list[int], list[int]]:
    """Record the verdicts ``run`` gives on ``group``'s files; the files to compile again, shared and
    each alone. A limit is a file's own only when it was alone in its process: in a shared process the
    file in progress goes alone; a rejected file's process never printed the others' assumptions."""
    completed, ended = run.completed, min(len(run.outputs), len(group))
    share = run.seconds / min(len(group), ended + 1)
    if completed is not None and completed.returncode == 0 and ended == len(group):
        return _finished(group, run, files, verdicts, share)
    if completed is None or completed.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        if len(group) > 1:
            return group[:ended] + group[ended + 1 :], group[ended : ended + 1]
        limit = (
            f"coqc ran over {TIMEOUT_SECONDS:.0f} s of wall-clock time"
            if completed is None
            else f"coqc ran over its CPU limit of {CPU_LIMIT_SECONDS} s"
        )
        verdicts[group[0]] = CoqCheck("timeout", share, reason=limit)
        return [], []
    verdict = _rejected(completed.stderr, share)
    failing = ended
    if verdict.line is not None:  # the file the error's line lies in
        if run.closing is not None and verdict.line >= run.closing:  # a theorem not found by its name
            return [], group
        failing = max(k for k, start in enumerate(run.starts) if start <= verdict.line or k == 0)
        failing = max(failing, ended)
        verdict = _rejected(completed.stderr, share, run.starts[failing] - 1)
    verdicts[group[failing]] = verdict
    return group[:failing] + group[failing + 1 :], []


def _finished(
    group: list[int],
    run: _Run,
    files: list[tuple[Path, tuple[str, ...]]],
    verdicts: dict[int, CoqCheck],
    share: float,
) -> tuple[list[int], list[int]]:
    """The verdicts of a process that compiled every file of ``group``: a file alone by its own output,
    a file of a shared process by the process's ``Print Assumptions`` (when it printed its own); each
    file again alone when that list names an untrusted axiom, so the verdict is the file's own."""
    judged = {}
    for k, index in enumerate(group):
        printed = len(group) > 1 and k < len(run.printed) and run.printed[k]
        output = run.outputs[k] + ("\n" + run.assumptions if printed else "")
        judged[index] = _compiled(output, files[index][1], share)
    if len(group) > 1 and any(v.reason.startswith(UNTRUSTED) for v in judged.values()):
        return [], group
    verdicts.update(judged)
    return [], []


def _compiled(output: str, hypotheses: tuple[str, ...], seconds: float) -> CoqCheck:
    """The verdict on a file coqc compiled: what Print Assumptions printed for it."""
    axioms = axioms_of(output)
    untrusted = [a for a in axioms if not a.startswith(TRUSTED_AXIOMS)]
    if untrusted:
        return CoqCheck("rejected", seconds, axioms, hypotheses, f"{UNTRUSTED}: {', '.join(untrusted)}")
    return CoqCheck("hypotheses" if hypotheses else "accepted", seconds, axioms, hypotheses)


def unproved(probe: str, mark: str) -> tuple[list[str], float] | None:
    """The lemmas a probe file reports (lines ``mark name``) and coqc's CPU seconds; None when the probe
    itself does not compile."""
    run = _compile_group([probe])
    if run.completed is None or run.completed.returncode != 0:
        return None
    lines = run.completed.stdout.splitlines()
    return [line.split()[1] for line in lines if line.startswith(mark + " ")], run.seconds


def _group_text(texts: list[str]) -> tuple[str, list[int]]:
    """One Coq file for the group (see the module docstring) and the line each file starts at."""
    if len(texts) == 1:
        return texts[0] + f'\nGoal True. idtac "{END_MARK} 0". Abort.\n', [1]
    hoisted: list[str] = []
    parts: list[str] = []
    theorems: list[str] = []
    for k, text in enumerate(texts):
        lines = text.splitlines()
        for line in lines:
            if _REQUIRE.match(line) and line not in hoisted:
                hoisted.append(line)
        body = []
        for line in lines:
            printed = _PRINTED.match(line)
            if printed:
                theorems.append(f"{printed.group(1)}sb_file_{k}.{printed.group(2)}")
            body.append("" if _REQUIRE.match(line) or printed else line)
        parts.append(
            "\n".join(
                [
                    f"Module sb_file_{k}.",
                    *body,
                    f"End sb_file_{k}.",
                    f'Goal True. idtac "{END_MARK} {k}". Abort.',
                ]
            )
        )
    if theorems:
        parts.append(f"Definition {THEOREMS} := ({', '.join(theorems)}).\nPrint Assumptions {THEOREMS}.")
    starts, first = [], len(hoisted) + 2
    for part in parts[: len(texts)]:
        starts.append(first)
        first += part.count("\n") + 1
    return "\n".join([*hoisted, *parts]) + "\n", starts


def _compile_group(texts: list[str]) -> _Run:
    """coqc on the group's file (a temporary directory): its result, CPU seconds and output per file."""
    coqc = coqc_path()
    text, starts = _group_text(texts)
    closing = None
    if len(texts) > 1 and f"\nDefinition {THEOREMS} " in text:
        closing = text[: text.index(f"\nDefinition {THEOREMS} ")].count("\n") + 2
    with tempfile.TemporaryDirectory(prefix="specbound-coq-") as scratch:
        copy = Path(scratch) / "Certificate.v"
        copy.write_text(text, encoding="utf-8")
        completed, seconds = _run_limited([coqc, "-q", copy.name], scratch)
    outputs: list[str] = []
    current: list[str] = []
    if completed is not None:
        for line in completed.stdout.splitlines():
            if line.startswith(f"{END_MARK} "):
                outputs.append("\n".join(current))
                current = []
            else:
                current.append(line)
    printed = tuple(any(_PRINTED.match(line) for line in t.splitlines()) for t in texts)
    return _Run(completed, seconds, outputs, starts, "\n".join(current), printed, closing)


def _limit_cpu() -> None:
    """In the child before exec: the CPU-time limit (soft; the hard limit a little later)."""
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_LIMIT_SECONDS, CPU_LIMIT_SECONDS + 5))


def _run_limited(command: list[str], directory: str) -> tuple[subprocess.CompletedProcess[str] | None, float]:
    """Run ``command`` in ``directory`` under the CPU limit, in its own process group: its result (None
    on the wall-clock timeout) and its CPU seconds (its rusage, so parallel runs do not mix). The group
    is killed on every way out but a normal end, so an interrupt of specbound (Ctrl-C, SIGTERM) leaves no
    coqc behind."""
    process = subprocess.Popen(
        command,
        cwd=directory,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_limit_cpu,
        start_new_session=True,
    )
    with _RUNNING_LOCK:
        _RUNNING.add(process.pid)
    read: dict[str, str] = {}
    readers = [
        threading.Thread(target=lambda n=n, s=s: read.__setitem__(n, s.read()), daemon=True)
        for n, s in (("out", process.stdout), ("err", process.stderr))
    ]
    for reader in readers:
        reader.start()
    expired = threading.Event()
    timer = threading.Timer(TIMEOUT_SECONDS, _expire, (process.pid, expired))
    timer.start()
    try:
        _, status, usage = os.wait4(process.pid, 0)
    except BaseException:
        _kill(process.pid)
        os.wait4(process.pid, 0)
        process.returncode = -signal.SIGKILL
        raise
    finally:
        timer.cancel()
        with _RUNNING_LOCK:
            _RUNNING.discard(process.pid)
        for reader in readers:
            reader.join()
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()
    process.returncode = os.waitstatus_to_exitcode(status)
    seconds = usage.ru_utime + usage.ru_stime
    if expired.is_set():
        return None, seconds
    stdout, stderr = read.get("out", ""), read.get("err", "")
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr), seconds


def _expire(pid: int, expired: threading.Event) -> None:
    """The wall-clock timeout: mark it, then kill the process group."""
    expired.set()
    _kill(pid)


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _rejected(stderr: str, seconds: float, offset: int = 0) -> CoqCheck:
    """The verdict of a failed coqc run: its first error message and the line it names (in the file's own
    numbering: the line in the process's file less ``offset``)."""
    lines = stderr.splitlines()
    error = next((i for i, text in enumerate(lines) if text.startswith("Error")), None)
    message = " ".join(lines[error : error + 3]).strip() if error is not None else "coqc failed"
    located = [int(m.group(1)) for text in lines if (m := re.search(r"line (\d+),", text))]
    line = located[-1] - offset if located else None
    where = f" (line {line})" if line is not None else ""
    return CoqCheck("rejected", seconds, reason=message[:300] + where, line=line)
