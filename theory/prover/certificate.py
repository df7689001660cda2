"""A proof certificate as plain JSON data: the inequality, its domain, and the decided boxes.

Format (``CERTIFICATE_FORMAT``)::

    {"format": "specbound-prover-certificate/1",
     "inequality": "log(1 + x) <= x",           # as written, for the reader
     "gap": "<sympy srepr of the gap>",          # what is certified: gap >= 0 (> 0 when strict)
     "strict": false,
     "domain": "x: (-1, oo)",                    # the domain syntax of theory.prover.domain
     "boxes": [{"box": {"x": ["-1", "0"]}, "decision": {...}}, ...]}

A decision is one of ``{"rule": "enclosure", "form": <a name of rules.FORMS>}``,
``{"rule": "monotone", "variable": v, "face": "lower" | "upper", "then": decision}`` or
``{"rule": "critical", "variable": v, "point": "<srepr of c>", "provenance": ..., "then": decision}``
(the rules of :mod:`theory.prover.rules`). A monotone face at an infinite end also records how it was
obtained: ``"tail": "X'"`` (decided in arb balls on the tail) or ``"limit": "<srepr>"`` (sympy's limit),
each with its ``"provenance"`` text, which the checker requires to be the one of the step it verifies.
Endpoints are exact rationals written as strings ("-1/3", "oo").
Provenance: not applicable (data).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sympy as sp

from theory.prover.box import Box
from theory.prover.domain import Domain
from theory.prover.statement import Inequality

CERTIFICATE_FORMAT = "specbound-prover-certificate/1"

Decision = dict[str, Any]


@dataclass(frozen=True)
class Certificate:
    """The cover of the domain by boxes, each with the decision that proves the inequality on it."""

    inequality: Inequality
    domain: Domain
    boxes: tuple[tuple[Box, Decision], ...]

    def to_json(self) -> dict[str, Any]:
        """The certificate as plain JSON data (see the module docstring)."""
        return {
            "format": CERTIFICATE_FORMAT,
            "inequality": self.inequality.text,
            "gap": sp.srepr(self.inequality.gap),
            "strict": self.inequality.strict,
            "domain": self.domain.to_text(),
            "boxes": [{"box": box.to_json(), "decision": decision} for box, decision in self.boxes],
        }
