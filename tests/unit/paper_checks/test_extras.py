"""The extras a command's arguments need are checked when they are parsed (paper_checks.extras): README's
extras table says the same thing row by row, each module's extra is the one the import guards name
(theory.errors.OPTIONAL_MODULES), and a missing package stops the command before its run starts."""

from __future__ import annotations

import re
import sys

import pytest

from paper_checks.cli import build_parser, main
from paper_checks.extras import DEGRADES, NEEDS, checkpoint_modules
from tests.helpers.paths import ROOT
from theory.errors import OPTIONAL_MODULES

README = ROOT / "README.md"

SAMPLES: dict[tuple[str, str | None], list[str]] = {
    ("bound", None): ["bound", "w/model.safetensors"],
    ("bound", "--certify"): ["bound", "--certify"],
    ("bound", "--parquet"): ["bound", "--parquet", "t.parquet"],
    ("bound", "--device"): ["bound", "--device", "cpu"],
    ("inspect", None): ["inspect", "w/m.onnx"],
    ("compare", None): ["compare", "w/model.safetensors"],
    ("sweep", None): ["sweep", "w/pytorch_model.bin", "--out", "t.csv"],
    ("sweep", "--out F.parquet"): ["sweep", "minilm-l6", "--out", "t.parquet"],
    ("sweep", "--scheduler"): ["sweep", "minilm-l6", "--out", "t.csv", "--scheduler", "tcp://h:1"],
    ("sweep", "--figures"): ["sweep", "minilm-l6", "--out", "t.csv", "--figures", "f"],
    ("check", "--report"): ["check", "--report", "r"],
    ("check", "--certify"): ["check", "--certify"],
    ("gap", None): ["gap"],
    ("correlate", None): ["correlate"],
    ("correlate", "--report"): ["correlate", "--report", "r"],
    ("correlate", "--scheduler"): ["correlate", "--scheduler", "tcp://h:1"],
    ("scaling", None): ["scaling"],
    ("scaling", "DIR"): ["scaling", "w/model.safetensors"],
    ("scaling", "--figures"): ["scaling", "--grid", "none", "--figures", "f"],
    ("prove", None): ["prove", "x <= 1", "--domain", "x: [0, 1]"],
    ("derive", None): ["derive", "d.toml"],
    ("growth", "--versus"): ["growth", "x", "--in", "x", "--versus", "x**2"],
    ("growth", "--edelman-at"): ["growth", "--edelman-at", "w/model.safetensors", "--no-crossover"],
}
"""An argument list for each row of NEEDS that makes the row apply."""


def _table() -> dict[tuple[str, str | None], str]:
    """README's extras table: (command, option or None) of each code span naming a command -> its extra."""
    commands = set(build_parser()._subparsers._group_actions[0].choices)  # type: ignore[union-attr]
    rows = re.findall(r"^\| (.*) \| `([a-z]+)` \|$", README.read_text(), flags=re.M)
    table: dict[tuple[str, str | None], str] = {}
    for cell, extra in rows:
        for span in re.findall(r"`([^`]+)`", cell):
            words = span.removeprefix("specbound ").split(" ", 1)
            if words[0] in commands:
                key = (words[0], words[1] if len(words) > 1 else None)
                assert key not in table, f"{span} is in two rows"
                table[key] = extra
    return table


def _needed(key: tuple[str, str | None]) -> tuple[str, ...]:
    args = build_parser().parse_args(SAMPLES[key])
    return tuple(m for need in NEEDS if (need.command, need.option) == key for m in need.modules(args))


def test_every_need_has_a_sample_that_makes_it_apply():
    assert {(need.command, need.option) for need in NEEDS} == set(SAMPLES)
    for key in SAMPLES:
        assert _needed(key), key


def test_readme_table_and_the_parse_time_check_agree_row_by_row():
    table = _table()
    expected = {key: {OPTIONAL_MODULES[m][1] for m in _needed(key)} for key in SAMPLES}
    expected |= {(command, None): {extra} for command, extra in DEGRADES.items()}
    assert set(table) == set(expected), set(table) ^ set(expected)
    for key, extras in expected.items():
        assert extras == {table[key]}, (key, extras, table[key])


def test_checkpoint_modules_follow_the_file_kind(tmp_path):
    (tmp_path / "hf").mkdir()
    (tmp_path / "hf" / "config.json").write_text("{}")
    (tmp_path / "hf" / "pytorch_model.bin").write_bytes(b"")
    assert checkpoint_modules(str(tmp_path / "hf")) == ("torch",)
    (tmp_path / "hf" / "model.safetensors").write_bytes(b"")
    assert checkpoint_modules(str(tmp_path / "hf")) == ("safetensors",)  # the loader prefers it
    (tmp_path / "folders" / "a").mkdir(parents=True)
    assert checkpoint_modules(str(tmp_path / "folders")) == ()  # each subfolder is checked when read


@pytest.mark.parametrize("key", sorted(SAMPLES, key=str))
def test_a_missing_package_stops_before_the_run_with_one_line(key, monkeypatch, capsys):
    import importlib

    module = _needed(key)[0]
    command = importlib.import_module(f"paper_checks.commands.{key[0]}")

    def must_not_run(args):
        raise AssertionError("the command ran although a package it needs is missing")

    monkeypatch.setattr(command, "run", must_not_run)
    monkeypatch.setitem(sys.modules, module, None)
    assert main(SAMPLES[key]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    distribution, extra = OPTIONAL_MODULES[module]
    assert len(err) == 1 and f"'{distribution}'" in err[0] and f"specbound[{extra}]" in err[0], err


def test_a_folder_where_no_checkpoint_could_be_read_is_an_error(tmp_path, capsys):
    (tmp_path / "notes" / "a").mkdir(parents=True)
    (tmp_path / "notes" / "b").mkdir()
    assert main(["scaling", "--quiet", "--grid", "none", "--no-real", str(tmp_path / "notes")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and all("skipping" in line for line in err[:2]), err  # why each was skipped
    assert "error: no checkpoint could be read in" in err[2] and "2 paths tried" in err[2], err


def test_a_missing_package_inside_a_folder_of_checkpoints_is_not_a_skipped_checkpoint(
    tmp_path, capsys, monkeypatch
):
    pytest.importorskip("safetensors", reason="writing the checkpoint needs safetensors (models extra)")
    from tests.helpers.bert_checkpoint_files import bert_config, tiny_bert_tensors, write_folder

    write_folder(tmp_path / "models" / "a", tiny_bert_tensors(), bert_config())
    monkeypatch.setitem(sys.modules, "safetensors", None)
    assert main(["scaling", "--quiet", "--grid", "none", "--no-real", str(tmp_path / "models")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "'safetensors'" in err[0] and "specbound[models]" in err[0], err
