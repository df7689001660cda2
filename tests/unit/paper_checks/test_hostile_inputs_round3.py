"""Regression tests of issue 26 (hostile inputs, round 3), one section per numbered finding.

59 of the 77 cases failed on the code before the fix: a file outside the checkpoint's folder read, an
input or a user's file replaced, a hang, a traceback, a temporary file left by SIGTERM, a non-finite number
printed, or more than one line on stderr; the other 18 are their neighbours that already held (a valid
subfolder index, a weight_map value bound already refused) and must keep holding. Runs that could hang
(FIFOs) or must receive a real signal go through a subprocess under a timeout
(:func:`hostile_files.run_cli`); the rest call ``main`` in-process.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import textwrap

import numpy as np
import pytest

from tests.helpers.bert_checkpoint_files import bert_config, tiny_bert_tensors, write_folder
from tests.helpers.hostile_files import (
    ROOT,
    assert_error_line,
    assert_one_line_error,
    call,
    run_cli,
    run_limited,
    strict_json,
)

pytest.importorskip("safetensors", reason="writing the checkpoints needs safetensors (models extra)")

INDEX = "model.safetensors.index.json"
UP = os.pardir + os.sep
"""A parent-folder step (``..`` and a separator), the way out of a folder a hostile index takes."""


def sharded(folder, names=("shard-1.safetensors", "shard-2.safetensors"), seed=0):
    """A tiny BERT folder whose weights are split over two safetensors shards named ``names`` (relative
    paths inside ``folder``, or anything a hostile index may hold) through model.safetensors.index.json."""
    from safetensors.numpy import save_file

    tensors = tiny_bert_tensors(seed=seed, layers=1)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps(bert_config(layers=1)))
    keys = sorted(tensors)
    halves = {names[0]: keys[::2], names[1]: keys[1::2]}
    for name, part in halves.items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        save_file({key: tensors[key] for key in part}, str(target))
    weight_map = {key: name for name, part in halves.items() for key in part}
    (folder / INDEX).write_text(json.dumps({"metadata": {}, "weight_map": weight_map}))
    return folder


def set_weight_map(folder, weight_map):
    (folder / INDEX).write_text(json.dumps({"weight_map": weight_map}))


@pytest.fixture
def tiny_profile(monkeypatch):
    from numerics.ranking.study import PROFILES, Profile, StudyPoint

    point = StudyPoint(depth=1, width=4, heads=1, n_train=16, epochs=5, n_test=200)
    monkeypatch.setitem(PROFILES, "tiny", Profile("tiny", point, {"depth": (2,)}, (0,), "2 tiny models"))


def sweep_args(tmp_path, *sources):
    return ("sweep", *sources, "--out", tmp_path / "rows.csv", "--cache", tmp_path / "cache", "--jobs", 1)


# ---------------------------------------------------------------- 1. files outside the folder


def outside_by_parent_step(tmp_path):
    folder = sharded(tmp_path / "model")
    sharded(tmp_path / "elsewhere", seed=1)
    index = json.loads((folder / INDEX).read_text())["weight_map"]
    set_weight_map(folder, {k: v.replace("shard-2", f"{UP}elsewhere/shard-2") for k, v in index.items()})
    return folder


def outside_by_absolute_path(tmp_path):
    folder = sharded(tmp_path / "model")
    other = sharded(tmp_path / "elsewhere", seed=1)
    index = json.loads((folder / INDEX).read_text())["weight_map"]
    set_weight_map(folder, {k: str(other / v) if "2" in v else v for k, v in index.items()})
    return folder


def outside_by_symlink(tmp_path):
    folder = sharded(tmp_path / "model")
    other = sharded(tmp_path / "elsewhere", seed=1)
    (folder / "shard-2.safetensors").unlink()
    (folder / "shard-2.safetensors").symlink_to(other / "shard-2.safetensors")
    return folder


def outside_config_by_symlink(tmp_path):
    folder = write_folder(tmp_path / "model", tiny_bert_tensors(layers=1), None)
    (tmp_path / "secret.json").write_text(json.dumps(bert_config(layers=1)))
    (folder / "config.json").symlink_to(tmp_path / "secret.json")
    return folder


@pytest.mark.parametrize(
    "make", [outside_by_parent_step, outside_by_absolute_path, outside_by_symlink, outside_config_by_symlink]
)
@pytest.mark.parametrize("command", ["bound", "inspect", "sweep"])
def test_1_a_file_named_by_a_checkpoint_outside_its_folder_is_refused(tmp_path, capsys, make, command):
    folder = make(tmp_path)
    argv = sweep_args(tmp_path, folder) if command == "sweep" else (command, folder)
    status, out, err = call(capsys, *argv)
    assert_error_line(status, err, command, "outside the folder")
    assert out == ""


def hub_snapshot(tmp_path, outside: bool = False):
    """A Hugging Face hub cache layout: models--org--tiny/snapshots/rev/ holds links into the repository's
    blobs folder (or, with ``outside``, one link to a file beside the models--org--tiny folder)."""
    plain = sharded(tmp_path / "plain")
    repository = tmp_path / "hub" / "models--org--tiny"
    snapshot = repository / "snapshots" / "rev"
    (repository / "blobs").mkdir(parents=True)
    snapshot.mkdir(parents=True)
    for number, file in enumerate(sorted(plain.iterdir())):
        blob = (tmp_path / "hub" if outside and number == 0 else repository / "blobs") / f"blob{number}"
        blob.write_bytes(file.read_bytes())
        (snapshot / file.name).symlink_to(os.path.relpath(blob, snapshot))
    return plain, snapshot


def test_1_a_hub_cache_snapshot_reads_its_blobs_and_nothing_beside_its_repository(tmp_path, capsys):
    plain, snapshot = hub_snapshot(tmp_path)
    status, out, err = call(capsys, "bound", snapshot, "--json")
    assert status == 0, err
    assert strict_json(out)["proxies"] == strict_json(call(capsys, "bound", plain, "--json")[1])["proxies"]
    _, snapshot = hub_snapshot(tmp_path / "second", outside=True)
    status, _, err = call(capsys, "bound", snapshot)
    assert_error_line(status, err, "bound", "outside the folder")


def test_1_a_bin_shard_index_outside_the_folder_is_refused(tmp_path, capsys):
    torch = pytest.importorskip("torch", reason="writing a .bin needs torch (models extra)")
    folder, elsewhere = tmp_path / "model", tmp_path / "elsewhere"
    folder.mkdir()
    elsewhere.mkdir()
    state = {k: torch.from_numpy(v.copy()) for k, v in tiny_bert_tensors(layers=1).items()}
    torch.save(state, elsewhere / "pytorch_model-1.bin")
    (folder / "config.json").write_text(json.dumps(bert_config(layers=1)))
    weight_map = dict.fromkeys(state, f"{UP}elsewhere/pytorch_model-1.bin")
    (folder / "pytorch_model.bin.index.json").write_text(json.dumps({"weight_map": weight_map}))
    status, _, err = call(capsys, "inspect", folder)
    assert_error_line(status, err, "inspect", "outside the folder")


def test_1_shards_in_a_subfolder_inside_the_folder_are_read(tmp_path, capsys):
    folder = sharded(tmp_path / "model", names=("part/a.safetensors", "part/b.safetensors"))
    status, out, err = call(capsys, "inspect", folder, "--json")
    assert status == 0, err
    assert len(strict_json(out)["layers"]) == 1


# ---------------------------------------------------------------- 2. outputs never replace an input


def test_2_csv_never_replaces_a_shard_of_an_index_given_as_model(tmp_path, capsys):
    folder = sharded(tmp_path / "model")
    shard = folder / "shard-1.safetensors"
    before = shard.read_bytes()
    for extra in ([], ["--force"]):
        status, _, err = call(capsys, "bound", folder / INDEX, "--csv", shard, *extra)
        assert_error_line(status, err, "bound", "input of this run")
    assert shard.read_bytes() == before


def test_2_csv_never_replaces_a_shard_in_a_subfolder(tmp_path, capsys):
    folder = sharded(tmp_path / "model", names=("part/a.safetensors", "part/b.safetensors"))
    shard = folder / "part" / "b.safetensors"
    before = shard.read_bytes()
    status, _, err = call(capsys, "bound", folder, "--csv", shard, "--force")
    assert_error_line(status, err, "bound", "input of this run")
    assert shard.read_bytes() == before


def test_2_csv_never_replaces_an_alias_weights(tmp_path, capsys, monkeypatch):
    import numerics.loading.checkpoint as checkpoint

    # A stand-in for the package's installed file: on the old code this test replaced it with the CSV.
    installed = write_folder(tmp_path / "site" / "model", tiny_bert_tensors(layers=1), bert_config(layers=1))
    installed = installed / "model.safetensors"
    monkeypatch.setattr(checkpoint, "_alias_path", lambda alias: installed)
    before = installed.read_bytes()
    for extra in ([], ["--force"]):
        status, _, err = call(capsys, "bound", "minilm-l6", "--csv", installed, *extra)
        assert_error_line(status, err, "bound", "input of this run")
    assert installed.read_bytes() == before


def test_2_sweep_out_never_replaces_an_input(tmp_path, capsys):
    folder = sharded(tmp_path / "model", names=("a.csv", "b.safetensors"))
    before = (folder / "a.csv").read_bytes()
    status, _, err = call(capsys, *sweep_args(tmp_path, folder)[:-6], "--out", folder / "a.csv", "--force")
    assert_error_line(status, err, "sweep", "input of this run")
    assert (folder / "a.csv").read_bytes() == before


# ---------------------------------------------------------------- 3. figures in every format


@pytest.mark.parametrize("existing", ["proxies.pdf", "p_opt.svg"])
def test_3_sweep_figures_never_replace_a_pdf_or_svg_without_force(tmp_path, capsys, existing):
    folder = sharded(tmp_path / "model")
    (tmp_path / "figs").mkdir()
    (tmp_path / "figs" / existing).write_text("mine")
    status, _, err = call(capsys, *sweep_args(tmp_path, folder), "--figures", tmp_path / "figs")
    assert_error_line(status, err, "sweep", existing, "--force")
    assert (tmp_path / "figs" / existing).read_text() == "mine"
    assert not (tmp_path / "rows.csv").exists()


def test_3_scaling_figures_never_replace_an_svg_without_force(tmp_path, capsys):
    (tmp_path / "figs").mkdir()
    (tmp_path / "figs" / "proxies_vs_width.svg").write_text("mine")
    status, _, err = call(
        capsys,
        "scaling",
        "--grid",
        "none",
        "--no-real",
        sharded(tmp_path / "m"),
        "--figures",
        tmp_path / "figs",
    )
    assert_error_line(status, err, "scaling", "proxies_vs_width.svg", "--force")
    assert (tmp_path / "figs" / "proxies_vs_width.svg").read_text() == "mine"


def test_3_check_report_never_replaces_a_figure_without_force(tmp_path, capsys):
    (tmp_path / "contributions_minilm-l6.pdf").write_text("mine")
    status, out, err = call(capsys, "check", "--only", "1", "--report", tmp_path)
    assert_error_line(status, err, "check", "contributions_minilm-l6.pdf", "--force")
    assert out == ""


def test_3_correlate_report_never_replaces_a_figure_without_force(tmp_path, capsys, tiny_profile):
    pytest.importorskip("torch", reason="correlate trains with torch (models extra)")
    (tmp_path / "correlate_B_ours.png").write_text("mine")
    status, out, err = call(capsys, "correlate", "--profile", "tiny", "--no-cache", "--report", tmp_path)
    assert_error_line(status, err, "correlate", "correlate_B_ours.png", "--force")
    assert out == "" and (tmp_path / "correlate_B_ours.png").read_text() == "mine"


# ---------------------------------------------------------------- 4. hangs


def test_4_sweep_refuses_a_fifo_named_like_weights(tmp_path):
    fifo = tmp_path / "model.safetensors"
    os.mkfifo(fifo)
    result = run_cli(*sweep_args(tmp_path, fifo), timeout=60)
    assert_one_line_error(result, "sweep", "FIFO")


def test_4_sweep_skips_a_fifo_inside_a_swept_folder(tmp_path):
    runs = tmp_path / "runs"
    sharded(runs / "checkpoint-1")
    os.mkfifo(runs / "checkpoint-2.safetensors")
    result = run_cli(*sweep_args(tmp_path, runs), timeout=120)
    assert result.returncode == 0, result.stderr
    assert "1 checkpoint:" in result.stdout


def test_4_check_compare_refuses_a_fifo(tmp_path):
    fifo = tmp_path / "old.json"
    os.mkfifo(fifo)
    result = run_cli("check", "--only", "1", "--compare", fifo, timeout=60)
    assert_one_line_error(result, "check", "FIFO")


# ---------------------------------------------------------------- 5. tracebacks


@pytest.mark.parametrize("value", [5, True, None, ["a"], {"x": 1}, ""])
@pytest.mark.parametrize("command", ["bound", "sweep", "scaling"])
def test_5_a_weight_map_value_that_is_not_a_file_name_is_one_line(tmp_path, capsys, value, command):
    folder = sharded(tmp_path / "model")
    weight_map = json.loads((folder / INDEX).read_text())["weight_map"]
    set_weight_map(folder, {**weight_map, next(iter(weight_map)): value})
    argv = {
        "bound": ("bound", folder),
        "sweep": sweep_args(tmp_path, folder),
        "scaling": ("scaling", "--grid", "none", "--no-real", "--json", folder),
    }[command]
    status, _, err = call(capsys, *argv)
    if command == "scaling":  # scaling skips a checkpoint it cannot read, with a warning, and finds none left
        assert "Traceback" not in err and INDEX in err and status in (0, 2)
    else:
        assert_error_line(status, err, command, INDEX)


@pytest.mark.parametrize(
    "text", ["[" * 100_000 + "]" * 100_000, '{"weight_map": {"a": 1' + "0" * 5000 + "}}", "\xff\xfe"]
)
def test_5_a_damaged_shard_index_is_one_line(tmp_path, capsys, text):
    folder = sharded(tmp_path / "model")
    (folder / INDEX).write_bytes(
        text.encode("utf-8", "surrogateescape") if text != "\xff\xfe" else b"\xff\xfe"
    )
    status, _, err = call(capsys, "bound", folder)
    assert_error_line(status, err, "bound", INDEX)


COMPARE_FILES = {
    "non-UTF-8": b'{"claims": [{"id": "1\xff"}]}',
    "deep nesting": b"[" * 100_000 + b"]" * 100_000,
    "4301-digit integer": b'{"claims": [], "x": 1' + b"0" * 4300 + b"}",
    "5000-digit claim id": b'{"claims": [{"id": 1' + b"0" * 4999 + b"}]}",
    "5000-digit string claim id": None,
    "integer claim id": b'{"claims": [{"id": 5, "verdict": "verified"}]}',
    "claim id null": b'{"claims": [{"id": null}]}',
    "verdict a list": b'{"claims": [{"id": "1", "verdict": [1]}]}',
}


@pytest.mark.parametrize("name", list(COMPARE_FILES))
def test_5_check_compare_with_a_hostile_file_is_one_line(tmp_path, capsys, name):
    old = tmp_path / "old.json"
    if (
        COMPARE_FILES[name] is None
    ):  # a valid file: the run compares the claims it ran (the long id is not one)
        huge = "1" + "0" * 4999
        old.write_text(json.dumps({"claims": [{"id": huge, "verdict": "verified"}]}))
        status, out, err = call(capsys, "check", "--only", "1", "--compare", old)
        assert status == 0 and "new claim" in out and huge not in out, err
        return
    old.write_bytes(COMPARE_FILES[name])
    status, out, err = call(capsys, "check", "--only", "1", "--compare", old)
    assert_error_line(status, err, "check", "--compare")
    assert out == ""


def cached_rows(tmp_path):
    return sorted((tmp_path / "cache").glob("*.json"))


DAMAGED_ROWS = {
    "a list": "[1, 2]",
    "not UTF-8": b"\xff\xfe{",
    "deep nesting": "[" * 100_000 + "]" * 100_000,
    "a string B_ours": None,
    "a NaN B_ours": None,
    "an infinite log10": None,
    "a missing column": None,
}


def damage_row(row: dict, name: str) -> object:
    if name == "a string B_ours":
        return {**row, "B_ours": "12"}
    if name == "a NaN B_ours":
        return {**row, "B_ours": float("nan")}
    if name == "an infinite log10":
        return {**row, "log10_B_Edelman": float("inf")}
    return {key: value for key, value in row.items() if key != "mean_p_opt"}


@pytest.mark.parametrize("name", list(DAMAGED_ROWS))
def test_5_and_7_a_damaged_or_non_finite_sweep_cache_row_is_recomputed(tmp_path, capsys, name):
    folder = sharded(tmp_path / "model")
    status, _, err = call(capsys, *sweep_args(tmp_path, folder))
    assert status == 0, err
    expected = (tmp_path / "rows.csv").read_text()
    (row_file,) = cached_rows(tmp_path)
    damage = DAMAGED_ROWS[name]
    if damage is None:
        damage = json.dumps(damage_row(json.loads(row_file.read_text()), name))
    row_file.write_bytes(damage if isinstance(damage, bytes) else damage.encode())
    status, out, err = call(capsys, *sweep_args(tmp_path, folder), "--force")
    assert status == 0 and err == "", err
    assert "0 from the cache" in out and "nan" not in out and "inf" not in out
    assert (tmp_path / "rows.csv").read_text() == expected
    strict_json(row_file.read_text())  # the row was written again, finite


DAMAGED_RECORDS = {
    "empty measures": lambda r: {**r, "measures": {}},
    "a string gap": lambda r: {**r, "gap": "0.1"},
    "a NaN measure": lambda r: {**r, "measures": {**r["measures"], "B_ours": float("nan")}},
    "a list": lambda r: [r],
    "a null key": lambda r: {**r, "key": None},
    "a boolean half-width": lambda r: {**r, "half_width": True},
    "an unknown field": lambda r: {**r, "extra": 1},
}


@pytest.mark.parametrize("name", list(DAMAGED_RECORDS))
def test_5_and_8_a_damaged_correlate_cache_record_is_trained_again(tmp_path, capsys, tiny_profile, name):
    pytest.importorskip("torch", reason="correlate trains with torch (models extra)")
    argv = ("correlate", "--profile", "tiny", "--jobs", 1, "--cache", tmp_path / "c", "--resamples", 20)
    status, _, err = call(capsys, *argv, "--json")
    assert status == 0, err
    record_file = sorted((tmp_path / "c").glob("*.json"))[0]
    record = json.loads(record_file.read_text())
    record_file.write_text(json.dumps(DAMAGED_RECORDS[name](record)))
    status, out, err = call(capsys, *argv, "--json")
    assert status == 0, err
    assert "Traceback" not in err and "1 cached, 1 to train" in err
    retrained = {r["key"]: r["measures"] for r in strict_json(out)["records"]}  # cache files sort by hash
    assert retrained[record["key"]] == record["measures"]


def test_5_a_non_utf8_correlate_cache_record_is_trained_again(tmp_path, capsys, tiny_profile):
    pytest.importorskip("torch", reason="correlate trains with torch (models extra)")
    argv = ("correlate", "--profile", "tiny", "--jobs", 1, "--cache", tmp_path / "c", "--resamples", 20)
    assert call(capsys, *argv)[0] == 0
    for record_file in (tmp_path / "c").glob("*.json"):
        record_file.write_bytes(b"\xff" + b"[" * 100_000)
    status, _, err = call(capsys, *argv)
    assert status == 0 and "0 cached, 2 to train" in err, err


# ---------------------------------------------------------------- 6. SIGTERM cleans up like Ctrl-C

TERMINATE_WHILE = """
import os, signal, sys
import {module} as target
original = target.{function}

def terminated(*args, **kwargs):
    {before}
    os.kill(os.getpid(), signal.SIGTERM)
    return original(*args, **kwargs)

target.{function} = terminated
from paper_checks.cli import main
sys.exit(main({argv!r}))
"""


def run_terminated(module, function, argv, before="pass"):
    script = TERMINATE_WHILE.format(
        module=module,
        function=function,
        argv=[str(a) for a in argv],
        before=before,
    )
    return run_limited(
        [sys.executable, "-c", textwrap.dedent(script)],
        120,
        f"specbound {' '.join(map(str, argv))} terminated in {function}",
        cwd=ROOT,
        capture_output=True,
        text=True,
    )


def test_6_sigterm_while_writing_the_csv_leaves_no_temporary_file(tmp_path):
    folder = sharded(tmp_path / "model")
    result = run_terminated(
        "paper_checks.commands.bound", "write_csv", ["bound", folder, "--csv", tmp_path / "r.csv"]
    )
    assert result.returncode == 128 + signal.SIGTERM, result.stderr
    assert result.stderr == "specbound bound: error: terminated\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model"]


# `check --only 1 --report` in a subprocess, about 20 CPU s: slow; the CSV case above is the smoke test
@pytest.mark.slow
def test_6_sigterm_while_writing_the_report_leaves_no_partial_report(tmp_path):
    out = tmp_path / "out"
    result = run_terminated(
        "paper_checks.report",
        "render_markdown",
        ["check", "--only", "1", "--report", out],
        before=f"open(os.path.join({str(out)!r}, 'proxies_vs_depth.png'), 'w').close()",
    )
    assert result.returncode == 128 + signal.SIGTERM, result.stderr
    assert "Traceback" not in result.stderr and result.stderr.endswith("error: terminated\n")
    assert list(out.iterdir()) == []


# ---------------------------------------------------------------- 7. non-finite figures


def llama_folder(folder, scale):
    from safetensors.numpy import save_file

    rng = np.random.default_rng(0)
    hidden, ffn = 8, 12
    shapes = {
        "self_attn.q_proj": (hidden, hidden),
        "self_attn.k_proj": (hidden, hidden),
        "self_attn.v_proj": (hidden, hidden),
        "self_attn.o_proj": (hidden, hidden),
        "mlp.gate_proj": (ffn, hidden),
        "mlp.up_proj": (ffn, hidden),
        "mlp.down_proj": (hidden, ffn),
    }
    tensors = {
        f"model.layers.0.{name}.weight": rng.standard_normal(shape) * scale for name, shape in shapes.items()
    }
    folder.mkdir(parents=True)
    save_file(tensors, str(folder / "model.safetensors"))
    config = {
        "model_type": "llama",
        "hidden_size": hidden,
        "num_hidden_layers": 1,
        "num_attention_heads": 2,
        "num_key_value_heads": 2,
        "intermediate_size": ffn,
    }
    (folder / "config.json").write_text(json.dumps(config))
    return folder


@pytest.mark.parametrize("command", ["inspect", "bound", "sweep"])
def test_7_llama_weights_of_1e110_are_refused_alike_by_name_and_number(tmp_path, capsys, command):
    folder = llama_folder(tmp_path / "big", 1e110)
    argv = sweep_args(tmp_path, folder) if command == "sweep" else (command, folder)
    status, out, err = call(capsys, *argv)
    assert "inf" not in out
    assert_error_line(status, err, command, str(folder), "lipschitz_unit_ball", "e+33", "float64")


# ---------------------------------------------------------------- 8. one line, never stage lines first


def refuse_temporary_files_in(monkeypatch, folder):
    """Make creating a file in ``folder`` fail as in a read-only folder (root ignores permissions)."""
    import errno
    import tempfile

    original = tempfile.TemporaryFile

    def refuse(*args, dir=None, **kwargs):
        if dir is not None and os.fspath(dir) == os.fspath(folder):
            raise PermissionError(errno.EACCES, "Permission denied")
        return original(*args, dir=dir, **kwargs)

    monkeypatch.setattr(tempfile, "TemporaryFile", refuse)


def test_8_an_unwritable_correlate_cache_is_one_line_before_any_training(
    tmp_path, capsys, monkeypatch, tiny_profile
):
    pytest.importorskip("torch", reason="correlate trains with torch (models extra)")
    (tmp_path / "c").mkdir()
    refuse_temporary_files_in(monkeypatch, tmp_path / "c")
    status, out, err = call(capsys, "correlate", "--profile", "tiny", "--jobs", 1, "--cache", tmp_path / "c")
    assert_error_line(status, err, "correlate", "--cache", "permission denied")  # no "0 cached" line
    assert out == ""


def test_8_an_unwritable_sweep_cache_is_one_line_before_any_row(tmp_path, capsys, monkeypatch):
    (tmp_path / "cache").mkdir()
    refuse_temporary_files_in(monkeypatch, tmp_path / "cache")
    status, _, err = call(capsys, *sweep_args(tmp_path, sharded(tmp_path / "model")))
    assert_error_line(status, err, "sweep", "--cache", "permission denied")
    assert not (tmp_path / "rows.csv").exists()
