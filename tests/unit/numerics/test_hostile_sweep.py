"""Hostile sweeps (issue 44, item 6): an interrupted sweep keeps every row finished before the interrupt,
and a checkpoint that cannot be read inside a swept folder is reported by name (exit 2) after every other
row has been computed and cached, never dropped from the table silently. The row counts are checked on
the cache folder itself (one JSON file per row)."""

from __future__ import annotations

import json

import pytest

from tests.helpers.bert_checkpoint_files import bert_config, tiny_bert_tensors, write_folder
from tests.helpers.hostile_files import assert_error_line, call

pytest.importorskip("safetensors", reason="writing the tiny checkpoints needs safetensors (models extra)")


@pytest.fixture
def run_folder(tmp_path):
    """checkpoint-1, checkpoint-2, checkpoint-3: tiny BERTs."""
    root = tmp_path / "run"
    for step in (1, 2, 3):
        write_folder(root / f"checkpoint-{step}", tiny_bert_tensors(seed=step), bert_config())
    return root


def sweep_argv(tmp_path, *sources):
    return ["sweep", *sources, "--out", tmp_path / "rows.csv", "--cache", tmp_path / "cache", "--jobs", 1]


def test_6_an_interrupt_mid_sweep_keeps_the_rows_finished_before_it(
    tmp_path, run_folder, capsys, monkeypatch
):
    import numerics.batch.sweep as module

    original, done = module.sweep_row, []

    def interrupted_at_the_third(settings, source):
        if len(done) == 2:
            raise KeyboardInterrupt
        done.append(source)
        return original(settings, source)

    monkeypatch.setattr(module, "sweep_row", interrupted_at_the_third)
    status, _, err = call(capsys, *sweep_argv(tmp_path, run_folder))
    assert status == 130 and err == "specbound sweep: error: interrupted\n"
    assert len(list((tmp_path / "cache").glob("*.json"))) == 2
    assert not (tmp_path / "rows.csv").exists()


@pytest.mark.parametrize("damage", ["weights file", "folder"])
def test_6_an_unreadable_checkpoint_in_a_swept_folder_is_reported_by_name(
    tmp_path, run_folder, capsys, damage
):
    if damage == "weights file":
        bad = run_folder / "checkpoint-9.safetensors"
        bad.write_bytes(b"not a safetensors file")
    else:
        bad = run_folder / "checkpoint-0"
        bad.mkdir()
        (bad / "config.json").write_text(json.dumps(bert_config()))
    status, _, err = call(capsys, *sweep_argv(tmp_path, run_folder))
    assert_error_line(status, err, "sweep", bad.name)
    assert not (tmp_path / "rows.csv").exists()


def test_6_a_checkpoint_refused_while_computing_leaves_the_other_rows_cached(
    tmp_path, run_folder, capsys, monkeypatch
):
    import numerics.batch.sweep as module
    from theory.errors import CheckpointError

    original = module.sweep_row

    def refuse_the_first(settings, source):
        if source.endswith("checkpoint-1"):
            raise CheckpointError(f"{source}: refused")
        return original(settings, source)

    monkeypatch.setattr(module, "sweep_row", refuse_the_first)
    status, _, err = call(capsys, *sweep_argv(tmp_path, run_folder))
    assert_error_line(status, err, "sweep", "checkpoint-1: refused")
    assert len(list((tmp_path / "cache").glob("*.json"))) == 2
