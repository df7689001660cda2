"""``specbound check --compare OLD.json``: what changed between an earlier run and this one.

OLD.json is the output of ``specbound check --json`` or the ``claims.json`` of ``--report``. A claim is
listed when its verdict, provenance or evidence changed, or when it exists in only one of the two runs.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from theory.errors import InvalidArgument


def load_claims(path: str) -> dict[str, dict[str, Any]]:
    """The claims of an earlier run, by id; a clear error when the file is not a check output."""
    try:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise InvalidArgument(f"--compare {path!r} cannot be read: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise InvalidArgument(f"--compare {path!r} is not JSON ({error.msg}, line {error.lineno})") from None
    claims = document.get("claims") if isinstance(document, dict) else None
    if not isinstance(claims, list) or not all(isinstance(c, dict) and "id" in c for c in claims):
        raise InvalidArgument(
            f"--compare {path!r} has no claims list; "
            "give the output of `specbound check --json` or a claims.json"
        )
    return {str(c["id"]): c for c in claims}


def changes(old: Mapping[str, Mapping[str, Any]], new: Sequence[Mapping[str, Any]]) -> list[dict[str, str]]:
    """One row per claim that changed: id, old and new verdict, and which fields changed."""
    rows = []
    current = {str(c["id"]): c for c in new}
    for claim_id in sorted(set(old) | set(current), key=_order):
        before, after = old.get(claim_id), current.get(claim_id)
        if before is None or after is None:
            what = "new claim" if before is None else "claim removed"
        else:
            changed = [
                f for f in ("verdict", "provenance", "evidence", "title") if before.get(f) != after.get(f)
            ]
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


def _order(claim_id: str) -> tuple[int, str]:
    digits = "".join(ch for ch in claim_id if ch.isdigit())
    return (int(digits) if digits else 10**6, claim_id)


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
