"""``specbound theory`` prints readable mathematics on a terminal (sympy's drawing, or its one-line form
when the drawing would be too tall or wide) and LaTeX only with --latex and in --json."""

from __future__ import annotations

import types

import pytest
import sympy as sp

from paper_checks.cli import main
from paper_checks.commands import theory as theory_command


def _one_lemma_report(monkeypatch):
    from theory import registry

    lemma = registry.all_lemmas()[0]  # step 1, Schatten facts
    report = types.SimpleNamespace(entries=[(lemma, [])], controls=[], total=0, failed=[])
    monkeypatch.setattr(registry, "run_all_checks", lambda each=None: report)
    return lemma


def test_text_output_has_no_latex_and_the_latex_flag_has_it(monkeypatch, capsys):
    lemma = _one_lemma_report(monkeypatch)
    assert main(["theory", "--no-prove", "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "$" not in text and "\\frac" not in text and "\\left" not in text
    assert main(["theory", "--no-prove", "--quiet", "--latex"]) == 0
    latex = capsys.readouterr().out
    assert f"$ {lemma.statement_latex()[0]} $" in latex


def test_a_small_statement_is_drawn_and_a_huge_one_is_one_wrapped_line():
    x, y = sp.symbols("x y", positive=True)
    drawn = theory_command.readable(sp.Le(sp.sqrt(x / y), x), indent="    ")
    assert len(drawn.splitlines()) > 1 and all(line.startswith("    ") for line in drawn.splitlines())
    huge = sp.Le(sum(sp.sqrt(x / (y + k)) ** (x / (k + 1)) for k in range(12)), x)
    flat = theory_command.readable(huge, indent="    ")
    assert all(len(line) <= 100 for line in flat.splitlines())
    assert "**" in flat and " ".join(flat.split()).replace(" ", "") == sp.sstr(huge).replace(" ", "")


def test_long_lines_wrap_at_100_columns_with_an_indent():
    text = "prover [proved, kernel-checked] " + " ".join(f"word{i}" for i in range(60))
    lines = theory_command.wrapped(text, "    ", "    ").splitlines()
    assert len(lines) > 1 and all(len(line) <= theory_command.LINE_WIDTH for line in lines)
    assert lines[0].startswith("    prover") and all(line.startswith("        ") for line in lines[1:])
    assert " ".join(line.strip() for line in lines) == text  # nothing lost or broken inside a word


@pytest.mark.slow
def test_regimes_only_prints_the_table_alone(capsys):
    assert main(["theory", "--regimes-only", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("| regime | p | bound |") and "[step" not in out and "prover" not in out
    rows = [line for line in out.splitlines() if line.startswith("| rank | 0 | ours_l2 | bounded_alpha")]
    assert rows and "L^(1/2) (ln L)^(1/2)" in rows[0]  # the law the README quotes
