"""What became of an exported statement, as the CLI prints it: the record's statuses and its one line.

Imports nothing heavy (no kernel, no python-flint), so a command can format records it did not make.
"""

from __future__ import annotations

from typing import Any

from theory.prover.box import count_of_boxes

STATUSES = ("accepted", "hypotheses", "rejected", "timeout", "unchecked", "untranslated")
"""Every value of a record's "coq" field."""

NOT_ACCEPTED = 4
"""The exit status of ``prove --coq``, ``theory --coq`` and ``derive --coq`` when a proof was exported and
checked but coqc did not accept every file with no hypothesis (a file rejected, over coqc's time limit,
resting on hypotheses, or not translatable): coqc is the judge where it runs, so the kernel's "proved"
alone does not give status 0."""
NOT_ACCEPTED_STATUSES = ("rejected", "timeout", "hypotheses", "untranslated")
"""The records' statuses that give :data:`NOT_ACCEPTED` (``unchecked``, written with ``--no-coq-check``,
leaves the prover's status: the user asked for no judge)."""


def coq_verdict(records: list[dict[str, Any]]) -> str | None:
    """What coqc made of the exported files as one word: the first of rejected, timeout, hypotheses,
    untranslated found among them, else unchecked when one is, else accepted; None when nothing was
    exported."""
    if not records:
        return None
    found = {record["coq"] for record in records}
    for status in (*NOT_ACCEPTED_STATUSES, "unchecked"):
        if status in found:
            return status
    return "accepted"


def exit_status(status: int, records: list[dict[str, Any]]) -> int:
    """The command's exit status: ``status`` (the prover's), or :data:`NOT_ACCEPTED` in its place when it
    is 0 and :func:`coq_verdict` says coqc did not accept every file."""
    return NOT_ACCEPTED if status == 0 and coq_verdict(records) in NOT_ACCEPTED_STATUSES else status


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
