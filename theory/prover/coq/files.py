"""Write the Coq files of proved statements and check them: the step ``prove --coq``, ``theory --coq`` and
``derive --coq`` share.

``export_files(exports, check, jobs)`` writes each :class:`Export`'s file (a box certificate's by
:mod:`theory.prover.coq.export`, a chain certificate's by :mod:`theory.prover.coq.chain`, a derivation's
by :mod:`theory.prover.coq.derivation`; nothing when it cannot be stated in Coq yet) and, when ``check``,
runs coqc on them all (:func:`~theory.prover.coq.coqc.check_files`: several files per coqc process,
``jobs`` processes at once). Only a file coqc rejects is probed: the probe finds the lemmas coqc cannot
prove by the certificate's method, the file is written again with them as named hypotheses and checked
again, so its record names every premise the theorem still rests on. ``export_to`` is one certificate.
The record each file gets is what the JSON outputs carry:
{"file", "boxes", "bytes", "coq": accepted | rejected | hypotheses | timeout | unchecked | untranslated,
"hypotheses", "rests_on_hypotheses", ...}: ``rests_on_hypotheses`` is true when the written file's theorem
takes a named hypothesis (a box, face or identity not proved in Coq, each with its reason), whatever
coqc then says of the file.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from theory.prover.chain import CHAIN_FORMAT
from theory.prover.coq.chain import export_chain
from theory.prover.coq.coqc import CoqCheck, check_files, unproved
from theory.prover.coq.export import PROBE_MARK, CoqExport, export_certificate
from theory.prover.coq.terms import POWER_AT_ZERO, Untranslatable
from theory.prover.coq.writing import write_coq_file

UNPROVED = (
    "coqc could not prove it by the certificate's method (Interval at 64 and 256 bits, then bisecting "
    "the box; Interval reads closed bounded ranges, the kernel's balls also open and infinite ends; a "
    "chain's ranges and factors node by node, its identity by sb_identity)"
)

AT_ZERO = (
    "; the gap has sb_rpow (a power whose base reaches 0, defined by cases), which Interval and "
    "auto_derive do not evaluate"
)


@dataclass(frozen=True)
class Export:
    """One file to write: its path, its text with the given lemmas assumed (name -> reason), the text of
    its probe (None: it has none), and fields its record carries besides."""

    path: Path
    text: Callable[[dict[str, str]], CoqExport]
    probe: Callable[[], CoqExport] | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def certificate_export(certificate: Any, path: Path, title: str = "") -> Export:
    """The :class:`Export` of a box or chain certificate (see the module)."""
    exporter = export_chain if certificate.get("format") == CHAIN_FORMAT else export_certificate
    return Export(
        path,
        lambda assumed: exporter(certificate, title, assumed),
        lambda: exporter(certificate, title, probe=True),
    )


def export_to(
    certificate: Any, path: Path, check: bool, title: str = "", replace: bool = False
) -> dict[str, Any]:
    """Export ``certificate`` to ``path`` and check it with coqc when ``check`` (see the module). An
    existing ``path`` is replaced only with ``replace`` (see :func:`_write`)."""
    return export_files([certificate_export(certificate, path, title)], check, replace)[0]


def export_files(
    exports: list[Export], check: bool, replace: bool = False, jobs: int = 1
) -> list[dict[str, Any]]:
    """Write every export's file and check them with coqc when ``check`` (see the module): one record
    each, in order."""
    records: list[dict[str, Any]] = [{} for _ in exports]
    written: dict[int, CoqExport] = {}
    for index, export in enumerate(exports):
        try:
            written[index] = export.text({})
        except Untranslatable as reason:
            records[index] = {"file": None, "coq": "untranslated", "reason": str(reason)}
            continue
        _write(export.path, written[index].text, replace)
    if not check:
        for index, exported in written.items():
            records[index] = {**_record(exports[index], exported), "coq": "unchecked"}
        return records
    order = sorted(written)
    verdicts = dict(zip(order, _checked(exports, written, order, jobs), strict=True))
    probed: dict[int, float] = {}
    for index in [i for i in order if verdicts[i].status == "rejected"]:
        again = _probed(exports[index])
        if again is not None:
            probed[index], written[index] = again
            _write(exports[index].path, written[index].text, True)  # the file just written, replaced
    retried = sorted(probed)
    for index, verdict in zip(retried, _checked(exports, written, retried, jobs), strict=True):
        verdicts[index] = dataclasses.replace(verdict, seconds=verdict.seconds + verdicts[index].seconds)
    for index in order:
        verdict = verdicts[index]
        records[index] = {
            **_record(exports[index], written[index]),
            "coq": verdict.status,
            "coqc_cpu_seconds": round(verdict.seconds, 2),
            "probe_cpu_seconds": round(probed.get(index, 0.0), 2),
            "axioms": list(verdict.axioms),
            **({"reason": verdict.reason} if verdict.reason else {}),
        }
    return records


def _checked(
    exports: list[Export], written: dict[int, CoqExport], indices: list[int], jobs: int
) -> list[CoqCheck]:
    files = [(exports[i].path, tuple(h.name for h in written[i].hypotheses)) for i in indices]
    return check_files(files, jobs) if files else []


def _probed(export: Export) -> tuple[float, CoqExport] | None:
    """The probe's CPU seconds and the file with the lemmas it reports unproved as named hypotheses; None
    when there is no probe, or it finds none (or does not compile, or the text cannot be written again)."""
    if export.probe is None:
        return None
    try:
        probe = export.probe()
        found = unproved(probe.text, PROBE_MARK)
        if found is None or not found[0]:
            return None
        names, seconds = found
        at_zero = f"({POWER_AT_ZERO} " in probe.text  # a power of a base reaching 0 is printed
        return seconds, export.text({name: UNPROVED + (AT_ZERO if at_zero else "") for name in names})
    except Untranslatable:
        return None


def _write(path: Path, text: str, replace: bool) -> None:
    """Write ``text`` to ``path`` (:func:`theory.prover.coq.writing.write_coq_file`)."""
    write_coq_file(path, text, replace)


def _record(export: Export, exported: CoqExport) -> dict[str, Any]:
    return {
        "file": str(export.path),
        "boxes": exported.boxes,
        "bytes": len(exported.text.encode("utf-8")),
        "hypotheses": [h.to_json() for h in exported.hypotheses],
        "rests_on_hypotheses": bool(exported.hypotheses),
        **export.extra,
    }
