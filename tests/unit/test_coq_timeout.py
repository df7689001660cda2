"""coqc out of CPU time is ``timeout``, never ``rejected``: running out is no verdict on the file, and the
limit counts CPU seconds (RLIMIT_CPU), so a loaded machine cannot cause it. No coqc is run here: the
compile step is replaced by the process coqc's limit would leave."""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path

import pytest

from theory.prover.coq import coqc
from theory.prover.coq.report import NOT_ACCEPTED, coq_verdict, exit_status


@pytest.mark.parametrize("sig", [signal.SIGXCPU, signal.SIGKILL], ids=["soft limit", "hard limit"])
def test_coqc_stopped_by_its_cpu_limit_is_a_timeout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sig: signal.Signals
) -> None:
    stopped = subprocess.CompletedProcess(["coqc"], -sig, "", "")
    monkeypatch.setattr(coqc, "_compile", lambda text: (stopped, 900.5))
    file = tmp_path / "Certificate.v"
    file.write_text("Theorem t : True. Proof. exact I. Qed.\n", encoding="utf-8")
    check = coqc.check_file(file)
    assert (check.status, check.seconds) == ("timeout", 900.5)
    assert "CPU limit of 900 s" in check.reason
    records = [{"coq": "accepted"}, {"coq": check.status}]
    assert coq_verdict(records) == "timeout"
    assert exit_status(0, records) == NOT_ACCEPTED


def test_the_limit_is_cpu_time_and_there_is_no_wall_clock_limit() -> None:
    assert coqc.CPU_LIMIT_SECONDS == 900
    assert not hasattr(coqc, "TIMEOUT_SECONDS")
