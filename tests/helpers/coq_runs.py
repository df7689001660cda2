"""Runs of the Coq export that several test modules share: the prover's certificate of a statement (which
the kernel accepts), an exported certificate checked by coqc, ``prove --coq`` accepted with nothing but
the trusted axioms, exact rationals around an arb enclosure, the laws of exponents proved (or a
planted wrong one refused) by ``sb_identity_laws``, and a rewrite identity's routes but the grouped one
made to fail.

Needs python-flint: a test module calls ``pytest.importorskip("flint")`` before importing this one."""

from __future__ import annotations

import contextlib
import io
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from paper_checks.cli import main
from theory.prover import prove
from theory.prover.coq import export
from theory.prover.coq.coqc import TRUSTED_AXIOMS, CoqCheck, check_file
from theory.prover.coq.export import CoqExport, export_certificate
from theory.prover.coq.preamble import preamble
from theory.prover.kernel import check_certificate


def proved_certificate(statement: str, domain: str) -> dict:
    """The prover's certificate of the statement, which the kernel accepts."""
    result = prove(statement, domain, 30.0)
    assert result.status == "proved", result
    (part,) = result.parts
    certificate: dict = part.certificate.to_json()
    assert check_certificate(certificate).accepted
    return certificate


def only_the_grouped_route(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rewrite identity's other routes (the laws of exponents, the search with the roots' relations) made
    to fail, so that only the grouped route (theory/prover/coq/grouped.py) can prove it."""
    monkeypatch.setattr(export._Writer, "_laws", lambda self, sides: "fail")
    monkeypatch.setattr(export, "root_relations", lambda sides, positive, closing="": ("", "fail"))


def exported_and_checked(certificate: dict, tmp_path: Path) -> tuple[CoqExport, CoqCheck]:
    """The certificate exported to tmp_path/Statement.v, and coqc's verdict on it, its hypotheses named."""
    exported = export_certificate(certificate)
    path = tmp_path / "Statement.v"
    path.write_text(exported.text, encoding="utf-8")
    return exported, check_file(path, tuple(h.name for h in exported.hypotheses))


def coq_checked(certificate: dict, tmp_path: Path) -> CoqCheck:
    """coqc's verdict on the certificate exported to tmp_path/Statement.v, its hypotheses named."""
    return exported_and_checked(certificate, tmp_path)[1]


UNPROVED = re.compile(r"\b(Admitted|admit|Axioms?|Hypothes[ie]s|Parameters?|Conjecture)\b")
"""What a Coq file may not contain to count as proved: an admitted proof or a declared premise."""


def proved_with_coq(statement: str, domain: str, target: Path, *flags: str) -> tuple[dict, str]:
    """``specbound prove statement --domain domain [flags] --coq target --json`` exits 0, coqc accepted
    the file with no hypothesis left and only the axioms of Coq's reals and Interval (``TRUSTED_AXIOMS``),
    and the file admits and declares nothing (:data:`UNPROVED`): the JSON document and the file's text."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["prove", statement, "--domain", domain, *flags, "--coq", str(target), "--json"])
    document = json.loads(out.getvalue())
    (record,) = document["coq"]
    assert (status, record["coq"], record["rests_on_hypotheses"]) == (0, "accepted", False), record
    assert all(axiom.startswith(TRUSTED_AXIOMS) for axiom in record["axioms"]), record["axioms"]
    text = target.read_text(encoding="utf-8")
    assert not UNPROVED.search(text), UNPROVED.search(text)
    return document, text


def bracket(value: object) -> tuple[Fraction, Fraction]:
    """Exact rationals around an arb enclosure (a point's Set), 1e-12 relative wider."""
    lo, hi = value.lo, value.hi  # type: ignore[attr-defined]
    low = exact_fraction(lo.lower())
    high = exact_fraction(hi.upper())
    slack = (abs(low) + abs(high) + 1) * Fraction(1, 10**12)
    return low - slack, high + slack


def exact_fraction(ball: object) -> Fraction:
    """An exact arb (radius 0: an endpoint from lower() or upper()) as a Fraction: mantissa 2^exponent."""
    mantissa, exponent = ball.man_exp()  # type: ignore[attr-defined]
    return Fraction(int(mantissa)) * Fraction(2) ** int(exponent)


LAWS = {
    "sum": "Rpower 2 v_x * Rpower 2 v_y = Rpower 2 (v_x + v_y)",
    "product": "Rpower (3 * (v_x + 1)) v_y = Rpower 3 v_y * Rpower (v_x + 1) v_y",
    "nested": "Rpower (Rpower (v_x + 1) v_y) 2 = Rpower (v_x + 1) (2 * v_y)",
    "inverse": "5 * Rpower 2 v_x * v_y * Rpower 2 (- v_x) = 5 * v_y",
    "atoms": "Rpower (1 * v_x + 1) (v_y * / (2 + v_x)) = Rpower (v_x + 1) (/ (v_x + 2) * v_y)",
}
"""Laws of exponents for positive bases, as Coq terms over v_x, v_y in [0, 1]."""
PLANTED_LAW = "Rpower 2 v_x * Rpower 2 v_y = Rpower 2 (v_x * v_y)"
"""a^x a^y = a^(x y): false at x = y = 1/2 (2^(1/2) 2^(1/2) = 2, 2^(1/4) < 2)."""


def identities_checked(claims: list[str], tmp_path: Path, tactic: str = "sb_identity_laws") -> object:
    """coqc's verdict on one file stating each claim for v_x, v_y in [0, 1], proved by ``tactic``."""
    text = preamble() + "".join(
        f"\nLemma law_{k} : forall v_x v_y, 0 <= v_x <= 1 -> 0 <= v_y <= 1 -> {claim}.\n"
        f"Proof. intros v_x v_y B_v_x B_v_y. {tactic}. Qed.\n"
        for k, claim in enumerate(claims)
    )
    path = tmp_path / "Laws.v"
    path.write_text(text, encoding="utf-8")
    return check_file(path)
