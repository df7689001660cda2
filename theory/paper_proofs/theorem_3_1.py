"""theorem_3_1.v: the assembled bound's chain (theory.blueprint) proved in Coq from its cited premises.

The Coq text ships beside this module (theory/paper_proofs/theorem_3_1.v): an abstract class of networks
indexed by K matrices, Lipschitz in each, covers as finite lists; one named Hypothesis per cited node
(:data:`PREMISES`: ``candes_plan`` and ``zhang`` in the Section Head_tail, ``margin_bound`` and ``dudley``
in the Section Theorem_3_1), the deterministic steps are Coq lemmas (theory.blueprint names them), and
after the sections close every lemma is universally quantified over the premises it uses, so
``Print Assumptions`` (of all the node lemmas at once) lists only the axioms of Coq's real numbers.
``export_theorem`` writes it to a folder and checks it with coqc.
Provenance: derived (written by hand; tests/unit/theory/test_blueprint.py compares its statements with the
registry's sympy statements at random points).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from theory.blueprint import THEOREM_FILE, nodes
from theory.prover.coq.coqc import check_file
from theory.prover.coq.writing import write_coq_file

PREMISES = ("candes_plan", "zhang", "margin_bound", "dudley")
"""The Hypotheses of the file, in order: each is the cited node of theory.blueprint that names it."""


def theorem_text() -> str:
    """The text of theorem_3_1.v."""
    return resources.files("theory.paper_proofs").joinpath(THEOREM_FILE).read_text(encoding="utf-8")


def premises() -> list[dict[str, str]]:
    """Each premise of the file: its Hypothesis name, its cited node and the node's reference."""
    cited = {node.coq["hypothesis"]: node for node in nodes() if node.coq and "hypothesis" in node.coq}
    return [{"name": name, "node": cited[name].id, "reference": cited[name].reference} for name in PREMISES]


def export_theorem(directory: Path, check: bool, replace: bool = False) -> dict[str, Any]:
    """Write DIR/theorem_3_1.v and, when ``check``, compile it: the record of
    :func:`theory.prover.coq.files.export_to` (``coq`` accepted when coqc compiled it and every axiom is
    trusted; the closed theorem takes no hypothesis) with ``premises``, the cited premises it is
    quantified over."""
    path = directory / THEOREM_FILE
    text = theorem_text()
    write_coq_file(path, text, replace)
    record: dict[str, Any] = {
        "file": str(path),
        "bytes": len(text.encode("utf-8")),
        "hypotheses": [],
        "rests_on_hypotheses": False,
        "premises": premises(),
    }
    if not check:
        return {**record, "coq": "unchecked"}
    verdict = check_file(path).to_json()
    return {
        **record,
        "coq": verdict["status"],
        "coqc_cpu_seconds": verdict["coqc_cpu_seconds"],
        "axioms": verdict["axioms"],
        **({"reason": verdict["reason"]} if "reason" in verdict else {}),
    }


def theorem_line(record: dict[str, Any]) -> str:
    """One line saying what became of theorem_3_1.v (status, file, size, coqc CPU, premises)."""
    text = f"coq: {record['coq']}: {record['file']} ({record['bytes']} bytes"
    if "coqc_cpu_seconds" in record:
        text += f", coqc {record['coqc_cpu_seconds']:.1f} CPU s"
    text += "); premises: " + ", ".join(p["name"] for p in record["premises"])
    if record.get("reason"):
        text += f"; {record['reason']}"
    return text
