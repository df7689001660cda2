"""``specbound check``'s text table: within 100 columns, every title whole, provenance and evidence wrapped
under it, a crashed check shown as crashed."""

from __future__ import annotations

from paper_checks.commands.check import TABLE_WIDTH, format_table
from paper_checks.registry import ClaimResult, Verdict

LONG_TITLE = "The assembled bound dominates the measured generalization gap of trained small transformers"


def _results() -> list[ClaimResult]:
    return [
        ClaimResult(
            "12a", LONG_TITLE, Verdict.OPEN, "derived, under reconstructed Theorem 3.1", "word " * 60
        ),
        ClaimResult("99", "crashes", Verdict.OPEN, "none: the check crashed", "crashed: X", error="X"),
    ]


def test_the_table_fits_100_columns_and_keeps_every_title_whole():
    text = format_table(_results())
    assert TABLE_WIDTH == 100 and max(len(line) for line in text.splitlines()) <= 100
    assert LONG_TITLE in " ".join(" ".join(text.split()).split())  # whole, if wrapped
    assert "…" not in text
    assert text.count("word") == 60  # the evidence is all there


def test_each_claim_starts_a_row_with_its_id_and_verdict():
    lines = format_table(_results()).splitlines()
    assert lines[0].split() == ["id", "verdict", "claim"]
    rows = [line.split()[:2] for line in lines[1:] if line[:1].strip()]
    assert rows == [["12a", "open"], ["99", "crashed"]]
    assert any(line.strip().startswith("provenance: derived") for line in lines)
