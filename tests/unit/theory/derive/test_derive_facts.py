"""derive takes the lemmas and chain pieces a file may name as a parameter (theory.derive.facts.Facts): a
lemma of the caller's own, not the paper's, is used like the paper's; without facts, a ``lemma:`` or
``piece:`` reference is one clear error naming that none was given."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("flint", reason="the prover needs python-flint")

from theory.derive import Facts, MalformedDerivation, check_derivation, derive
from theory.prover.lemma_inequalities import inequality

USES_LEMMA = (
    '[variables]\nx = "[0, 1]"\n[[steps]]\nexpr = "x^2"\n'
    '[[steps]]\nrelation = "<="\nexpr = "x^2 + (2 - x)"\nuses = ["lemma:below_two"]\n'
)


def _own_facts() -> Facts:
    """One lemma of the caller's, none of the paper's: x < 2 over [0, 1] (strict, so the step's gap enters
    as Max(g, -(2 - x)) >= 0)."""
    return Facts(lambda: [inequality("own", "below_two", [("x", "<", 2)], "x: [0, 1]", "none")])


def test_a_lemma_of_the_callers_own_is_named_and_its_certificate_checked(tmp_path: Path):
    path = tmp_path / "own.toml"
    path.write_text(USES_LEMMA, encoding="utf-8")
    result = derive(path, 5, _own_facts())
    assert result.status == "proved", result.to_json(False)
    (record,) = result.certificate()["steps"][0]["assumptions"]
    assert record["kind"] == "lemma" and record["name"] == "below_two"
    assert check_derivation(result.certificate()).accepted


@pytest.mark.parametrize(
    ("use", "message"),
    [
        ('uses = ["lemma:below_two"]', "unknown lemma 'below_two' (none given)"),
        ('by = "piece:head"', "unknown piece 'head' (no chain given)"),
    ],
)
def test_without_facts_a_named_lemma_or_piece_is_one_clear_error(tmp_path: Path, use: str, message: str):
    path = tmp_path / "no_facts.toml"
    path.write_text(USES_LEMMA.replace('uses = ["lemma:below_two"]', use), encoding="utf-8")
    with pytest.raises(MalformedDerivation, match=message.replace("(", r"\(").replace(")", r"\)")):
        derive(path, 5)
