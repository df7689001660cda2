"""``specbound check --compare OLD.json``: what changed between an earlier run and this one.

OLD.json is the output of ``specbound check --json`` or the ``claims.json`` of ``--report``. A claim is
listed when its verdict, provenance or evidence changed, or when it exists in only one of the two runs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from numerics.safe_io import read_json
from theory.errors import InvalidArgument

COMPARED_FIELDS = ("verdict", "provenance", "evidence", "title")
"""The fields of a claim that :func:`changes` compares (each a string when present)."""


def load_claims(path: str) -> dict[str, dict[str, Any]]:
    """The claims of an earlier run, by id; one clear error when the file is not a check output (not a
    regular JSON file, or a claim without a string id or with a compared field that is not a string)."""
    document = read_json(Path(path), f"--compare {path!r}", InvalidArgument)
    claims = document.get("claims") if isinstance(document, dict) else None
    if not isinstance(claims, list) or not all(isinstance(c, dict) and "id" in c for c in claims):
        raise InvalidArgument(
            f"--compare {path!r} has no claims list; "
            "give the output of `specbound check --json` or a claims.json"
        )
    for claim in claims:
        wrong = [f for f in ("id", *COMPARED_FIELDS) if f in claim and not isinstance(claim[f], str)]
        if wrong:
            raise InvalidArgument(
                f"--compare {path!r}: a claim's {wrong[0]} is a JSON {type(claim[wrong[0]]).__name__}, "
                "expected a string; give the output of `specbound check --json` or a claims.json"
            )
    return {c["id"]: c for c in claims}


def changes(old: Mapping[str, Mapping[str, Any]], new: Sequence[Mapping[str, Any]]) -> list[dict[str, str]]:
    """One row per claim that changed: id, old and new verdict, and which fields changed."""
    rows = []
    current = {str(c["id"]): c for c in new}
    for claim_id in sorted(set(old) | set(current), key=_order):
        before, after = old.get(claim_id), current.get(claim_id)
        if before is None or after is None:
            what = "new claim" if before is None else "claim removed"
        else:
            changed = [f for f in COMPARED_FIELDS if before.get(f) != after.get(f)]
            if not changed:
                continue
            what = ", ".join(changed)
        rows.append(
            {
                "id": claim_id,
                "old": str(before.get("verdict", "-")) if before else "-",
                "new": str(after.get("verdict", "-")) if after else "-",
                "changed": what,
                "evidence": str(after.get("evidence", "")) if after else "",
            }
        )
    return rows


def _order(claim_id: str) -> tuple[bool, int, str, str]:
    """Claims in the order of the number in their id (8, 8c, 10, ...), ids without one last; compared as
    digit strings, so an id of any length orders without an int conversion (Python's limit is 4300 digits)."""
    digits = "".join(ch for ch in claim_id if ch in "0123456789")
    number = digits.lstrip("0") or digits[:1]
    return (not digits, len(number), number, claim_id)


def format_changes(rows: Sequence[Mapping[str, str]], old_path: str) -> str:
    """A short table of the changed claims, or one line saying nothing changed."""
    if not rows:
        return f"compared with {old_path}: no verdict or evidence changed"
    lines = [f"compared with {old_path}: {len(rows)} claim(s) changed", "id    old       new       changed"]
    for r in rows:
        lines.append(f"{r['id']:5} {r['old']:9} {r['new']:9} {r['changed']}")
        if "evidence" in r["changed"]:
            lines.append(f"      now: {r['evidence'][:100]}")
    return "\n".join(lines)
