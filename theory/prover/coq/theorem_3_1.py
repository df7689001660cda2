"""theorem_3_1.v: the assembled bound's chain (theory.blueprint) proved in Coq from its cited premises.

The Coq text ships beside this module (theory/prover/coq/theorem_3_1.v): an abstract class of networks
indexed by K matrices, Lipschitz in each, covers as finite lists; the Section Theorem_3_1 has one named
Hypothesis per cited node the theorem uses (``margin_bound``, ``dudley``; :data:`PREMISES`), the
deterministic steps are Coq lemmas (theory.blueprint names them), and after the section closes
``theorem_3_1_posthoc`` is universally quantified over the premises, so ``Print Assumptions`` lists only
the axioms of Coq's real numbers. ``export_theorem`` writes it to a folder and checks it with coqc.
Provenance: derived (written by hand; tests/unit/test_blueprint.py compares its statements with the
registry's sympy statements at random points).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from theory.blueprint import THEOREM_FILE, nodes
from theory.prover.coq.coqc import check_file
from theory.prover.coq.files import write_checked_text

PREMISES = ("margin_bound", "dudley")
"""The Section's Hypotheses, in order: each is the cited node of theory.blueprint with the same id."""


def theorem_text() -> str:
    """The text of theorem_3_1.v."""
    return resources.files("theory.prover.coq").joinpath(THEOREM_FILE).read_text(encoding="utf-8")


def premises() -> list[dict[str, str]]:
    """Each premise of the theorem: its Hypothesis name and the reference of its cited node."""
    cited = {node.id: node for node in nodes()}
    return [{"name": name, "reference": cited[name].reference} for name in PREMISES]


def export_theorem(directory: Path, check: bool, replace: bool = False) -> dict[str, Any]:
    """Write DIR/theorem_3_1.v and, when ``check``, compile it: the record of
    :func:`theory.prover.coq.files.export_to` (``coq`` accepted when coqc compiled it and every axiom is
    trusted; the closed theorem takes no hypothesis) with ``premises``, the cited premises it is
    quantified over."""
    path = directory / THEOREM_FILE
    text = theorem_text()
    write_checked_text(path, text, replace)
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
