"""The claim registry: discovery, user claim folders, selection, crash handling, JSON layout."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from paper_checks.context import RunContext
from paper_checks.registry import Claim, ClaimResult, Verdict, discover, jsonable, run_claim, select
from theory.errors import InvalidArgument

USER_CLAIM = """
from paper_checks.registry import Claim, ClaimResult, Verdict

def check(context, value: int = 3) -> ClaimResult:
    return ClaimResult("99", "three is odd", Verdict.VERIFIED if value % 2 else Verdict.REFUTED,
                       "derived (arithmetic)", f"{value} % 2 = {value % 2}")

CLAIM = Claim("99", "three is odd", check)
"""


def test_discover_finds_every_claim_in_order():
    # a claim may be split into lettered sub-claims (5a, 5b, 12a, 12b): every number 1-12, then claim 16
    ids = [c.id for c in discover()]
    numbers = [int(re.match(r"\d+", i).group()) for i in ids]  # type: ignore[union-attr]
    assert sorted(set(numbers)) == [*range(1, 13), 16]
    assert ids == sorted(ids, key=lambda i: (int(re.match(r"\d+", i).group()), i))  # type: ignore[union-attr]


def test_a_user_claim_file_runs_with_the_rest(tmp_path: Path):
    (tmp_path / "c99_user.py").write_text(USER_CLAIM)
    (tmp_path / "_helper.py").write_text("raise RuntimeError('helpers are not claims')\n")
    claims = discover([tmp_path])
    assert [c.id for c in claims][-1] == "99"
    result = run_claim(claims[-1], RunContext())
    assert result.verdict is Verdict.VERIFIED and result.evidence == "3 % 2 = 1"


def test_a_user_module_without_claim_is_rejected_with_its_path(tmp_path: Path):
    (tmp_path / "broken.py").write_text("x = 1\n")
    with pytest.raises(InvalidArgument, match=r"broken\.py defines no CLAIM"):
        discover([tmp_path])


def test_duplicate_ids_are_rejected(tmp_path: Path):
    (tmp_path / "dup.py").write_text(USER_CLAIM.replace('"99"', '"1"'))
    with pytest.raises(InvalidArgument, match="two claims have id '1'"):
        discover([tmp_path])


def test_claims_dir_must_exist(tmp_path: Path):
    with pytest.raises(InvalidArgument, match="is not a directory"):
        discover([tmp_path / "missing"])


def test_select_keeps_the_named_ids_and_rejects_unknown_ones():
    claims = discover()
    assert [c.id for c in select(claims, "3, 1")] == ["1", "3"]
    with pytest.raises(InvalidArgument, match=r"unknown claim ids \['42'\]"):
        select(claims, "1,42")


def test_a_crashing_claim_becomes_a_crashed_open_result():
    def boom(context: RunContext) -> ClaimResult:
        raise ZeroDivisionError("division by zero in the check")

    result = run_claim(Claim("77", "crashes", boom), RunContext())
    assert result.crashed and result.verdict is Verdict.OPEN
    assert result.error == "ZeroDivisionError: division by zero in the check"
    assert "ZeroDivisionError" in result.details["traceback"]
    assert result.to_json()["error"] == result.error


def test_a_check_returning_something_else_is_a_crash():
    result = run_claim(Claim("78", "wrong type", lambda context: "verified"), RunContext())  # type: ignore[arg-type,return-value]
    assert result.crashed and "str" in result.evidence


def test_json_layout_has_the_design_keys_and_no_bare_infinities():
    result = ClaimResult("5", "t", Verdict.REFUTED, "derived", "e", {"x": float("inf"), "y": (1.5, 2)})
    data = json.loads(json.dumps(result.to_json(), allow_nan=False))
    assert {"id", "title", "verdict", "provenance", "evidence"} <= set(data)
    assert data["verdict"] == "refuted" and data["details"] == {"x": "inf", "y": [1.5, 2]}


def test_jsonable_turns_numpy_and_mpmath_numbers_into_floats():
    import mpmath
    import numpy as np

    assert jsonable({"a": np.float64(2.5), "b": mpmath.mpf("0.25"), "c": np.int64(3)}) == {
        "a": 2.5,
        "b": 0.25,
        "c": 3.0,
    }


def test_run_context_memo_computes_once():
    context = RunContext()
    calls = []
    assert context.memo("k", lambda: calls.append(1) or 7) == 7
    assert context.memo("k", lambda: calls.append(1) or 8) == 7
    assert calls == [1]
