"""One kernel certificate of a claim over a real half-line [L0, oo): the tail of a crossover, or a
derivation step over such a domain. The decision is :func:`theory.derive.tail.squares_first` on the gap,
else after the changes of variables of :mod:`theory.derive.tail_substitution`; the kernel re-checks the
whole certificate before it is returned. Provenance: derived (decided by the code; every step
kernel-checked).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from theory.derive.instance import difference_tree
from theory.derive.tail import half_line, squares_first
from theory.derive.tail_substitution import substituted_decision


def tail_certificate(lower: str, upper: str, name: str, start: Fraction) -> dict[str, Any] | None:
    """A ``specbound-certificate/2`` of ``lower <= upper`` over the real half-line [start, oo) that the
    kernel accepts (the text binds its gap), or None when the methods above do not give one."""
    from theory.prover.statement import MalformedStatement, parse_statement

    text = f"{lower} <= {upper}"
    try:
        (inequality,) = parse_statement(text, half_line(name, start)).inequalities
    except (MalformedStatement, ValueError):
        return None
    return half_line_certificate(text, inequality.gap_tree(), False, name, start)


def half_line_certificate(
    text: str, gap: Any, strict: bool, name: str, start: Fraction, sides: tuple[Any, Any] | None = None
) -> dict[str, Any] | None:
    """A ``specbound-certificate/2`` of gap >= 0 (> 0 when strict) over the real half-line [start, oo),
    stated as ``text``, that the kernel accepts; None when the methods above do not give one. The decision
    is :func:`squares_first` on the gap itself, else after the changes of variables of
    :mod:`theory.derive.tail_substitution`; with ``sides`` (lower, upper), it is made for upper - lower and
    reached from the gap by the kernel's ``rewrite`` (the same exact normal form)."""
    from theory.prover import check_certificate
    from theory.prover.certificate import domain_data
    from theory.prover.kernel.verify import read_box, read_domain

    if strict:
        return None
    domain = domain_data(half_line(name, start))
    kernel_domain = read_domain(domain)
    box = read_box({name: [str(start), "oo"]}, kernel_domain)
    form = gap if sides is None else difference_tree(sides[1], sides[0])
    decision = squares_first(form, name, box, kernel_domain) or substituted_decision(form, name, start)
    if decision is None:
        return None
    if form is not gap:
        decision = {"method": "rewrite", "form": form, "then": decision}
    certificate = {
        "format": "specbound-certificate/2",
        "inequality": text,
        "gap": gap,
        "strict": strict,
        "domain": domain,
        "boxes": [{"box": {name: [str(start), "oo"]}, "decision": decision}],
    }
    return certificate if check_certificate(certificate).accepted else None
