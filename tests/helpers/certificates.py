"""Certificates in the data format (``specbound-certificate/2``) written by hand: a domain's variables, a
certificate decided box by box, and the integer-cut certificate the exporter and coqc tests share."""

from __future__ import annotations


def domain_variable(name, lower, upper, lower_open=False, upper_open=False, integer=False):
    """One variable of a certificate's domain, as the data format writes it."""
    return {
        "name": name,
        "lower": lower,
        "upper": upper,
        "lower_open": lower_open,
        "upper_open": upper_open,
        "integer": integer,
    }


def box_certificate(gap, domain, boxes, strict=False):
    """A specbound-certificate/2 of a gap tree over a domain, decided box by box."""
    return {
        "format": "specbound-certificate/2",
        "inequality": "",
        "gap": gap,
        "strict": strict,
        "domain": domain,
        "boxes": boxes,
    }


INTEGER_CUT = box_certificate(
    ["add", ["var", "n"], ["num", "-1"]],
    [domain_variable("n", "1", "5", integer=True)],
    [
        {"box": {"n": ["1", "2"]}, "decision": {"method": "enclosure"}},
        {"box": {"n": ["3", "5"]}, "decision": {"method": "enclosure"}},
    ],
)
"""n - 1 >= 0 over the integers 1..5, two boxes with the integer cut 2 | 3 (the reals in (2, 3) are in no
box: only integrality closes that gap)."""
