"""Re-check a saved certificate, or a ``prove --json`` result file, and re-derive what it states from what
the kernel checked: the one entry of ``specbound prove --check``.

Every kind of certificate the project writes is checked by its kernel entry, and the sentence printed for
it is read back from the data that entry checked, never from a label:

- a prover certificate (``specbound-certificate/2``) and a chain certificate
  (``specbound-chain-certificate/2``): the kernel proves gap >= 0 (> 0 when strict) over the
  certificate's domain; its ``inequality`` text, read by the safe language over that domain, must be
  exactly one inequality with that gap (the same tree, or a difference whose kernel exact normal form is
  0) and strictness (else rejected), and the text and the domain are printed; a chain whose text is a
  name, not an inequality, prints gap >= 0 read from its gap tree;
- a derivation certificate (``specbound-derivation-certificate/1``): the checker proves its conclusion
  lhs relation rhs over its domain (under its given hypotheses, printed); the statement printed is the
  conclusion read from its trees; the ``title`` is a label, except that a title which reads as an
  inequality over the domain must state the conclusion (sympy's normal form of the two gaps' difference
  reaches 0, same strictness), else the certificate is rejected;
- a result file (``specbound prove --json``): every part must carry a certificate that is accepted, the
  file's ``status`` must be ``proved``, and its ``statement`` over its ``domain`` must read as exactly
  the conjunction of the parts' checked inequalities over that domain, in order; else rejected, naming
  the part.

Provenance: derived (the kernel's verdicts; the bindings compare data trees exactly).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from theory.errors import InvalidArgument


@dataclass(frozen=True)
class Rechecked:
    """One certificate's verdict: ``statement`` and ``domain`` are what the kernel checked (empty when the
    data could not be read that far), ``boxes`` its box count, ``reason`` the checker's or the binding's."""

    accepted: bool
    statement: str
    domain: str
    boxes: int
    reason: str
    label: str = ""
    """A derivation's title or a chain's name, shown as a label (not a statement)."""


def recheck_document(document: Any) -> list[Rechecked]:
    """The verdicts of a file: one certificate, or every part of a ``--json`` result (module docstring);
    InvalidArgument when it holds neither."""
    if isinstance(document, dict) and "format" in document:
        return [recheck_certificate(document)]
    if isinstance(document, dict) and isinstance(document.get("inequalities"), list):
        return _recheck_result(document)
    raise InvalidArgument("the file holds no certificate (write one with: specbound prove ... --json)")


def recheck_certificate(data: dict[str, Any]) -> Rechecked:
    """The verdict on one certificate, its statement and domain re-derived (module docstring)."""
    from theory.derive import DERIVATION_FORMAT
    from theory.prover.chain import CHAIN_FORMAT

    if data.get("format") == DERIVATION_FORMAT:
        return _derivation(data)
    if data.get("format") == CHAIN_FORMAT:
        from theory.prover.chain import check_chain

        chain = check_chain(data)
        return _chain(data, chain.accepted, chain.reason)
    from theory.prover import check_certificate

    verdict = check_certificate(data)  # binds the inequality text to the gap and strictness itself
    return _bound(data, verdict.accepted, verdict.reason, verdict.boxes, strict=data.get("strict") is True)


def _domain_text(records: Any) -> str:
    from theory.prover.certificate import domain_of

    return domain_of(records).to_text()


def _bound(data: dict[str, Any], accepted: bool, reason: str, boxes: int, strict: bool) -> Rechecked:
    """The verdict with the certificate's inequality text bound to its gap tree (rejected otherwise)."""
    from theory.prover.certificate import domain_of
    from theory.prover.domain import MalformedDomain
    from theory.prover.statement import MalformedStatement, parse_statement

    text = str(data.get("inequality", ""))
    try:
        domain = domain_of(data.get("domain"))
        statement = parse_statement(text, domain)
    except (MalformedStatement, MalformedDomain) as error:
        return Rechecked(False, "", "", boxes, f"the certificate's inequality text cannot be read: {error}")
    parts = statement.inequalities
    if accepted and (len(parts) != 1 or not _same_gap(parts[0], data.get("gap"), strict)):
        return Rechecked(
            False, "", domain.to_text(), boxes, "the inequality text does not state the certified gap"
        )
    return Rechecked(accepted, text.strip(), domain.to_text(), boxes, reason)


def _chain(data: dict[str, Any], accepted: bool, reason: str) -> Rechecked:
    """A chain's statement: its ``inequality`` text when that reads as an inequality (then bound to the
    gap as :func:`_bound`), else gap >= 0 read from the checked gap tree, the text shown as a label."""
    import sympy as sp

    from theory.prover.certificate import domain_of
    from theory.prover.domain import MalformedDomain
    from theory.prover.language import from_tree
    from theory.prover.statement import MalformedStatement, parse_statement

    text = str(data.get("inequality", ""))
    try:
        domain = domain_of(data.get("domain"))
        parse_statement(text, domain)
    except (MalformedStatement, MalformedDomain):
        if not accepted:
            return Rechecked(False, "", "", 0, reason, text)
        gap = from_tree(data["gap"], domain_of(data["domain"]).symbols(), "the chain's gap")
        return Rechecked(True, f"{sp.sstr(gap)} >= 0", domain.to_text(), 0, reason, text)
    return _bound(data, accepted, reason, 0, strict=False)


def _derivation(data: dict[str, Any]) -> Rechecked:
    """A derivation's conclusion as the checker proved it, its title checked when it reads as one."""
    import sympy as sp

    from theory.derive import check_derivation
    from theory.derive.check import step_gap_tree
    from theory.prover.certificate import domain_of
    from theory.prover.chain import identically_zero
    from theory.prover.domain import MalformedDomain
    from theory.prover.language import MalformedExpression, from_tree
    from theory.prover.statement import MalformedStatement, parse_statement

    checked = check_derivation(data)
    title = str(data.get("title", ""))
    if not checked.accepted:
        return Rechecked(False, "", "", 0, checked.reason, title)
    domain = domain_of(data["domain"])
    conclusion = data["conclusion"]
    symbols = domain.symbols()
    sides = [from_tree(conclusion[k], symbols, "the conclusion") for k in ("lhs", "rhs")]
    statement = f"{sp.sstr(sides[0])} {conclusion['relation']} {sp.sstr(sides[1])}"
    reason = checked.reason
    if checked.hypotheses:
        reason += f"; under {', '.join(checked.hypotheses)}"
    try:
        titled = parse_statement(title, domain).inequalities
    except (MalformedStatement, MalformedDomain, MalformedExpression):
        return Rechecked(True, statement, domain.to_text(), 0, reason, title)
    if conclusion["relation"] == "=":
        states = False
    else:
        gap, strict = step_gap_tree(conclusion["lhs"], conclusion["rhs"], conclusion["relation"], [])
        difference = (titled[0].gap - from_tree(gap, symbols, "the conclusion")) if len(titled) == 1 else None
        states = difference is not None and titled[0].strict == strict and identically_zero(difference)
    if not states:
        return Rechecked(
            False,
            statement,
            domain.to_text(),
            0,
            "the title states an inequality other than the conclusion",
            title,
        )
    return Rechecked(True, statement, domain.to_text(), 0, reason, title)


def _recheck_result(document: dict[str, Any]) -> list[Rechecked]:
    """Every part of a result file, then the file's own claim (status, statement, domain) bound to them."""
    from theory.prover.domain import MalformedDomain, parse_domain
    from theory.prover.statement import MalformedStatement, parse_statement

    parts = document["inequalities"]
    verdicts: list[Rechecked] = []
    for index, part in enumerate(parts, 1):
        certificate = part.get("certificate") if isinstance(part, dict) else None
        if not isinstance(certificate, dict):
            text = str(part.get("inequality", "")) if isinstance(part, dict) else ""
            verdicts.append(
                Rechecked(False, text, "", 0, f"part {index} has no certificate: it is not proved")
            )
            continue
        verdicts.append(recheck_certificate(certificate))
    if not all(v.accepted for v in verdicts):
        return verdicts
    headline = str(document.get("statement", ""))
    try:
        domain = parse_domain(str(document.get("domain", "")))
        claimed = parse_statement(headline, domain).inequalities
    except (MalformedStatement, MalformedDomain) as error:
        return [*verdicts, Rechecked(False, headline, "", 0, f"the file's statement cannot be read: {error}")]
    problem = ""
    if document.get("status") != "proved":
        problem = f"the file's status is {document.get('status')!r}, but every part was proved"
    elif len(claimed) != len(parts):
        problem = f"the file's statement has {len(claimed)} inequalities, its certificates {len(parts)}"
    else:
        for index, (inequality, part) in enumerate(zip(claimed, parts, strict=True), 1):
            certificate = part["certificate"]
            if _domain_text(certificate.get("domain")) != domain.to_text():
                problem = f"part {index}'s certificate is over {_domain_text(certificate.get('domain'))}"
            elif not _states(inequality, certificate):
                problem = f"the file's statement's part {index} is not what its certificate proves"
            if problem:
                break
    summary = "the file's statement is the conjunction of its certified parts"
    return [*verdicts, Rechecked(not problem, headline, domain.to_text(), 0, problem or summary)]


def _states(inequality: Any, certificate: dict[str, Any]) -> bool:
    """The headline's inequality has the certificate's gap tree and strictness (a chain's is >= 0)."""
    from theory.derive import DERIVATION_FORMAT

    if certificate.get("format") == DERIVATION_FORMAT:
        return False  # a result file's parts are prover or chain certificates
    return _same_gap(inequality, certificate.get("gap"), certificate.get("strict") is True)


def _same_gap(inequality: Any, gap: Any, strict: bool) -> bool:
    """The inequality states gap >= 0 (> 0 when ``strict``): its gap tree (sympy's) or its typed tree (the
    text as typed, the gap ``prove`` certifies for a statement that is not a sum of monomials) is
    ``gap``, or their difference has the kernel's exact normal form 0 (the same function written
    otherwise)."""
    from theory.derive.check import exact_zero
    from theory.derive.instance import difference_tree
    from theory.prover.kernel.trees import Malformed

    if inequality.strict != strict:
        return False
    if gap in (inequality.gap_tree(), inequality.typed):
        return True
    try:
        return exact_zero(difference_tree(inequality.gap_tree(), gap))
    except Malformed:
        return False
