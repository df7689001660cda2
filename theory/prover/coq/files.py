"""Write the Coq files of proved statements and check them: the step ``prove --coq`` and ``theory --coq``
share.

``export_to(certificate, path, check)`` writes the file (unless the certificate cannot be stated in Coq
yet) and, when ``check``, runs coqc on it; the record it returns is what the JSON outputs carry:
{"file", "boxes", "bytes", "coq": accepted | rejected | hypotheses | unchecked | untranslated, ...}.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from theory.errors import InvalidArgument
from theory.prover.coq.coqc import check_file
from theory.prover.coq.export import export_certificate
from theory.prover.coq.terms import Untranslatable

STATUSES = ("accepted", "hypotheses", "rejected", "unchecked", "untranslated")
"""Every value of a record's "coq" field."""


def export_to(certificate: Any, path: Path, check: bool, title: str = "") -> dict[str, Any]:
    """Export ``certificate`` to ``path`` and check it with coqc when ``check`` (see the module). A box
    or face lemma coqc cannot prove is stated as a named hypothesis (with coqc's error as its reason) and
    the file is checked again, so the record names every premise the theorem still rests on."""
    assumed: dict[str, str] = {}
    while True:
        try:
            exported = export_certificate(certificate, title, assumed)
        except Untranslatable as reason:
            return {"file": None, "coq": "untranslated", "reason": str(reason)}
        _write(path, exported.text)
        if not check:
            return {**_record(path, exported), "coq": "unchecked"}
        verdict = check_file(path, tuple(h.name for h in exported.hypotheses))
        failed = _lemma_at(exported.text, verdict.line) if verdict.status == "rejected" else None
        if failed is None or failed in assumed:
            break
        assumed[failed] = f"coqc could not prove it: {verdict.reason}"
    checked = verdict.to_json()
    return {
        **_record(path, exported),
        "coq": checked["status"],
        "coqc_cpu_seconds": checked["coqc_cpu_seconds"],
        "axioms": checked["axioms"],
        **({"reason": verdict.reason} if verdict.reason else {}),
    }


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise InvalidArgument(f"cannot write the Coq file {path}: {error.strerror}") from None


def _lemma_at(text: str, line: int | None) -> str | None:
    """The box or face lemma whose statement or proof holds ``line`` (1-based), or None (the preamble,
    the theorem)."""
    if line is None:
        return None
    lines = text.splitlines()
    for index in range(min(line, len(lines)) - 1, -1, -1):
        current = lines[index]
        if current.startswith("Lemma box_"):
            return current.split()[1]
        ends_earlier_proof = current.startswith("Qed.") and index != line - 1
        if ends_earlier_proof or current.startswith(("Lemma ", "Theorem ", "Hypothesis ", "Definition ")):
            return None
    return None


def _record(path: Path, exported: Any) -> dict[str, Any]:
    return {
        "file": str(path),
        "boxes": exported.boxes,
        "bytes": len(exported.text.encode("utf-8")),
        "hypotheses": [h.to_json() for h in exported.hypotheses],
    }


def line(record: dict[str, Any]) -> str:
    """One line saying what became of an exported statement."""
    if record["coq"] == "untranslated":
        return f"coq: not exported ({record['reason']})"
    text = f"coq: {record['coq']}: {record['file']} ({record['boxes']} boxes, {record['bytes']} bytes"
    if "coqc_cpu_seconds" in record:
        text += f", coqc {record['coqc_cpu_seconds']:.1f} CPU s"
    text += ")"
    if record["hypotheses"]:
        text += "; hypotheses: " + "; ".join(f"{h['name']} ({h['reason']})" for h in record["hypotheses"])
    if record.get("reason"):
        text += f"; {record['reason']}"
    return text
