"""``check --only X --compare OLD``: the claims --only leaves out were not run, so they are not "removed"."""

from __future__ import annotations

import json

from paper_checks.cli import main


def test_unselected_claims_of_the_old_run_are_not_reported_removed(tmp_path, capsys):
    assert main(["check", "--quiet", "--json", "--only", "2,3"]) == 0
    old = json.loads(capsys.readouterr().out)
    old["claims"].append({**old["claims"][0], "id": "7"})  # a claim the new run leaves out
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    assert main(["check", "--quiet", "--json", "--only", "2", "--compare", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["compare"]["changes"] == []


def test_a_selected_claim_missing_from_the_new_run_is_still_reported(tmp_path, capsys):
    assert main(["check", "--quiet", "--json", "--only", "2"]) == 0
    old = json.loads(capsys.readouterr().out)
    old["claims"].append({**old["claims"][0], "id": "2x"})  # of the family --only 2 selects, now gone
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    assert main(["check", "--quiet", "--json", "--only", "2", "--compare", str(path)]) == 0
    changes = json.loads(capsys.readouterr().out)["compare"]["changes"]
    assert [(c["id"], c["changed"]) for c in changes] == [("2x", "claim removed")]
