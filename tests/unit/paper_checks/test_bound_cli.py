"""``specbound bound`` on a tiny checkpoint: the documented JSON layout, CSV, table, exit 2 on bad input."""

from __future__ import annotations

import csv
import json

import mpmath
import pytest

from numerics.bounds.proxies import proxies
from numerics.loading import load_weights
from numerics.spectra.model import SpectraOptions
from paper_checks.cli import main
from paper_checks.commands.bound import number
from tests.helpers.bert_checkpoint_files import bert_config, tiny_bert_tensors, write_folder

pytest.importorskip("safetensors", reason="writing the tiny checkpoint needs safetensors (models extra)")

DESIGN_KEYS = {"model", "L", "N", "heads", "m", "proxies", "matrices"}
MATRIX_KEYS = {
    "layer",
    "head",
    "kind",
    "rows",
    "cols",
    "rank",
    "spectral_norm",
    "frobenius_norm",
    "norm_21",
    "alpha",
    "gamma",
    "p_opt",
    "contribution",
}


@pytest.fixture
def tiny_model(tmp_path):
    return write_folder(
        tmp_path / "tiny", tiny_bert_tensors(layers=2, hidden=8, ffn=16), bert_config(2, 8, 2, 16)
    )


def test_json_layout_is_design_md(tiny_model, capsys):
    assert main(["bound", str(tiny_model), "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert set(payload) >= DESIGN_KEYS
    assert (payload["L"], payload["N"], payload["heads"]) == (2, 8, 2)
    assert payload["m"] == 5  # ceil(2 + ln 8)
    assert set(payload["proxies"]) == {"ours", "edelman"}
    rows = payload["matrices"]
    assert len(rows) == 2 * (2 * 2 + 2)
    assert all(set(row) >= MATRIX_KEYS for row in rows)
    assert [(r["layer"], r["head"], r["kind"]) for r in rows[:6]] == [
        (0, 0, "QK"),
        (0, 0, "Vt"),
        (0, 1, "QK"),
        (0, 1, "Vt"),
        (0, -1, "M_in"),
        (0, -1, "M_out"),
    ]
    m_in = rows[4]
    assert (m_in["rows"], m_in["cols"]) == (8, 16)
    assert all(r["rank"] <= 4 for r in rows if r["kind"] in ("QK", "Vt"))  # d_h = 4
    assert "signature" in payload


def test_json_numbers_equal_the_library(tiny_model, capsys):
    assert main(["bound", str(tiny_model), "--json", "--grid-m", "3", "--dps", "30"]) == 0
    payload = json.loads(capsys.readouterr().out)
    report = proxies(load_weights(tiny_model), SpectraOptions(m=3, dps=30))
    assert payload["m"] == 3
    assert payload["proxies"]["ours"] == float(report.ours)
    assert payload["proxies"]["edelman"] == float(report.edelman)
    assert sum(r["contribution"] for r in payload["matrices"]) == pytest.approx(
        float(report.leading), rel=1e-14
    )
    assert [r["p_opt"] for r in payload["matrices"]] == [float(r.p_opt) for r in report.matrices]
    assert "eval:mpmath-dps=30" in payload["signature"]


def test_csv_has_one_row_per_matrix(tiny_model, tmp_path, capsys):
    path = tmp_path / "out.csv"
    assert main(["bound", str(tiny_model), "--csv", str(path), "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    with open(path, encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == len(payload["matrices"])
    assert set(rows[0]) >= MATRIX_KEYS
    assert [float(r["contribution"]) for r in rows] == [r["contribution"] for r in payload["matrices"]]


def test_table_has_one_row_per_layer_and_kind(tiny_model, capsys):
    assert main(["bound", str(tiny_model)]) == 0
    out = capsys.readouterr().out
    kinds = [line.split()[1] for line in out.splitlines() if line.split()[:1] in (["0"], ["1"])]
    assert kinds == ["QK", "Vt", "M_in", "M_out"] * 2
    assert "B_ours" in out and "B_Edelman" in out
    assert "inf" not in out and "nan" not in out


def test_the_table_shows_the_same_numbers_as_the_json_which_computes_everything(tiny_model, capsys):
    # the table skips what only the rows show ((1,1) norms, the minimum over [0, 2], the content hash)
    assert main(["bound", str(tiny_model), "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert main(["bound", str(tiny_model)]) == 0
    table = capsys.readouterr().out
    full = proxies(load_weights(tiny_model))
    assert f"B_ours     = {mpmath.nstr(full.ours, 12)} " in table
    assert f"B_Edelman  = {mpmath.nstr(full.edelman, 12)} " in table
    assert payload["proxies"]["ours"] == float(full.ours)
    assert "run" in payload and all(len(digest) == 64 for digest in payload["run"]["inputs"].values())


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--grid-m", "0"], "m=0"),
        (["--dps", "5"], "dps=5"),
        (["--csv", "/nonexistent-dir/x.csv"], "cannot be written"),
    ],
)
def test_bad_options_exit_2_with_a_message(tiny_model, capsys, extra, message):
    assert main(["bound", str(tiny_model), *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_missing_model_exits_2(tmp_path, capsys):
    assert main(["bound", str(tmp_path / "nothing-here")]) == 2
    assert "nothing-here" in capsys.readouterr().err


def test_numbers_beyond_float64_become_decimal_strings():
    with mpmath.workdps(50):
        huge = mpmath.mpf(10) ** 800 * 3
    rendered = number(huge)
    assert isinstance(rendered, str) and rendered.startswith("3.0") and rendered.endswith("e+800")
    assert number(mpmath.mpf(2.5)) == 2.5
