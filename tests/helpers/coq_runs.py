"""Runs of the Coq export that several test modules share: the prover's certificate of a statement (which
the kernel accepts), an exported certificate checked by coqc, ``prove --coq`` accepted with nothing but
the trusted axioms, several statements' files (and Coq texts of a test's own) judged by coqc together
(one process, one ``Print Assumptions`` over all their theorems: Coq's walk through Interval's proofs,
6-7 CPU s, paid once a module instead of once a statement), exact rationals around an arb enclosure, the
laws of exponents proved (or a planted wrong one refused) by ``sb_identity_laws``, and a rewrite
identity's routes but the grouped one made to fail.

Needs python-flint: a test module calls ``pytest.importorskip("flint")`` before importing this one."""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest

from paper_checks.cli import main
from tests.helpers.certificates import box_certificate, domain_variable
from tests.helpers.mp_reference import evaluate
from theory.prover import prove
from theory.prover.coq import export
from theory.prover.coq.coqc import TRUSTED_AXIOMS, CoqCheck, check_file, check_files
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


def exported_on_half_line(gap: list, strict: bool = True) -> str:
    """The Coq text of gap > 0 (gap >= 0 when not strict) for x in [0, oo), one box decided by enclosure,
    exported with no hypothesis."""
    domain = [domain_variable("x", "0", "oo", upper_open=True)]
    boxes = [{"box": {"x": ["0", "oo"]}, "decision": {"method": "enclosure"}}]
    exported = export_certificate(box_certificate(gap, domain, boxes, strict=strict))
    assert exported.hypotheses == []
    return exported.text


def rewritten_on_1_2(gap: list, form: list) -> dict:
    """A certificate of gap > 0 for x in [1, 2], its one box decided by rewriting the gap as ``form``,
    then by enclosure."""
    decision = {"method": "rewrite", "form": form, "then": {"method": "enclosure"}}
    boxes = [{"box": {"x": ["1", "2"]}, "decision": decision}]
    return box_certificate(gap, [domain_variable("x", "1", "2")], boxes, strict=True)


def agree_on_1_2(left: list, right: list, seed: int) -> bool:
    """Whether two trees in x are equal (to 1e-50) at 20 random points of [1, 2], in mpmath at 60 digits."""
    generator = random.Random(seed)
    with mpmath.workdps(60):
        for _ in range(20):
            point = {"x": 1 + mpmath.mpf(generator.randint(0, 10**6)) / 10**6}
            if abs(evaluate(left, point) - evaluate(right, point)) > mpmath.mpf(10) ** -50:
                return False
    return True


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


@dataclass(frozen=True)
class Judged:
    """A statement exported by ``prove --coq FILE --no-coq-check`` and judged with others: its JSON
    document, its file's text and coqc's verdict."""

    document: dict
    text: str
    verdict: CoqCheck


def judged_together(commands: dict, folder: Path) -> dict:
    """key -> :class:`Judged`: each command (a ``prove`` or ``derive`` argument list) run with ``--coq
    folder/Statement_k.v --no-coq-check --json`` (exit 0: proved and written), then coqc on every file at
    once (:func:`judged_with` with no other text)."""
    return judged_with(commands, {}, folder)[0]


def proved_together(cases: list[tuple[str, ...]], folder: Path, *flags: str) -> dict:
    """case -> :class:`Judged` for cases (statement, domain, ...): ``prove statement --domain domain
    [flags]`` each, judged together (:func:`judged_together`)."""
    return proved_with(cases, {}, folder, *flags)[0]


def assert_accepted(judged: Judged) -> None:
    """What ``prove --coq`` exiting 0 asserts of a file (:func:`proved_with_coq`), for a file judged with
    others: written with no hypothesis, accepted by coqc with only the trusted axioms, nothing admitted
    or declared in its text."""
    (record,) = judged.document["coq"]
    assert (record["coq"], record["rests_on_hypotheses"]) == ("unchecked", False), record
    assert judged.verdict.status == "accepted", judged.verdict
    assert all(axiom.startswith(TRUSTED_AXIOMS) for axiom in judged.verdict.axioms), judged.verdict.axioms
    assert not UNPROVED.search(judged.text), UNPROVED.search(judged.text)


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


def judged_with(commands: dict, texts: dict, folder: Path) -> tuple[dict, dict[object, CoqCheck]]:
    """(key -> :class:`Judged`, name -> coqc's verdict): each command (a ``prove`` or ``derive`` argument
    list) run with ``--coq folder/Statement_k.v --no-coq-check --json`` (exit 0: proved and written) and
    each Coq text (name -> text) written to
    ``folder/Text_k.v``, then coqc on every file at once (one :func:`~theory.prover.coq.coqc.check_files`
    call: the files share a process and one ``Print Assumptions``; a file that fails or an untrusted axiom
    sends files to be compiled again, alone when an axiom, so a verdict is always its file's own)."""
    documents, paths = [], []
    for k, command in enumerate(commands.values()):
        paths.append(folder / f"Statement_{k}.v")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = main([*command, "--coq", str(paths[-1]), "--no-coq-check", "--json"])
        assert status == 0, out.getvalue()
        documents.append(json.loads(out.getvalue()))
    written = [folder / f"Text_{k}.v" for k in range(len(texts))]
    for path, text in zip(written, texts.values(), strict=True):
        path.write_text(text, encoding="utf-8")
    verdicts = check_files([(path, ()) for path in paths + written])
    judged = {
        key: Judged(document, path.read_text(encoding="utf-8"), verdict)
        for key, document, path, verdict in zip(
            commands, documents, paths, verdicts[: len(paths)], strict=True
        )
    }
    return judged, dict(zip(texts, verdicts[len(paths) :], strict=True))


def proved_with(cases: list[tuple[str, ...]], texts: dict, folder: Path, *flags: str) -> tuple[dict, dict]:
    """:func:`judged_with` for cases (statement, domain, ...) proved as in :func:`proved_together`."""
    return judged_with(
        {case: ["prove", case[0], "--domain", case[1], *flags] for case in cases}, texts, folder
    )
