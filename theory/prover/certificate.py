"""A proof certificate as plain data: the gap as a tree, the domain, and the decided boxes.

Format ``specbound-certificate/2`` (what :mod:`theory.prover.kernel` re-checks; docs/prover.md)::

    {"format": "specbound-certificate/2",
     "inequality": "log(1 + x) <= x",                  # as written, for the reader
     "gap": ["add", ["var", "x"], ["mul", ["num", "-1"], ["log", ...]]],   # gap >= 0 (> 0 when strict)
     "strict": false,
     "domain": [{"name": "x", "lower": "-1", "upper": "oo", "lower_open": true, "upper_open": true,
                 "integer": false}],
     "boxes": [{"box": {"x": ["-1", "0"]}, "decision": {"method": "enclosure"}}, ...]}

A decision is ``{"method": "enclosure"}`` or ``{"method": "monotone", "variable": v, "direction":
"increasing" | "decreasing", "then": decision}`` (the face v = lo or v = hi, or with ``"tail": X`` the
tail at an infinite end). Numbers are exact rationals as strings ("-1/3"), infinite ends "oo" / "-oo".
Provenance: not applicable (data).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from theory.prover.box import Box
from theory.prover.domain import Domain, VariableDomain, format_bound
from theory.prover.statement import Inequality

CERTIFICATE_FORMAT = "specbound-certificate/2"

Decision = dict[str, Any]


def domain_data(domain: Domain) -> list[dict[str, Any]]:
    """The domain as the kernel reads it (one record per variable)."""
    return [_variable_data(v) for v in domain.variables]


def domain_of(records: Any) -> Domain:
    """The Domain of :func:`domain_data`'s records (MalformedDomain when they are not such records)."""
    from theory.prover.domain import MalformedDomain, parse_number

    if not isinstance(records, list) or not records:
        raise MalformedDomain("a certificate's domain must be a non-empty list of variables")
    variables = []
    for record in records:
        if not isinstance(record, dict) or not all(
            isinstance(record.get(key), bool) for key in ("lower_open", "upper_open", "integer")
        ):
            raise MalformedDomain(f"a certificate's domain variable is malformed: {str(record)[:80]}")
        name = str(record.get("name"))
        lower, upper = (parse_number(str(record.get(end)), f"domain of {name}") for end in ("lower", "upper"))
        variables.append(
            VariableDomain(name, lower, upper, record["lower_open"], record["upper_open"], record["integer"])
        )
    return Domain(tuple(variables))


def _variable_data(variable: VariableDomain) -> dict[str, Any]:
    return {
        "name": variable.name,
        "lower": format_bound(variable.lower),
        "upper": format_bound(variable.upper),
        "lower_open": bool(variable.lower_open or math.isinf(variable.lower)),
        "upper_open": bool(variable.upper_open or math.isinf(variable.upper)),
        "integer": variable.integer,
    }


@dataclass(frozen=True)
class Certificate:
    """The cover of the domain by boxes, each with the kernel decision that proves the inequality on it."""

    inequality: Inequality
    domain: Domain
    boxes: tuple[tuple[Box, Decision], ...]

    def to_json(self) -> dict[str, Any]:
        """The certificate as plain JSON data (see the module docstring)."""
        return {
            "format": CERTIFICATE_FORMAT,
            "inequality": self.inequality.text,
            "gap": self.inequality.gap_tree(),
            "strict": self.inequality.strict,
            "domain": domain_data(self.domain),
            "boxes": [{"box": box.to_json(), "decision": decision} for box, decision in self.boxes],
        }
