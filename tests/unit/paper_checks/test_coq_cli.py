"""``specbound prove --coq FILE.v``, ``specbound theory --coq DIR`` and ``specbound derive FILE --coq
FILE.v``: files written per proved statement, coqc's verdict in the text and the JSON, nothing exported
for a refuted statement, and one line with exit 2 for bad input or a missing coqc."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from tests.helpers.coq_marks import NEEDS_COQC
from tests.helpers.paths import ROOT

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from paper_checks.cli import main

FORBIDDEN = re.compile(r"\b(Admitted|Axiom|admit)\b")


def test_prove_writes_the_coq_file_without_checking_it_when_asked(tmp_path, capsys):
    target = tmp_path / "log.v"
    status = main(
        ["prove", "log(1 + x) <= x", "--domain", "x: (-1, oo)", "--coq", str(target), "--no-coq-check"]
    )
    assert status == 0
    out = capsys.readouterr().out
    assert f"coq: unchecked: {target} (2 boxes" in out
    assert "hypotheses" not in out
    text = target.read_text(encoding="utf-8")
    assert "Theorem statement : forall v_x : R, (-1) < v_x -> 0 <= gap v_x." in text
    assert not FORBIDDEN.search(text)


def test_a_refuted_statement_exports_nothing_and_says_so(tmp_path, capsys):
    target = tmp_path / "refuted.v"
    status = main(
        [
            "prove",
            "diff(x*Phi(x), x) <= 1.1289",
            "--domain",
            "x: real",
            "--coq",
            str(target),
            "--no-coq-check",
        ]
    )
    assert status == 1
    assert "coq: nothing exported (the statement is refuted" in capsys.readouterr().out
    assert not target.exists()


@pytest.mark.coq  # the one coqc run of the fast tier: a smoke test of about 2 CPU s
@NEEDS_COQC
def test_prove_json_carries_coqcs_verdict(tmp_path, capsys):
    # A box lra closes: a box closed by `interval` makes coqc's `Print Assumptions` walk Interval's proofs
    # (about 7 CPU s more); the slow tier's coqc tests run those.
    target = tmp_path / "linear.v"
    status = main(["prove", "x + y <= 2", "--domain", "x: [0, 1], y: [0, 1]", "--coq", str(target), "--json"])
    assert status == 0
    (record,) = json.loads(capsys.readouterr().out)["coq"]
    assert record["coq"] == "accepted", record
    assert record["file"] == str(target) and record["bytes"] == target.stat().st_size
    assert record["hypotheses"] == [] and record["coqc_cpu_seconds"] > 0


@pytest.mark.coq
@pytest.mark.slow
@NEEDS_COQC
def test_the_readme_log_example_over_its_half_line_is_accepted(tmp_path, capsys):
    """The README's log(1 + x) <= x over (-1, oo): a monotone box with a singular open end and one reaching
    infinity, both named hypotheses before the kernel's derivative was carried into Coq."""
    target = tmp_path / "log.v"
    status = main(["prove", "log(1 + x) <= x", "--domain", "x: (-1, oo)", "--coq", str(target), "--json"])
    assert status == 0
    (record,) = json.loads(capsys.readouterr().out)["coq"]
    assert record["coq"] == "accepted", record
    assert record["hypotheses"] == []


def test_several_inequalities_get_one_numbered_file_each(tmp_path, capsys):
    target = tmp_path / "two.v"
    args = ["prove", "x <= 1 and x >= 0", "--domain", "x: [0, 1]", "--coq", str(target), "--no-coq-check"]
    assert main(args) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["two_1.v", "two_2.v"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--coq", "proof.txt", "--no-coq-check"], "must name a Coq file ending in .v"),
        (["--coq", "/nonexistent-dir/proof.v", "--no-coq-check"], "cannot be written"),
    ],
)
def test_bad_coq_targets_are_one_line_and_exit_2(args, message, capsys):
    assert main(["prove", "x <= 1", "--domain", "x: [0, 1]", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_a_missing_coqc_is_one_line_naming_the_packages_and_exit_2(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    target = tmp_path / "p.v"
    assert main(["prove", "x <= 1", "--domain", "x: [0, 1]", "--coq", str(target)]) == 2
    err = capsys.readouterr().err
    assert "apt-get install coq libcoq-interval" in err and len(err.strip().splitlines()) == 1
    assert not target.exists()


@pytest.mark.parametrize(
    ("statuses", "prover", "expected", "verdict"),
    [
        (["accepted", "accepted"], 0, 0, "accepted"),
        (["accepted", "rejected"], 0, 4, "rejected"),
        (["hypotheses"], 0, 4, "hypotheses"),
        (["untranslated", "accepted"], 0, 4, "untranslated"),
        (["unchecked"], 0, 0, "unchecked"),
        ([], 1, 1, None),
        ([], 3, 3, None),
    ],
)
def test_exit_0_with_coq_only_when_coqc_accepted_every_file(statuses, prover, expected, verdict):
    from theory.prover.coq.report import NOT_ACCEPTED, coq_verdict, exit_status

    records = [{"coq": status} for status in statuses]
    assert NOT_ACCEPTED == 4
    assert exit_status(prover, records) == expected
    assert coq_verdict(records) == verdict


@pytest.mark.coq
@pytest.mark.slow
@NEEDS_COQC
def test_a_proof_coqc_rejects_is_exit_4_with_the_json_saying_rejected(tmp_path, capsys):
    # x >= -16 over the reals is false; until the kernel's tail rule is fixed it may be "proved", and
    # coqc must then not let it exit 0
    status = main(["prove", "x >= -16", "--domain", "x: real", "--coq", str(tmp_path / "m.v"), "--json"])
    document = json.loads(capsys.readouterr().out)
    assert status != 0 and document["exit_status"] == status
    if document["status"] == "proved":
        assert status == 4 and document["coq_verdict"] in ("rejected", "hypotheses", "untranslated")


EXAMPLE = ROOT / "docs" / "examples" / "log_below_quadratic.toml"


def test_derive_writes_each_step_as_a_lemma_without_checking_when_asked(tmp_path, capsys):
    target = tmp_path / "chain.v"
    status = main(["derive", str(EXAMPLE), "--coq", str(target), "--no-coq-check", "--json"])
    document = json.loads(capsys.readouterr().out)
    assert (status, document["coq_verdict"], document["coq"][0]["coq"]) == (0, "unchecked", "unchecked")
    text = target.read_text()
    # the file's expressions are the TOML's (2 ln(1 + x), ..., 3 x), its theorem over x >= 0 with x <= 1
    assert "Definition e_0 (v_x : R) : R := (2 * (ln (1 + v_x)))." in text
    assert "Definition e_4 (v_x : R) : R := (3 * v_x)." in text
    assert "Theorem statement : forall v_x : R, 0 <= v_x -> v_x <= 1 -> e_0 v_x <= e_4 v_x." in text
    assert all(f"Lemma step_{k} :" in text for k in range(1, 5)) and "Admitted" not in text


@pytest.mark.parametrize(
    ("name", "message"), [("chain.txt", "must name a Coq file ending in .v"), ("taken.v", "already exists")]
)
def test_derive_coq_targets_are_checked_before_any_work(name, message, tmp_path, capsys):
    (tmp_path / "taken.v").write_text("mine")
    status = main(["derive", str(EXAMPLE), "--coq", str(tmp_path / name), "--no-coq-check"])
    err = capsys.readouterr().err
    assert status == 2 and message in err and len(err.strip().splitlines()) == 1
    assert (tmp_path / "taken.v").read_text() == "mine"
