"""The kinds, verdicts and coverage statuses are enums whose JSON is today's text, and whose text (as read
back from JSON) converts to them; an unknown text is refused with the valid ones named."""

from __future__ import annotations

import json

import pytest

from numerics.loading.coverage import Coverage, CoverageStatus
from paper_checks.registry import Verdict
from theory.errors import InvalidArgument
from theory.kinds import MatrixKind


def test_each_enum_serialises_to_the_text_the_json_outputs_carry():
    texts = {
        CoverageStatus: ["exact", "assumption", "outside"],
        MatrixKind: ["QK", "Vt", "M_in", "M_out"],
        Verdict: ["verified", "refuted", "open", "by construction"],
    }
    for enum, expected in texts.items():
        assert json.loads(json.dumps(list(enum))) == expected
        assert [f"{member}" for member in enum] == expected


def test_a_coverage_record_holds_the_enum_and_round_trips_through_json():
    record = Coverage("attention", CoverageStatus.OUTSIDE, "q/k norms", "exact: the class")
    text = json.dumps(record.as_json())
    assert json.loads(text)["status"] == "outside"
    again = Coverage(**json.loads(text))
    assert again == record and again.status is CoverageStatus.OUTSIDE


def test_an_unknown_coverage_status_is_refused_naming_the_valid_ones():
    with pytest.raises(InvalidArgument, match=r"'partial' is not one of exact, assumption, outside"):
        Coverage("attention", "partial", "q/k norms", "exact")  # type: ignore[arg-type]


def test_the_figures_draw_one_panel_per_matrix_kind_in_its_order():
    from paper_checks.figures import KIND_ORDER

    assert tuple(MatrixKind) == KIND_ORDER and [kind.per_head for kind in KIND_ORDER] == [1, 1, 0, 0]


def test_a_coverage_provenance_is_checked_against_theory_provenance_tags():
    from theory.provenance import Provenance

    for tag in Provenance:
        assert Coverage("attention", CoverageStatus.EXACT, "q/k norms", f"{tag}: the class").provenance
    named = "'guessed: x' must start with one of " + ", ".join(Provenance)
    with pytest.raises(InvalidArgument, match=named):
        Coverage("attention", CoverageStatus.EXACT, "q/k norms", "guessed: x")


def test_the_provenance_tags_load_without_sympy():
    import subprocess
    import sys

    probe = "import sys, theory.provenance, numerics.loading.coverage; print('sympy' in sys.modules)"
    shown = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == "False"
