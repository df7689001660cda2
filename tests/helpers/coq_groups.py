"""Certificates planted false, exported and checked by coqc together: the same path as ``export_to``
(:func:`theory.prover.coq.files.export_files`: coqc, then for a rejected file the probe and the file
written again with the lemmas coqc could not prove as named hypotheses, checked again), with every file of
a test module in one call, so the files written with hypotheses share one coqc process and one ``Print
Assumptions`` (Coq's walk through Interval's proofs, paid once instead of once a file). Each record is its
own file's: check_files compiles again alone a file whose process failed past it or listed an untrusted
axiom.

Needs python-flint: a test module calls ``pytest.importorskip("flint")`` before importing this one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from theory.prover.coq.files import certificate_export, export_files
from theory.prover.kernel import check_certificate


def planted_together(certificates: dict[Any, dict], folder: Path) -> dict[Any, dict]:
    """key -> the record of its certificate exported to folder/Planted_k.v and checked with coqc, every
    certificate in one ``export_files`` call; the kernel refuses each certificate first."""
    for key, certificate in certificates.items():
        assert not check_certificate(certificate).accepted, key  # the kernel refuses the plant too
    exports = [certificate_export(c, folder / f"Planted_{k}.v") for k, c in enumerate(certificates.values())]
    return dict(zip(certificates, export_files(exports, True), strict=True))


def assert_never_accepted(record: dict) -> None:
    """A planted certificate's record: not accepted by coqc, and either rejected or resting on a named
    hypothesis (a lemma coqc could not prove)."""
    assert record["coq"] != "accepted", record
    assert record["rests_on_hypotheses"] or record["coq"] == "rejected", record
