"""prove --check prints only what the kernel checked (theory.recheck): a result file whose status,
headline statement or parts were edited is rejected, and the domain (here the integers) is printed."""

from __future__ import annotations

import contextlib
import io
import json

import pytest

pytest.importorskip("flint", reason="the prover needs python-flint")

from paper_checks.cli import main


def _run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(argv)
    return status, out.getvalue()


@pytest.fixture(scope="module")
def integer_result() -> dict:
    status, text = _run(["prove", "x^2 <= 100 and x >= -10", "--domain", "x: integer in [-10, 10]", "--json"])
    assert status == 0
    return json.loads(text)


def _check(tmp_path, document: dict) -> tuple[int, str]:
    path = tmp_path / "result.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return _run(["prove", "--check", str(path)])


def test_an_untouched_result_prints_its_statement_and_integer_domain(tmp_path, integer_result):
    status, text = _check(tmp_path, integer_result)
    assert status == 0 and "REJECTED" not in text
    assert "accepted: x^2 <= 100 and x >= -10  over  x: integer in [-10, 10]" in text


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("statement", "x^2 <= 50 and x >= -10"),  # false at x = 8 (64 > 50): not what was certified
        ("statement", "x^2 <= 100"),  # one part dropped from the headline
        ("domain", "x: [-10, 10]"),  # the reals: a different claim than the certificates'
        ("status", "refuted"),
    ],
)
def test_an_edited_headline_is_rejected(tmp_path, integer_result, key, value):
    status, text = _check(tmp_path, {**integer_result, key: value})
    assert status == 1 and "REJECTED" in text.splitlines()[-1]


def test_a_part_without_certificate_rejects_the_file_even_when_its_status_says_proved(tmp_path):
    status, text = _run(["prove", "x >= 0 and x <= 1/2", "--domain", "x: [0, 1]", "--json"])
    assert status == 1  # refuted: x = 1 > 1/2
    document = {**json.loads(text), "status": "proved"}
    status, text = _check(tmp_path, document)
    assert status == 1 and "part 2 has no certificate" in text


def test_a_certificate_whose_text_is_edited_is_rejected(tmp_path, integer_result):
    certificate = dict(integer_result["inequalities"][0]["certificate"], inequality="1 >= 2")
    status, text = _check(tmp_path, certificate)
    assert status == 1 and "accepted" not in text
