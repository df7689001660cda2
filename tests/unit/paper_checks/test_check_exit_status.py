"""``specbound check`` exits as a test runner does: 0 all held, 1 a claim refuted, 3 a check crashed."""

from __future__ import annotations

from pathlib import Path

import pytest

from paper_checks.cli import build_parser, main

PLANTED = {
    "c97_holds.py": "Verdict.VERIFIED",
    "c98_open.py": "Verdict.OPEN",
    "c99_refuted.py": "Verdict.REFUTED",
}


@pytest.fixture
def claims_dir(tmp_path: Path) -> Path:
    """Three user claims that return a fixed verdict without touching any model, and one that crashes."""
    for name, verdict in PLANTED.items():
        claim_id = name[1:3]
        (tmp_path / name).write_text(
            "from paper_checks.registry import Claim, ClaimResult, Verdict\n"
            f"def check(context):\n    return ClaimResult('{claim_id}', 't', {verdict}, 'derived', 'e')\n"
            f"CLAIM = Claim('{claim_id}', 't', check)\n"
        )
    (tmp_path / "c96_crash.py").write_text(
        "from paper_checks.registry import Claim\n"
        "def boom(context):\n    raise RuntimeError('planted')\n"
        "CLAIM = Claim('96', 'crashes', boom)\n"
    )
    return tmp_path


@pytest.mark.parametrize(
    ("only", "status"),
    [("97", 0), ("97,98", 0), ("97,99", 1), ("98,99", 1), ("96,97", 3), ("96,99", 3)],
)
def test_exit_status_follows_the_worst_verdict(claims_dir, capsys, only, status):
    assert main(["check", "--claims-dir", str(claims_dir), "--only", only, "--json"]) == status
    capsys.readouterr()


def test_help_documents_the_exit_statuses():
    check = build_parser()._subparsers._group_actions[0].choices["check"]  # type: ignore[union-attr]
    text = " ".join(check.format_help().split())
    assert "1 when at least one claim is refuted" in text and "3 when a check crashed" in text
