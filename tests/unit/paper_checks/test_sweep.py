"""``specbound sweep``: one row per checkpoint, the bound's numbers, cached by content, local or on Dask."""

from __future__ import annotations

import csv
import json
import sys

import pytest

from numerics.batch.sweep import SweepSettings, sweep
from numerics.bounds.proxies import proxies
from numerics.loading import open_checkpoint
from paper_checks.cli import main
from paper_checks.commands.sweep import expand
from tests.helpers.bert_checkpoint_files import bert_config, tiny_bert_tensors, write_folder
from theory.errors import MissingDependency

pytest.importorskip("safetensors", reason="writing the tiny checkpoints needs safetensors (models extra)")


@pytest.fixture
def run_folder(tmp_path):
    """A training run: checkpoint-100, checkpoint-20 and a folder that is no checkpoint."""
    root = tmp_path / "run"
    for step in (100, 20):
        write_folder(root / f"checkpoint-{step}", tiny_bert_tensors(seed=step), bert_config())
    (root / "logs").mkdir()
    return root


def test_a_folder_of_checkpoints_expands_in_step_order_skipping_other_folders(run_folder):
    expected = [str(run_folder / "checkpoint-20"), str(run_folder / "checkpoint-100")]
    assert expand([str(run_folder)]) == expected


def test_rows_carry_the_bound_numbers_and_a_rerun_reads_them_from_the_cache(run_folder, tmp_path, capsys):
    out, cache = tmp_path / "rows.csv", tmp_path / "cache"
    arguments = ["sweep", str(run_folder), "--out", str(out), "--cache", str(cache), "--jobs", "1"]
    assert main(arguments) == 0
    assert "0 from the cache" in capsys.readouterr().out
    with open(out, encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert [row["step"] for row in rows] == ["20", "100"]
    report = proxies(open_checkpoint(str(run_folder / "checkpoint-20")))
    assert float(rows[0]["B_ours"]) == float(report.ours)
    assert float(rows[0]["B_Edelman"]) == float(report.edelman)
    assert float(rows[0]["mean_p_opt"]) == sum(float(r.p_opt) for r in report.matrices) / len(report.matrices)
    (cached,) = [path for path in cache.glob("*.json") if json.loads(path.read_text())["step"] == 20]
    cached.write_text(json.dumps({**json.loads(cached.read_text()), "B_ours": 1.5}))  # mark the cached row
    assert main(arguments) == 2  # the table exists: replaced only with --force
    assert "--force" in capsys.readouterr().err
    assert main([*arguments, "--force"]) == 0
    assert "2 from the cache" in capsys.readouterr().out
    with open(out, encoding="utf-8") as handle:
        assert next(csv.DictReader(handle))["B_ours"] == "1.5"


def test_a_changed_checkpoint_is_recomputed(run_folder, tmp_path):
    folder, cache = str(run_folder / "checkpoint-20"), tmp_path / "cache"
    settings = SweepSettings()
    first, hits = sweep([folder], settings, cache)
    assert hits == 0
    write_folder(run_folder / "checkpoint-20", tiny_bert_tensors(seed=7), None)
    second, hits = sweep([folder], settings, cache)
    assert hits == 0 and second[0]["B_Edelman"] != first[0]["B_Edelman"]
    assert sweep([folder], SweepSettings(dps=30), cache)[1] == 0  # other settings, other key


def test_parquet_table_round_trips_and_bad_suffix_is_refused(run_folder, tmp_path, capsys):
    pd = pytest.importorskip("pandas", reason="Parquet output needs pandas and pyarrow (sweep extra)")
    pytest.importorskip("pyarrow", reason="Parquet output needs pyarrow (sweep extra)")
    out = tmp_path / "rows.parquet"
    cache = str(tmp_path / "c")
    assert main(["sweep", str(run_folder), "--out", str(out), "--cache", cache, "--jobs", "1"]) == 0
    table = pd.read_parquet(out)
    assert list(table["step"]) == [20, 100] and table["B_ours"].notna().all()
    bad = ["sweep", str(run_folder), "--out", str(tmp_path / "rows.xlsx"), "--cache", str(tmp_path / "bad")]
    assert main([*bad, "--jobs", "1"]) == 2
    assert ".parquet or .csv" in capsys.readouterr().err
    assert not (tmp_path / "bad").exists()  # refused before any checkpoint was computed


def test_figures_are_written(run_folder, tmp_path, capsys):
    pytest.importorskip("matplotlib", reason="figures need matplotlib (report extra)")
    figures = tmp_path / "figures"
    arguments = ["sweep", str(run_folder), "--out", str(tmp_path / "r.csv"), "--cache", str(tmp_path / "c")]
    assert main([*arguments, "--jobs", "1", "--figures", str(figures)]) == 0
    names = sorted(path.name for path in figures.iterdir())
    assert names == sorted(
        f"{stem}.{suffix}" for stem in ("p_opt", "proxies") for suffix in ("png", "pdf", "svg")
    )


def test_a_scheduler_without_dask_installed_is_a_clear_error(run_folder, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(MissingDependency, match=r"specbound\[sweep\]"):
        sweep([str(run_folder / "checkpoint-20")], SweepSettings(), tmp_path / "c", scheduler="tcp://x:1")


@pytest.mark.slow
def test_a_local_dask_cluster_of_two_workers_gives_the_local_rows(run_folder, tmp_path):
    distributed = pytest.importorskip("distributed", reason="needs dask[distributed] (sweep extra)")
    sources = expand([str(run_folder)])
    local, _ = sweep(sources, SweepSettings(), tmp_path / "local", jobs=1)
    with distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=":0"
    ) as cluster:
        address = cluster.scheduler_address
        remote, hits = sweep(sources, SweepSettings(), tmp_path / "remote", scheduler=address)
    assert hits == 0 and remote == local
