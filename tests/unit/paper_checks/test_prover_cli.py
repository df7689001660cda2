"""``specbound prove``: exit 0 proved, 1 refuted, 3 undecided, 2 with one line for malformed input."""

from __future__ import annotations

import json

import pytest

from tests.helpers.paths import ROOT

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from paper_checks.cli import main


def test_proved_exits_0_and_reports_the_checked_certificate(capsys):
    assert main(["prove", "log(1 + x) <= x", "--domain", "x: (-1, oo)"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("proved: log(1 + x) <= x")
    assert "re-checked by the kernel" in out


def test_counts_of_boxes_are_worded_for_one_and_for_many(capsys):
    assert main(["prove", "x*(1 - x) <= 1/4", "--domain", "x: [0, 1]"]) == 0
    out = capsys.readouterr().out
    assert ": 1 box, " in out and "certificate of 1 box re-checked" in out
    assert main(["prove", "log(1 + x) <= x", "--domain", "x: (-1, oo)"]) == 0
    assert "certificate of 2 boxes re-checked" in capsys.readouterr().out


def test_refuted_exits_1_with_the_witness_in_json(capsys):
    assert main(["prove", "x^2 <= 2", "--domain", "x: [0, 1.5]", "--json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert document["status"] == "refuted"
    assert document["exit_status"] == 1
    witness = document["inequalities"][0]["witness"]
    assert witness["point"] == {"x": "3/2"}


def test_undecided_exits_3_and_lists_the_boxes_left(capsys):
    statement = "Piecewise((1/x, atan(x) > 0), (0, True)) >= -1"  # atan(x) > 0 bounds no box: 1/x meets x = 0
    status = main(["prove", statement, "--domain", "x: [-1, 1]", "--budget", "1", "--max-boxes", "50"])
    assert status == 3
    assert "left undecided" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("statement", "domain", "message"),
    [
        ("x <== 2", "x: [0, 1]", "cannot parse"),
        ("x <= 2 <= 3", "x: [0, 1]", "two relations"),
        ("x + 1", "x: [0, 1]", "one relation per inequality"),
        ("x <= y", "x: [0, 1]", "y has no domain"),
        ("x <= 2", "x: [0, 1", "cannot read"),
        ("x <= 2", "x: [2, 1]", "is empty"),
        ("x <= 2", "x: [0, pi]", "not a rational"),
        ("x <= 2", "x [0, 1]", "has no ':'"),
        ("gamma(x) <= 2", "x: [1, 2]", "unknown name 'gamma'"),
    ],
)
def test_malformed_input_exits_2_with_one_line(capsys, statement, domain, message):
    assert main(["prove", statement, "--domain", domain]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert message in err
    assert err.startswith("specbound prove: error:")


def test_budget_must_be_positive(capsys):
    assert main(["prove", "x <= 2", "--domain", "x: [0, 1]", "--budget", "0"]) == 2
    assert "--budget" in capsys.readouterr().err


def test_the_readme_prove_examples_run_as_written(capsys):
    import re
    import shlex

    readme = (ROOT / "docs" / "usage.md").read_text()
    section = readme[readme.index("## Proving inequalities") :]
    block = re.search(r"```bash\n(.*?)```", section, flags=re.S)
    assert block is not None
    expected = {0: "proved", 1: "refuted"}
    for line in block.group(1).splitlines():
        words = shlex.split(line, comments=True)
        assert words[:3] == ["python", "-m", "paper_checks.cli"]
        status = main(words[3:])
        out = capsys.readouterr().out
        assert status in expected
        assert expected[status] in out
    assert "--json" in block.group(1)


def test_an_internal_error_is_one_line_and_exit_2_never_the_status_of_refuted(capsys, monkeypatch):
    import theory.prover

    def crash(*args, **kwargs):
        raise ValueError("planted crash")

    monkeypatch.setattr(theory.prover, "prove", crash)
    assert main(["prove", "x >= 0", "--domain", "x: [0, 1]"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "internal error (ValueError" in err[0] and "planted crash" in err[0]
