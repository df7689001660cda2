"""``prove`` on a statement that is not a sum of monomials searches its typed tree (the text as typed),
without sympy; the certificate names that tree, ``prove --check`` binds it to the text and rejects a
tampered one; a typed search left undecided falls back to sympy's gap, whose certificate is accepted too.

The references are hand-written trees of the texts (the language's typed forms: a/b as a*b^-1, sqrt(a)
as a^(1/2), a - b as a + -1*b) and sympy's own reading of the text.
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys

import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

import theory.prover as prover
from paper_checks.cli import main
from tests.helpers.coq_marks import NEEDS_COQC
from tests.helpers.coq_runs import coq_checked
from tests.helpers.paths import ROOT
from theory.prover import check_certificate, prove
from theory.prover.domain import parse_domain
from theory.prover.statement import parse_statement

X, Y = ["var", "x"], ["var", "y"]


def _minus(a, b):
    return ["add", a, ["mul", ["num", "-1"], b]]


EASY = [
    ("Max(x^2, x) >= x", "x: [0, 2]"),
    ("floor(x) <= x", "x: [0, 3]"),
    ("Min(exp(x), 2) <= exp(x)", "x: real"),
    ("sqrt(x) + sqrt(y) <= sqrt(2*(x + y))", "x: [0, 1], y: [0, 1]"),
    ("x^y <= 1", "x: [0, 1], y: [0, 3]"),
    ("Piecewise((x, x < 1/2), (1 - x, True)) <= 1/2", "x: [0, 1]"),
    ("exp(x) >= 1 + x", "x: real"),
    ("Abs(x - 1) >= 0", "x: real"),
]
PROBE = """
import contextlib, io, json, sys
from paper_checks.cli import main
statuses = []
for text, domain in json.loads(sys.argv[1]):
    with contextlib.redirect_stdout(io.StringIO()):
        statuses.append(main(["prove", text, "--domain", domain, "--quiet"]))
heavy = [name for name in ("sympy", "numpy", "mpmath") if name in sys.modules]
print(json.dumps({"statuses": statuses, "heavy": heavy}))
"""


def test_easy_statements_of_every_kind_are_proved_without_importing_sympy_numpy_or_mpmath():
    probe = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(EASY)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=True,
    )
    found = json.loads(probe.stdout)
    assert found["statuses"] == [0] * len(EASY)
    assert found["heavy"] == []


@pytest.mark.parametrize(
    ("text", "domain", "gap"),
    [
        ("Max(x^2, x) >= x", "x: [0, 2]", _minus(["max", ["pow", X, ["num", "2"]], X], X)),
        ("sqrt(x) <= 1", "x: [0, 1]", _minus(["num", "1"], ["pow", X, ["num", "1/2"]])),
        ("x/y <= x", "x: [0, 1], y: [1, 2]", _minus(X, ["mul", X, ["pow", Y, ["num", "-1"]]])),
    ],
)
def test_the_certificate_names_the_text_as_typed(text, domain, gap):
    (part,) = prove(text, domain, 20).parts
    assert part.status == "proved"
    assert part.certificate.to_json()["gap"] == gap


def _checked(tmp_path, certificate) -> tuple[int, str]:
    path = tmp_path / "certificate.json"
    path.write_text(json.dumps(certificate), encoding="utf-8")
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        status = main(["prove", "--check", str(path)])
    return status, output.getvalue()


def test_tampered_typed_tree_certificates_are_rejected_by_prove_check(tmp_path):
    (part,) = prove("Max(x^2, x) >= x", "x: [0, 2]", 20).parts
    original = part.certificate.to_json()
    status, text = _checked(tmp_path, original)
    assert status == 0 and text.startswith("accepted: Max(x^2, x) >= x")
    half = ["mul", ["num", "1/2"], X]
    tampered = [
        {**original, "inequality": "Max(x^2, x) >= x + 1/10"},  # another text, the same gap
        {**original, "gap": _minus(["max", ["pow", X, ["num", "2"]], X], half)},  # another (true) gap
        {**original, "strict": True},  # Max(x^2, x) > x is false at x = 0 and x = 1
        {**original, "domain": [{**original["domain"][0], "lower": "-1"}]},  # the cover misses [-1, 0)
    ]
    for certificate in tampered:
        status, text = _checked(tmp_path, certificate)
        assert status == 1 and "REJECTED" in text, (certificate, text)


def test_an_undecided_typed_search_falls_back_to_sympys_gap(monkeypatch):
    monkeypatch.setattr(prover, "TYPED_SHARE", 0.0)  # the typed search has no time: undecided at once
    domain = parse_domain("x: [0, 2]")
    (part,) = prove("Max(x^2, x) >= x", "x: [0, 2]", 20).parts
    assert part.status == "proved"
    certificate = part.certificate.to_json()
    (sympys,) = parse_statement("Max(x^2, x) >= x", domain).inequalities
    (typed,) = parse_statement("Max(x^2, x) >= x", domain, symbolic=False).inequalities
    assert typed.as_typed and certificate["gap"] == sympys.gap_tree() != typed.gap_tree()
    assert check_certificate(certificate).accepted


@pytest.mark.slow
@pytest.mark.coq
@NEEDS_COQC
@pytest.mark.parametrize(
    ("text", "domain"),
    [("sqrt(x) + sqrt(y) <= sqrt(2*(x + y))", "x: [0, 1], y: [0, 1]"), ("exp(x) >= 1 + x", "x: real")],
)
def test_typed_tree_certificates_are_accepted_by_coqc(tmp_path, text, domain):
    (part,) = prove(text, domain, 30).parts
    certificate = part.certificate.to_json()
    (read,) = parse_statement(text, parse_domain(domain), symbolic=False).inequalities
    assert read.as_typed and certificate["gap"] == read.typed
    verdict = coq_checked(certificate, tmp_path)
    assert verdict.status == "accepted", verdict.reason
