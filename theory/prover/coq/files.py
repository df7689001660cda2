"""Write the Coq files of proved statements and check them: the step ``prove --coq`` and ``theory --coq``
share.

``export_to(certificate, path, check)`` writes the file (a box certificate's by
:mod:`theory.prover.coq.export`, a chain certificate's by :mod:`theory.prover.coq.chain`; nothing when
the certificate cannot be stated in Coq yet) and, when ``check``, runs coqc on it; the record it
returns is what the JSON outputs carry:
{"file", "boxes", "bytes", "coq": accepted | rejected | hypotheses | unchecked | untranslated,
"hypotheses", "rests_on_hypotheses", ...}: ``rests_on_hypotheses`` is true when the written file's theorem
takes a named hypothesis (a box, face or identity not proved in Coq, each with its reason), whatever
coqc then says of the file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from theory.prover.chain import CHAIN_FORMAT
from theory.prover.coq.chain import export_chain
from theory.prover.coq.coqc import check_file, unproved
from theory.prover.coq.export import PROBE_MARK, export_certificate
from theory.prover.coq.softmax import NOT_EXPORTED, export_reduction
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


def export_to(
    certificate: Any, path: Path, check: bool, title: str = "", replace: bool = False
) -> dict[str, Any]:
    """Export ``certificate`` to ``path`` and check it with coqc when ``check`` (see the module). First a
    probe (never written to ``path``) finds the box and face lemmas coqc cannot prove by the
    certificate's method; they are stated as named hypotheses, so the record names every premise the
    theorem still rests on. An existing ``path`` is replaced only with ``replace`` (see :func:`_write`)."""
    exporter = export_chain if certificate.get("format") == CHAIN_FORMAT else export_certificate
    assumed: dict[str, str] = {}
    probe_seconds = 0.0
    try:
        if check:
            probe = exporter(certificate, title, probe=True)
            found = unproved(probe.text, PROBE_MARK)
            if found is not None:
                names, probe_seconds = found
                at_zero = f"({POWER_AT_ZERO} " in probe.text  # a power of a base reaching 0 is printed
                assumed = {name: UNPROVED + (AT_ZERO if at_zero else "") for name in names}
        exported = exporter(certificate, title, assumed)
    except Untranslatable as reason:
        return {"file": None, "coq": "untranslated", "reason": str(reason)}
    return _checked(path, exported, check, probe_seconds, replace)


def export_reduction_to(entry: Any, path: Path, check: bool, replace: bool = False) -> dict[str, Any]:
    """The softmax reduction for every length (:mod:`theory.prover.coq.softmax`: ||J h||_1 <= kappa
    ||h||_inf for every n, through the registered inequality ``entry`` it reduces to), written to ``path``
    and checked like a certificate's file; the record names the steps not exported ("not_exported", with
    reasons: none)."""
    from theory.lipschitz import softmax_constant
    from theory.prover.softmax_every_length import vertex_value_every_length

    (inequality,) = entry.statement.inequalities
    try:
        exported = export_reduction(vertex_value_every_length(), inequality.gap, softmax_constant())
    except Untranslatable as reason:
        return {"file": None, "coq": "untranslated", "reason": str(reason)}
    return {
        **_checked(path, exported, check, 0.0, replace),
        "not_exported": [h.to_json() for h in NOT_EXPORTED],
    }


def _checked(path: Path, exported: Any, check: bool, probe_seconds: float, replace: bool) -> dict[str, Any]:
    """Write the exported file and, when ``check``, compile it: the record of :func:`export_to`."""
    _write(path, exported.text, replace)
    if not check:
        return {**_record(path, exported), "coq": "unchecked"}
    verdict = check_file(path, tuple(h.name for h in exported.hypotheses))
    checked = verdict.to_json()
    return {
        **_record(path, exported),
        "coq": checked["status"],
        "coqc_cpu_seconds": checked["coqc_cpu_seconds"],
        "probe_cpu_seconds": round(probe_seconds, 2),
        "axioms": checked["axioms"],
        **({"reason": verdict.reason} if verdict.reason else {}),
    }


def _write(path: Path, text: str, replace: bool) -> None:
    """Write ``text`` to ``path`` (:func:`theory.prover.coq.writing.write_coq_file`)."""
    write_coq_file(path, text, replace)


def _record(path: Path, exported: Any) -> dict[str, Any]:
    return {
        "file": str(path),
        "boxes": exported.boxes,
        "bytes": len(exported.text.encode("utf-8")),
        "hypotheses": [h.to_json() for h in exported.hypotheses],
        "rests_on_hypotheses": bool(exported.hypotheses),
    }
