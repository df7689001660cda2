"""theory.growth_comparison.compare_growth is what ``specbound growth`` prints: its record equals the
command's JSON, and the usage page's snippet runs, its crossover checked by hand (floats at L0 and L0 - 1)."""

from __future__ import annotations

import contextlib
import io
import json
import math
import re

import pytest

from paper_checks.cli import main
from tests.helpers.paths import ROOT
from theory.growth_comparison import compare_growth

USAGE = ROOT / "docs" / "usage.md"


def _without_seconds(record: dict) -> dict:
    if "crossover" in record:
        record["crossover"].pop("seconds")
    return record


@pytest.mark.parametrize(
    ("argv", "kwargs"),
    [
        (
            ["alpha * L^p", "--in", "L", "--assume", "alpha: bounded", "--assume", "p: (0, 2)"],
            {"expr": "alpha * L^p", "assumptions": ("alpha: bounded", "p: (0, 2)")},
        ),
        (["L^2 - L", "--versus", "L^2", "--in", "L"], {"expr": "L^2 - L", "versus": "L^2"}),
    ],
)
def test_the_record_is_what_the_command_prints(argv, kwargs):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["growth", *argv, "--json"])
    printed = json.loads(out.getvalue())
    result = compare_growth(variable="L", **kwargs)
    assert printed.pop("exit_status") == status == (0 if result.decided else 3)
    assert _without_seconds(printed) == _without_seconds(result.to_json())


def test_the_usage_snippet_runs_and_its_crossover_holds_by_hand(capsys):
    (snippet,) = [
        b for b in re.findall(r"```python\n(.*?)```", USAGE.read_text(), re.S) if "compare_growth" in b
    ]
    namespace: dict[str, object] = {}
    exec(compile(snippet, str(USAGE), "exec"), namespace)
    assert capsys.readouterr().out.split() == ["L^(3/2)", "234", "proved"]
    gap = lambda L: L**1.5 - 100 * math.sqrt(L) * math.sqrt(math.log(L))  # noqa: E731
    assert gap(233) < 0 <= gap(234)  # the smallest integer L0 (the gap grows past it: L^(3/2) wins)
    assert namespace["record"]["crossover"]["certificate"] == namespace["result"].certificate
