"""Turn theory's lemma self-checks into a claim verdict (the checks themselves live in :mod:`theory`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from paper_checks.registry import Verdict
from theory.lemma import Lemma

UNDECIDED_PREFIXES = ("undecided", "check raised", "negative control not rejected")
"""Witness prefixes with which theory reports a check that reached no decision (theory.lemma.Check); a
check whose negative control was accepted rests on a helper that lies, so it decides nothing either."""


def check_records(lemmas: Iterable[Lemma], names: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """The named self-checks of ``lemmas`` (all when ``names`` is None) as JSON records with their lemma."""
    records = []
    for lemma in lemmas:
        for result in lemma.results:
            if names is None or result.name in names:
                records.append(
                    {"lemma": lemma.name, "provenance": lemma.tag.provenance.value, **result.to_json()}
                )
    return records


def verdict_of(records: Sequence[dict[str, Any]], expected: int | None = None) -> Verdict:
    """verified when every check passed (and ``expected`` of them ran); open when one is undecided or
    missing; refuted when a decided check failed."""
    if expected is not None and len(records) < expected:
        return Verdict.OPEN
    failed = [r for r in records if not r["passed"]]
    if not failed and records:
        return Verdict.VERIFIED
    if any(str(r["witness"]).startswith(UNDECIDED_PREFIXES) for r in failed) or not records:
        return Verdict.OPEN
    return Verdict.REFUTED


def one_line(records: Sequence[dict[str, Any]]) -> str:
    """``name: passed/FAILED`` for each check, for the evidence column."""
    return "; ".join(
        f"{r['name']}: {'passed' if r['passed'] else 'FAILED (' + str(r['witness'])[:80] + ')'}"
        for r in records
    )
