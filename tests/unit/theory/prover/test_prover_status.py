"""The prover's statuses are one str-valued enum: JSON and printed text carry the bare word."""

import json

from theory.prover import PROVED, REFUTED, UNDECIDED, ProverStatus, prove


def test_statuses_are_the_enum_members_and_print_as_their_words() -> None:
    assert list(ProverStatus) == [PROVED, REFUTED, UNDECIDED]
    assert [f"{s}" for s in ProverStatus] == ["proved", "refuted", "undecided"]
    assert [repr(s) for s in ProverStatus] == ["'proved'", "'refuted'", "'undecided'"]


def test_a_proof_and_a_refutation_serialise_their_status_as_the_bare_word() -> None:
    proved = prove("exp(x) >= 1 + x", "x: [-1, 1]")
    refuted = prove("x >= 1", "x: [0, 2]")
    assert proved.status is ProverStatus.PROVED and refuted.status is ProverStatus.REFUTED
    assert json.loads(json.dumps(proved.to_json(with_certificate=False)))["status"] == "proved"
    assert '"status": "refuted"' in json.dumps(refuted.to_json(with_certificate=False))
    assert (proved.exit_status, refuted.exit_status) == (0, 1)
