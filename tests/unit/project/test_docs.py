"""The documentation is the repository's own: the tutorial's code runs, the docs cover the notation and
every step number ``specbound theory`` prints, and no tracked file, help text or output names a path
outside the repository (a copy of the tracked files is checked, as a fresh clone would be)."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from paper_checks.cli import build_parser, main
from tests.helpers.paths import ROOT

DOCS = ROOT / "docs"
# written in pieces so that this file does not match itself (parent path, team-note names, shared folder)
FORBIDDEN = re.compile("|".join([r"\.\./", "SPEC" + r"\.md", "DESIGN" + r"\.md", "shared" + "/"]))


@pytest.fixture(scope="module")
def theory_output() -> tuple[str, str]:
    """``specbound theory --json`` run once for this module (its self-checks take seconds): stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert main(["theory", "--json"]) == 0
    return out.getvalue(), err.getvalue()


def _python_blocks(path: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), flags=re.S)


def _tracked_files() -> list[Path]:
    """The tracked files (git ls-files), or every file outside caches when this is not a checkout."""
    try:
        listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
        return [ROOT / line for line in listed.stdout.splitlines() if (ROOT / line).is_file()]
    except (OSError, subprocess.CalledProcessError):
        skipped = {
            ".git",
            ".venv",
            "__pycache__",
            ".pytest_cache",
            ".mypy_cache",
            ".ruff_cache",
            ".hypothesis",
        }
        return [p for p in ROOT.rglob("*") if p.is_file() and not skipped & set(p.relative_to(ROOT).parts)]


@pytest.mark.slow  # the tutorial on minilm-l3: 71 s wall at load 10
@pytest.mark.real_weights
def test_tutorial_code_blocks_run_in_order(capsys):
    pytest.importorskip("onnx", reason="the tutorial loads minilm-l3, which needs onnx and its model package")
    namespace: dict[str, object] = {}
    blocks = _python_blocks(DOCS / "tutorial.md")
    assert len(blocks) >= 5
    for block in blocks:
        exec(compile(block, str(DOCS / "tutorial.md"), "exec"), namespace)
    out = capsys.readouterr().out
    assert "B_ours = 10243.21" in out and "77 of 78 matrices take p = 0" in out
    assert "is not homogeneous of degree" in out  # the planted mistake of step 4 was caught


@pytest.mark.slow  # its fixture runs `theory --json`, every self-check of the registry: 24 s wall at load 3
def test_mathematics_defines_the_notation_and_every_step_the_cli_prints(theory_output):
    text = (DOCS / "mathematics.md").read_text(encoding="utf-8")
    for term in ("alpha_l", "gamma", "xi_l", "S_p(W)", "P_m", "C2(W)", "(2,1)", "s = gamma alpha_l L"):
        assert term in text, term
    for tag in ("`exact`", "`standard`", "`reconstructed`", "`derived`"):
        assert tag in text
    steps = {str(lemma["step"]) for lemma in json.loads(theory_output[0])["lemmas"]}
    documented = set(re.findall(r"^\| (\d+) \|", text, flags=re.M))
    assert steps and steps <= documented


def test_claims_doc_lists_twelve_claims_every_check_id_and_the_three_verdicts():
    from paper_checks.registry import discover

    text = (DOCS / "claims.md").read_text(encoding="utf-8")
    assert [int(n) for n in re.findall(r"^\| (\d+) \|", text, flags=re.M)] == list(range(1, 13))
    documented = set(re.findall(r"^\| `(\d+[a-z]?)` \|", text, flags=re.M))
    assert documented == {claim.id for claim in discover()}, "docs/claims.md and the claim modules differ"
    for verdict in ("`verified`", "`refuted`", "`open`"):
        assert verdict in text


def test_a_copy_of_the_tracked_files_names_no_path_outside_it(tmp_path):
    copy = tmp_path / "clone"
    for path in _tracked_files():
        target = copy / path.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    assert (copy / "README.md").is_file() and (copy / "docs" / "mathematics.md").is_file()
    offenders = []
    for path in copy.rglob("*"):
        if path.is_file() and path.suffix in {".py", ".md", ".toml", ".txt", ".cfg", ""}:
            for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
                if FORBIDDEN.search(line):
                    offenders.append(f"{path.relative_to(copy)}:{number}: {line.strip()}")
    assert offenders == []
    # every relative link of the docs and the README points at a file of the copy
    for page in [copy / "README.md", *(copy / "docs").glob("*.md")]:
        for link in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8")):
            assert (page.parent / link).exists(), f"{page.name} links to missing {link}"


def test_help_texts_and_outputs_name_no_path_outside_the_repository(capsys):
    parser = build_parser()
    texts = [parser.format_help()]
    subparsers = next(a for a in parser._actions if a.dest == "command")
    texts += [command.format_help() for command in subparsers.choices.values()]
    assert len(texts) >= 7  # specbound and its six commands
    assert main(["check", "--only", "1,2,3"]) == 0
    captured = capsys.readouterr()
    texts += [captured.out, captured.err]
    for text in texts:
        assert not FORBIDDEN.search(text), FORBIDDEN.search(text)


@pytest.mark.slow  # `theory --json` runs every self-check of the registry: 24 s wall at load 3
def test_theory_output_names_no_path_outside_the_repository(theory_output):
    for text in theory_output:
        assert not FORBIDDEN.search(text), FORBIDDEN.search(text)


def _command_lines() -> list[tuple[str, list[str]]]:
    """Every command line of a ``bash`` block of the README and docs/*.md: (page, words), without
    comments and output redirections."""
    import shlex

    found = []
    for page in [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]:
        for block in re.findall(r"```bash\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.S):
            for line in block.splitlines():
                words = shlex.split(line, comments=True)
                for stop in (">", "|"):
                    words = words[: words.index(stop)] if stop in words else words
                if words:
                    found.append((page.name, words))
    return found


def test_every_documented_command_line_is_one_the_tools_accept():
    lines = _command_lines()
    assert len(lines) >= 20
    for page, words in lines:
        if words[0] == "specbound" or words[:3] == ["python", "-m", "paper_checks.cli"]:
            argv = words[1:] if words[0] == "specbound" else words[3:]
            try:
                build_parser((argv[0],)).parse_args(argv)
            except SystemExit as stop:
                raise AssertionError(f"{page}: {' '.join(words)} is refused (exit {stop.code})") from None
        elif words[0] in ("python", "python3") and words[1].startswith("benchmarks/"):
            script = (ROOT / words[1]).read_text(encoding="utf-8")
            for option in (w.split("=")[0] for w in words[2:] if w.startswith("--")):
                assert f'"{option}"' in script, f"{page}: {words[1]} has no option {option}"
        elif words[0] == "make":
            makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
            assert re.search(rf"^{words[1]}:", makefile, flags=re.M), f"{page}: no make target {words[1]}"
        elif words[0] == "pip":
            assert words[1] == "install", f"{page}: {' '.join(words)}"
            import tomllib

            extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
            for target in (w for w in words[2:] if w.startswith(".[")):  # the clone with extras
                assert set(target[2:-1].split(",")) <= set(extras), f"{page}: {target} names no extra"
        elif words[:3] == ["python3", "-m", "venv"] or words == [".", ".venv/bin/activate"]:
            pass  # the virtual environment of the install block
        else:
            raise AssertionError(f"{page}: a command line the test does not know: {' '.join(words)}")
