"""Progress goes to stderr only: a line per stage off a terminal when the command line asks for it,
nothing from a library call, nothing with --quiet; stdout keeps only the result."""

from __future__ import annotations

import json

import pytest

from numerics import progress as progress_module
from numerics.progress import configure, progress, stage
from paper_checks.cli import main


@pytest.fixture(autouse=True)
def _default_settings():
    yield
    configure()


def test_library_default_is_silent_off_a_terminal(capsys):
    assert list(progress(range(3), label="work")) == [0, 1, 2]
    stage("a stage")
    assert capsys.readouterr() == ("", "")


class _Clock:
    """time.monotonic for progress: each reading ``step`` seconds after the previous one."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_stage_lines_of_a_lasting_loop_go_to_stderr_and_quiet_silences_them(capsys, monkeypatch):
    monkeypatch.setattr(progress_module.time, "monotonic", _Clock(0.6))  # each item takes 0.6 s
    configure(stage_lines=True)
    assert list(progress([1, 2, 3], label="work")) == [1, 2, 3]
    out, err = capsys.readouterr()
    assert out == "" and err.splitlines() == [
        "work: 2 of 3 items done in 1.2 s",
        "work: 3 items done in 2.4 s",
    ]
    configure(quiet=True, stage_lines=True)
    assert list(progress([1, 2], label="work")) == [1, 2]
    assert capsys.readouterr() == ("", "")


def test_a_quick_loop_prints_no_stage_lines(capsys, monkeypatch):
    monkeypatch.setattr(progress_module.time, "monotonic", _Clock(0.001))
    configure(stage_lines=True)
    assert list(progress(range(4), label="spectra")) == [0, 1, 2, 3]
    assert capsys.readouterr() == ("", "")


def test_a_terminal_gets_a_tqdm_bar_on_stderr(capsys, monkeypatch):
    pytest.importorskip("tqdm", reason="the bar needs tqdm (specbound[models])")
    monkeypatch.setattr(progress_module, "_terminal", lambda: True)
    monkeypatch.setattr(progress_module, "STAGE_SECONDS", 0)  # draw at once
    assert list(progress(range(5), label="bar")) == list(range(5))
    out, err = capsys.readouterr()
    assert out == "" and "bar:" in err and "/5 " in err  # tqdm drew its bar, on stderr


@pytest.mark.slow  # the whole registry's checks twice: 89 s wall at load 10
def test_theory_json_on_stdout_stays_clean_with_stage_lines_on_stderr(capsys):
    assert main(["theory", "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["summary"]["checks"] > 0  # stdout is exactly one JSON document
    assert all(line.startswith("theory: ") for line in err.splitlines()), err  # stage lines only
    assert main(["theory", "--json", "--quiet"]) == 0
    assert capsys.readouterr().err == ""


def test_progress_names_its_items_and_the_one_it_is_on(capsys, monkeypatch):
    monkeypatch.setattr(progress_module.time, "monotonic", _Clock(0.6))
    configure(stage_lines=True)
    assert list(progress(["a", "b", "c"], label="theory", unit="lemma")) == ["a", "b", "c"]
    assert capsys.readouterr().err.splitlines() == [
        "theory: 2 of 3 lemmas done in 1.2 s",
        "theory: 3 lemmas done in 2.4 s",
    ]
    assert list(progress(["a"], label="theory", unit="lemma")) == ["a"]  # one: singular
    assert capsys.readouterr().err.splitlines() == ["theory: 1 lemma done in 1.2 s"]
    pytest.importorskip("tqdm", reason="the bar needs tqdm (specbound[models])")
    monkeypatch.setattr(progress_module, "_terminal", lambda: True)
    monkeypatch.setattr(progress_module, "STAGE_SECONDS", 0)
    items = progress(["8a", "11"], label="specbound check", unit="claim", name=lambda c: f"claim {c}")
    assert list(items) == ["8a", "11"]
    err = capsys.readouterr().err
    assert "claim 8a" in err and "claim 11" in err and "claim/s" in err  # the bar names the claim it is on
