"""Several exported files per coqc process (theory.prover.coq.coqc): the process's file keeps each file's
own line numbers, an error's line names the file it lies in, the other files are compiled again, a limit
hit is a file's ``timeout`` only when the file had its process to itself, and the process's one ``Print
Assumptions`` judges every file that printed its own. Fake runs (no coqc): the verdicts are checked against
the lines and marks written by hand."""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path

from theory.prover.coq.coqc import END_MARK, _group_text, _judge, _Run

FILE = (
    "From Coq Require Import Reals Lra.\nOpen Scope R_scope.\nLemma statement : 0 <= 1.\nProof. lra. Qed.\n"
)
CLOSED = "Closed under the global context"


def _run(returncode: int | None, marks: int, stderr: str, starts: list[int]) -> _Run:
    stdout = "".join(f"{CLOSED}\n{END_MARK} {k}\n" for k in range(marks))
    completed = None if returncode is None else subprocess.CompletedProcess([], returncode, stdout, stderr)
    return _Run(completed, 3.0, [CLOSED] * marks if completed is not None else [], starts)


def test_each_file_keeps_its_own_line_numbers_in_the_process_file():
    text, starts = _group_text([FILE, FILE.replace("0 <= 1", "2 <= 1"), FILE])
    lines = text.splitlines()
    assert lines[0] == "From Coq Require Import Reals Lra." and lines.count(lines[0]) == 1  # hoisted once
    for k, start in enumerate(starts):
        assert lines[start - 2] == f"Module sb_file_{k}."
        own = FILE.splitlines() if k != 1 else FILE.replace("0 <= 1", "2 <= 1").splitlines()
        assert lines[start - 1] == ""  # the Require line, blank in place
        assert lines[start - 1 + 2] == own[2]  # line 3 of the file is line start + 2 of the process's


def test_a_file_alone_is_compiled_as_written():
    text, starts = _group_text([FILE])
    assert text.startswith(FILE) and starts == [1]


def test_an_error_names_its_file_and_line_and_the_files_after_it_are_compiled_again():
    files = [(Path(f"f{k}.v"), ()) for k in range(4)]
    _, starts = _group_text([FILE] * 4)
    error_line = starts[1] + 3  # line 4 of the second file
    stderr = f'File "./Certificate.v", line {error_line}, characters 7-10:\nError: Tactic failure.\n'
    verdicts: dict = {}
    again = _judge([0, 1, 2, 3], _run(1, 1, stderr, starts), files, verdicts)
    assert verdicts[1].status == "rejected" and verdicts[1].line == 4 and "(line 4)" in verdicts[1].reason
    assert again == ([0, 2, 3], []) and list(verdicts) == [1]  # the first never printed its assumptions


def test_a_limit_hit_in_a_shared_process_is_compiled_again_and_alone_it_is_a_timeout():
    files = [(Path(f"f{k}.v"), ()) for k in range(3)]
    verdicts: dict = {}
    again = _judge([0, 1, 2], _run(-signal.SIGXCPU, 1, "", [1, 10, 20]), files, verdicts)
    assert again == ([0, 2], [1]) and not verdicts  # the file in progress alone, the others shared again
    again = _judge([1], _run(-signal.SIGXCPU, 0, "", [1]), files, verdicts)
    assert again == ([], []) and verdicts[1].status == "timeout" and "CPU limit" in verdicts[1].reason
    again = _judge([2], _run(None, 0, "", [1]), files, verdicts)
    assert verdicts[2].status == "timeout" and "wall-clock" in verdicts[2].reason


TRUSTED = "Axioms:\nClassicalDedekindReals.sig_forall_dec : forall P, {n | ~ P n} + {forall n, P n}"
UNTRUSTED = "Axioms:\nsneaky : False"


def _finished(assumptions: str, starts: list[int]) -> _Run:
    stdout = "".join(f"{END_MARK} {k}\n" for k in range(len(starts))) + assumptions
    completed = subprocess.CompletedProcess([], 0, stdout, "")
    return _Run(completed, 3.0, [""] * len(starts), starts, assumptions, (True,) * len(starts), 99)


def test_one_print_assumptions_ends_a_shared_process_and_names_each_files_theorem():
    text, starts = _group_text([FILE, FILE.replace("Qed.", "Qed.\nPrint Assumptions statement."), FILE])
    lines = text.splitlines()
    assert lines.count("Print Assumptions statement.") == 0  # blank in place: the file's lines stay its own
    assert lines[starts[1] - 1 + 4] == ""
    assert lines[-2] == "Definition sb_process_theorems := (sb_file_1.statement)."
    assert lines[-1] == "Print Assumptions sb_process_theorems."


def test_a_shared_processs_assumptions_judge_each_file_and_an_untrusted_one_sends_each_alone():
    files = [(Path(f"f{k}.v"), ()) for k in range(2)]
    verdicts: dict = {}
    assert _judge([0, 1], _finished(TRUSTED, [1, 10]), files, verdicts) == ([], [])
    assert [v.status for v in verdicts.values()] == ["accepted", "accepted"]
    assert verdicts[1].axioms == ("ClassicalDedekindReals.sig_forall_dec",)
    verdicts = {}
    assert _judge([0, 1], _finished(UNTRUSTED, [1, 10]), files, verdicts) == ([], [0, 1]) and not verdicts


def test_an_error_in_the_closing_print_assumptions_sends_each_file_alone():
    files = [(Path(f"f{k}.v"), ()) for k in range(2)]
    stderr = 'File "./Certificate.v", line 120, characters 0-5:\nError: The reference x was not found.\n'
    run = _Run(subprocess.CompletedProcess([], 1, "", stderr), 3.0, ["", ""], [3, 50], "", (True, True), 110)
    verdicts: dict = {}
    assert _judge([0, 1], run, files, verdicts) == ([], [0, 1]) and not verdicts
