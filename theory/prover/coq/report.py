"""What became of an exported statement, as the CLI prints it: the record's statuses and its one line.

Imports nothing heavy (no kernel, no python-flint), so a command can format records it did not make.
"""

from __future__ import annotations

from typing import Any

from theory.prover.box import count_of_boxes

STATUSES = ("accepted", "hypotheses", "rejected", "unchecked", "untranslated")
"""Every value of a record's "coq" field."""


def line(record: dict[str, Any]) -> str:
    """One line saying what became of an exported statement."""
    if record["coq"] == "untranslated":
        return f"coq: not exported ({record['reason']})"
    text = (
        f"coq: {record['coq']}: {record['file']} ({count_of_boxes(record['boxes'])}, {record['bytes']} bytes"
    )
    if "coqc_cpu_seconds" in record:
        text += f", coqc {record['coqc_cpu_seconds']:.1f} CPU s"
    text += ")"
    if record["hypotheses"]:
        text += "; hypotheses: " + "; ".join(f"{h['name']} ({h['reason']})" for h in record["hypotheses"])
    if record.get("reason"):
        text += f"; {record['reason']}"
    return text
