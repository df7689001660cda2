"""Malformed derivation files: exit 2 with one line on stderr naming the file, the line and the problem."""

from __future__ import annotations

from pathlib import Path

import pytest

from paper_checks.cli import main

GOOD = """title = "t"
[variables]
x = "[0, 1]"
[definitions]
q = "x + 1"
[[steps]]
expr = "x"
[[steps]]
relation = "<="
expr = "q"
"""


@pytest.mark.parametrize(
    ("old", "new", "line", "problem"),
    [
        ('x = "[0, 1]"', 'x = "[0, 1]', 3, "bad TOML"),
        ('expr = "q"', 'expr = "q + y"', 10, "variable y is not declared in [variables]"),
        ('q = "x + 1"', 'q = "r + 1"\nr = "q * 2"', 5, "circular definition: q -> r -> q"),
        ('expr = "q"', 'expr = "q"\nuses = ["lemma:no_such_lemma"]', 10, "unknown lemma 'no_such_lemma'"),
        ('expr = "q"', 'expr = "q"\nuses = ["nothing"]', 10, "unknown assumption 'nothing'"),
        ('relation = "<="', 'relation = "=<"', 10, "relation must be one of"),
        ('x = "[0, 1]"', 'x = "[1, 0]"', 3, "variable x"),
        ('expr = "q"', 'expr = "q"\nuses = ["file:missing.toml"]', 10, "no derivation file missing.toml"),
        ('expr = "q"', 'expr = "q"\nby = "nothing"', 10, "by must be lemma:NAME, piece:NAME"),
        ('expr = "q"', 'expr = "q"\nby = "piece:no_such_piece"', 10, "unknown piece 'no_such_piece'"),
        ('expr = "q"', 'expr = "q"\nfactor = "2"', 10, "substitution, factor and multiplier need by"),
        (
            'expr = "q"',
            'expr = "q"\nby = "lemma:entropy_exponent_below_2"\nsubstitution = { q = "x" }',
            10,
            "the substitution must give exactly the fact's variables p",
        ),
        (
            'expr = "q"',
            'expr = "q"\nby = "lemma:entropy_exponent_below_2"\nsubstitution = { p = "y" }',
            10,
            "variable y is not declared in [variables]",
        ),
    ],
)
def test_a_malformed_file_exits_2_with_one_line_naming_file_line_and_problem(
    tmp_path: Path, capsys, old, new, line, problem
):
    path = tmp_path / "bad.toml"
    assert old in GOOD
    path.write_text(GOOD.replace(old, new, 1), encoding="utf-8")
    assert main(["derive", str(path)]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert f"{path}, line {line}:" in lines[0] and problem in lines[0], lines[0]
    assert "Traceback" not in captured.err and captured.out == ""


def test_a_circular_file_reference_and_a_missing_file_exit_2(tmp_path: Path, capsys):
    one = tmp_path / "one.toml"
    one.write_text(GOOD.replace('expr = "q"', 'expr = "q"\nuses = ["file:one.toml"]'), encoding="utf-8")
    assert main(["derive", str(one)]) == 2
    assert "circular reference to one.toml" in capsys.readouterr().err
    assert main(["derive", str(tmp_path / "absent.toml")]) == 2
    assert "absent.toml does not exist" in capsys.readouterr().err


def test_the_good_file_is_accepted(tmp_path: Path):
    pytest.importorskip("flint", reason="the prover needs python-flint")
    path = tmp_path / "good.toml"
    path.write_text(GOOD, encoding="utf-8")
    assert main(["derive", str(path), "--budget", "5"]) == 0
