"""Tables for analysis (ProxyReport.to_frame, bound --parquet) and the run block of every JSON output
(version, git commit, date, weights hash, options), and check --compare's table of changes."""

from __future__ import annotations

import csv
import importlib.util
import json

import pytest

from numerics.bounds.composition import ROW_COLUMNS
from numerics.bounds.proxies import proxies
from numerics.loading import load_weights
from paper_checks import run_metadata
from paper_checks.cli import main
from paper_checks.compare import changes, format_changes
from tests.helpers.bert_checkpoint_files import bert_config, tiny_bert_tensors, write_folder

pytest.importorskip("safetensors", reason="writing the tiny checkpoint needs safetensors (models extra)")


@pytest.fixture
def tiny_model(tmp_path):
    return write_folder(
        tmp_path / "tiny", tiny_bert_tensors(layers=2, hidden=8, ffn=16), bert_config(2, 8, 2, 16)
    )


def test_to_frame_has_one_row_per_matrix_with_the_report_numbers(tiny_model):
    pytest.importorskip("pandas", reason="to_frame needs pandas (specbound[analysis])")
    report = proxies(load_weights(tiny_model))
    frame = report.to_frame()
    assert list(frame.columns) == list(ROW_COLUMNS)
    assert len(frame) == len(report.matrices) == 12
    assert frame["contribution"].sum() == pytest.approx(float(report.leading), rel=1e-14)
    assert list(frame["kind"][:6]) == ["QK", "Vt", "QK", "Vt", "M_in", "M_out"]


def test_parquet_rows_equal_the_csv_rows(tiny_model, tmp_path, capsys):
    pytest.importorskip("pyarrow", reason="--parquet needs pyarrow (specbound[analysis])")
    import pandas as pd

    table, sheet = tmp_path / "rows.parquet", tmp_path / "rows.csv"
    assert main(["bound", str(tiny_model), "--parquet", str(table), "--csv", str(sheet), "--quiet"]) == 0
    frame = pd.read_parquet(table)
    with open(sheet, encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(frame) == len(rows)
    assert list(frame["contribution"]) == [float(r["contribution"]) for r in rows]
    assert capsys.readouterr().err == ""  # --quiet: no progress lines


def test_parquet_without_pyarrow_is_a_clear_error(tiny_model, tmp_path, capsys, monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "pyarrow" else real(name, *a)
    )
    assert main(["bound", str(tiny_model), "--parquet", str(tmp_path / "x.parquet")]) == 2
    err = capsys.readouterr().err
    assert "pyarrow" in err and "analysis" in err and "Traceback" not in err


def test_bound_json_carries_the_run_block(tiny_model, capsys):
    assert main(["bound", str(tiny_model), "--json", "--grid-m", "3"]) == 0
    run = json.loads(capsys.readouterr().out)["run"]
    assert set(run) == {"specbound_version", "git_commit", "date_utc", "inputs", "options"}
    assert run["options"]["grid_m"] == 3 and run["options"]["command"] == "bound"
    assert run["date_utc"].endswith("+00:00")
    (digest,) = run["inputs"].values()
    assert digest == run_metadata.weights_sha256(load_weights(tiny_model)) and len(digest) == 64


def test_weights_hash_changes_with_one_weight(tmp_path):
    tensors = tiny_bert_tensors(layers=1, hidden=8, ffn=16)
    first = write_folder(tmp_path / "a", tensors, bert_config(1, 8, 2, 16))
    key = next(k for k in tensors if k.endswith("query.weight"))
    tensors[key] = tensors[key].copy()
    tensors[key][0, 0] += 1e-6
    second = write_folder(tmp_path / "b", tensors, bert_config(1, 8, 2, 16))
    assert run_metadata.weights_sha256(load_weights(first)) != run_metadata.weights_sha256(
        load_weights(second)
    )


def test_git_commit_is_a_hash_or_unknown():
    commit = run_metadata.git_commit()
    assert commit == "unknown" or len(commit.removesuffix("-dirty")) == 40


def test_version_option_prints_the_version(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"specbound {run_metadata.version()}"


def test_compare_lists_verdict_and_evidence_changes_only():
    old = {
        "1": {"id": "1", "verdict": "verified", "evidence": "a", "provenance": "derived", "title": "t"},
        "2": {"id": "2", "verdict": "verified", "evidence": "b", "provenance": "derived", "title": "t"},
        "3": {"id": "3", "verdict": "open", "evidence": "c", "provenance": "derived", "title": "t"},
    }
    new = [
        {**old["1"]},
        {**old["2"], "evidence": "b2"},
        {**old["3"], "verdict": "refuted"},
        {"id": "13", "verdict": "verified", "evidence": "d", "provenance": "exact", "title": "u"},
    ]
    rows = changes(old, new)
    assert [(r["id"], r["old"], r["new"], r["changed"]) for r in rows] == [
        ("2", "verified", "verified", "evidence"),
        ("3", "open", "refuted", "verdict"),
        ("13", "-", "verified", "new claim"),
    ]
    text = format_changes(rows, "old.json")
    assert "3 claim(s) changed" in text and "now: b2" in text
    assert "no verdict or evidence changed" in format_changes(changes(old, list(old.values())), "old.json")


def test_check_compare_with_a_bad_file_exits_2(tmp_path, capsys):
    bad = tmp_path / "old.json"
    bad.write_text('{"not": "claims"}')
    assert main(["check", "--only", "1", "--compare", str(bad)]) == 2
    assert "has no claims list" in capsys.readouterr().err


def test_report_md_and_claims_json_open_with_the_run_block(tmp_path, monkeypatch):
    import argparse

    from paper_checks import report
    from paper_checks.context import RunContext
    from paper_checks.registry import ClaimResult, Verdict

    monkeypatch.setattr(report, "_figures", lambda context, directory: {})
    run = run_metadata.run_block(argparse.Namespace(command="check", only="1"), {"m": "ab" * 32})
    results = [ClaimResult("1", "a statement", Verdict.VERIFIED, "derived", "evidence")]
    report.write_report(results, RunContext(), tmp_path, run)
    text = (tmp_path / "report.md").read_text()
    assert f"commit `{run['git_commit']}`" in text and "`m` sha256 `abababababababab…`" in text
    assert "options: `command=check only=1`" in text
    assert json.loads((tmp_path / "claims.json").read_text())["run"] == run
