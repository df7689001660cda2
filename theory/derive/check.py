"""The derivation checker: re-checks a derivation certificate from its JSON alone, step by step.

Format ``specbound-derivation-certificate/1`` (docs/derive.md)::

    {"format": "specbound-derivation-certificate/1", "title": "...",
     "domain": [...],                                  # the prover's domain records
     "conclusion": {"lhs": tree, "relation": "<=", "rhs": tree},
     "steps": [{"name", "lhs": tree, "relation", "rhs": tree, "method": "exact" | "sympy" | "prover",
                "assumptions": [record, ...], "certificate": {...}}, ...],
     "files": {KEY: derivation certificate, ...}}       # optional: the referenced derivations

An assumption record is ``{"kind": "bound", "variable", "relation", "value"}`` (the step's domain is the
derivation's cut by it), ``{"kind": "given", "name", "gap", "strict"}`` (a hypothesis of the derivation),
or ``{"kind": "lemma" | "derivation", "name", "gap", "strict", "certificate"}`` (a proved statement whose
certificate is re-checked here). A derivation's certificate may be ``{"file": KEY}``: the entry KEY of
the outermost certificate's optional ``"files": {KEY: derivation certificate}`` table, where each file a
derivation references, at any depth, is written once (and checked once, however many steps use it).
The meaning: at every point of the domain where every bound and given hypothesis holds, lhs relation rhs
of the conclusion. The check:

- the steps chain: E0 is the conclusion's lhs, each step starts where the previous ended, the last ends at
  the conclusion's rhs, and the conclusion's relation is the steps' composition (= if all are =, else the
  common direction, strict when one step is);
- ``exact``: the kernel's exact ring normal form (:mod:`theory.prover.kernel.exact`) of lhs - rhs is 0:
  proved; ``sympy``: sympy's normal form reaches 0 (:func:`theory.prover.chain.identically_zero`): derived,
  not proved (the kernel cannot re-check it);
- ``prover``: the step's gap g (rhs - lhs for <, <=; lhs - rhs for >, >=), with assumptions a_j >= 0
  entering as Max(g, -a_1, ..., -a_n) >= 0 (> 0 when the step is strict or an assumption is not: then it
  is stronger than the implication, hence sound), is the certificate's gap over the step's domain, and the
  kernel accepts the certificate;
- a lemma or derivation used: its certificate is accepted (recursively), its gap is the record's, it is
  unconditional and its domain contains the step's.

Provenance: derived (each step re-checked by the kernel, or by sympy for a "derived" identity).
"""

from __future__ import annotations

import itertools
import time
from contextvars import ContextVar
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy as sp

from theory.derive.instance import (
    defined_on,
    difference_tree,
    identity,
    negated,
    obligations,
    sign_by_sympy,
)
from theory.errors import InvalidArgument
from theory.prover.certificate import domain_data, domain_of
from theory.prover.domain import Domain, MalformedDomain, VariableDomain
from theory.prover.language import MalformedExpression, from_tree
from theory.prover.numbers import rational
from theory.prover.statement import Inequality

DERIVATION_FORMAT = "specbound-derivation-certificate/1"
EXACT, SYMPY, PROVER, FACT = "exact", "sympy", "prover", "fact"
INEQUALITIES = ("<=", "<", ">=", ">")


class InvalidDerivationCertificate(InvalidArgument):
    """Data that is not a derivation certificate (a missing field, a tree outside the language)."""


def step_gap_tree(
    lhs: Any, rhs: Any, relation: str, assumptions: list[tuple[Any, bool]]
) -> tuple[list[Any], bool]:
    """(gap, strict) the prover decides for ``lhs relation rhs`` under assumptions (gap_j, strict_j):
    Max(g, -a_1, ...) >= 0 when every assumption is strict and the step is not, else > 0."""
    gap = difference_tree(rhs, lhs) if relation in ("<=", "<") else difference_tree(lhs, rhs)
    strict = relation in ("<", ">")
    if assumptions:
        gap = ["max", gap, *(negated(a) for a, _ in assumptions)]
        strict = strict or not all(s for _, s in assumptions)
    return gap, strict


def compose(relations: list[str]) -> str:
    """The relation of a chain of steps (they go one way: the caller checks)."""
    inequalities = [r for r in relations if r != "="]
    if not inequalities:
        return "="
    direction = inequalities[0][0]
    return direction if any(r in ("<", ">") for r in inequalities) else direction + "="


def cut(domain: Domain, variable: str, relation: str, value: Fraction) -> Domain:
    """The domain with ``variable relation value`` (relation in <=, <, >=, >) imposed."""
    old = domain[variable]
    strict = relation in ("<", ">")
    if relation.startswith(">"):
        tighter = value > old.lower or (value == old.lower and strict and not old.lower_open)
        new = (
            VariableDomain(old.name, value, old.upper, strict, old.upper_open, old.integer)
            if tighter
            else old
        )
    else:
        tighter = value < old.upper or (value == old.upper and strict and not old.upper_open)
        new = (
            VariableDomain(old.name, old.lower, value, old.lower_open, strict, old.integer)
            if tighter
            else old
        )
    return Domain(tuple(new if v.name == variable else v for v in domain.variables))


def covers(outer: Domain, inner: Domain) -> bool:
    """Every variable of ``outer`` is one of ``inner`` and inner's set lies in outer's."""
    from theory.prover.chain import range_holds

    return all(
        name in inner.names and range_holds(sp.Symbol(name), outer[name], inner) for name in outer.names
    )


def exact_zero(tree: Any) -> bool:
    """The kernel's exact ring normal form of the tree is 0 (None, too large, is not 0)."""
    from theory.prover.kernel.exact import normal_form

    return normal_form(tree, {}) == {}


@dataclass(frozen=True)
class DerivationCheck:
    """accepted; status proved (every step kernel-checked) or derived (a step by sympy only); the reason of
    a rejection; the hypotheses the conclusion is conditional on; CPU seconds."""

    accepted: bool
    status: str
    reason: str
    hypotheses: tuple[str, ...]
    seconds: float


class _Rejected(Exception):
    pass


def check_derivation(data: Any) -> DerivationCheck:
    """Re-check a derivation certificate (see the module docstring); InvalidDerivationCertificate when the
    data is not one."""
    start = time.process_time()
    token = None
    try:
        if _FILES.get() is None:  # the outermost certificate: its "files" table serves every reference
            token = _FILES.set(_Files(_files_table(data)))
        elif isinstance(data, dict) and "files" in data:
            raise _Rejected("only the outermost certificate has a files table")
        status, hypotheses = _check(data)
    except _Rejected as rejection:
        return DerivationCheck(False, "rejected", str(rejection), (), time.process_time() - start)
    except (KeyError, TypeError, ValueError, IndexError, MalformedDomain, MalformedExpression) as error:
        if isinstance(error, InvalidDerivationCertificate):
            raise
        raise InvalidDerivationCertificate(
            f"malformed derivation certificate: {type(error).__name__}: {str(error)[:200]}"
        ) from None
    finally:
        if token is not None:
            _FILES.reset(token)
    steps = len(data["steps"])
    reason = f"{steps} steps re-checked ({status})"
    return DerivationCheck(True, status, reason, tuple(hypotheses), time.process_time() - start)


@dataclass
class _Files:
    """The outermost certificate's "files" table (key -> a referenced derivation's certificate), with
    what each accepted one proves, so that each is checked once however many steps refer to it."""

    table: dict[str, Any]
    accepted: dict[str, tuple[Any, bool, Domain]] = field(default_factory=dict)
    open: set[str] = field(default_factory=set)


_FILES: ContextVar[_Files | None] = ContextVar("files", default=None)


def _files_table(data: Any) -> dict[str, Any]:
    table = data.get("files", {}) if isinstance(data, dict) else {}
    if not (isinstance(table, dict) and all(isinstance(key, str) for key in table)):
        raise InvalidDerivationCertificate(
            "malformed derivation certificate: files must map names to certificates"
        )
    return table


def _referenced(key: Any, what: str) -> tuple[Any, bool, Domain]:
    """What the derivation ``key`` of the files table proves (checked once; a reference back to a file
    being checked is rejected)."""
    files = _FILES.get()
    if files is None or not isinstance(key, str) or key not in files.table:
        raise _Rejected(f"{what}: no derivation {str(key)[:80]!r} in the certificate's files")
    if key in files.accepted:
        return files.accepted[key]
    if key in files.open:
        raise _Rejected(f"{what}: circular reference to {key!r}")
    certificate = files.table[key]
    if not (isinstance(certificate, dict) and certificate.get("format") == DERIVATION_FORMAT):
        raise _Rejected(f"{what}: files[{key!r}] is not a derivation certificate")
    files.open.add(key)
    try:
        files.accepted[key] = accepted_statement(certificate, f"{what} (files[{key!r}])")
    finally:
        files.open.discard(key)
    return files.accepted[key]


def _read(tree: Any, domain: Domain, where: str) -> sp.Expr:
    expr = from_tree(tree, domain.symbols(), where)
    if not isinstance(expr, sp.Expr):
        raise InvalidDerivationCertificate(f"{where} is not an expression")
    return expr


def _check(data: Any) -> tuple[str, list[str]]:
    if not isinstance(data, dict) or data.get("format") != DERIVATION_FORMAT:
        raise InvalidDerivationCertificate(
            f"not a derivation certificate: format must be {DERIVATION_FORMAT!r}"
        )
    domain = domain_of(data["domain"])
    conclusion, steps = data["conclusion"], data["steps"]
    if not isinstance(steps, list) or not steps:
        raise _Rejected("a derivation needs at least one step")
    if steps[0]["lhs"] != conclusion["lhs"] or steps[-1]["rhs"] != conclusion["rhs"]:
        raise _Rejected("the steps do not start at the conclusion's lhs and end at its rhs")
    for before, after in itertools.pairwise(steps):
        if after["lhs"] != before["rhs"]:
            raise _Rejected(f"step {after['name']!r} does not start where {before['name']!r} ends")
    relations = [str(step["relation"]) for step in steps]
    if len({r[0] for r in relations if r != "="}) > 1 or compose(relations) != conclusion["relation"]:
        raise _Rejected("the conclusion's relation is not the composition of the steps'")
    derived, hypotheses = False, []
    for step in steps:
        name = str(step["name"])
        _read(step["lhs"], domain, f"step {name}")
        _read(step["rhs"], domain, f"step {name}")
        if step["method"] in (EXACT, SYMPY) and not (
            defined_on(step["lhs"], domain) and defined_on(step["rhs"], domain)
        ):
            raise _Rejected(f"step {name!r}: its sides are not shown defined on the whole domain")
        if step["method"] == EXACT:
            if step["relation"] != "=" or not exact_zero(difference_tree(step["lhs"], step["rhs"])):
                raise _Rejected(
                    f"step {name!r}: the kernel's exact normal form of lhs - rhs is not 0 (or too large)"
                )
        elif step["method"] == SYMPY:
            from theory.prover.chain import identically_zero

            difference = _read(difference_tree(step["lhs"], step["rhs"]), domain, f"step {name}")
            if step["relation"] != "=" or not identically_zero(difference):
                raise _Rejected(f"step {name!r}: sympy's normal form of lhs - rhs does not reach 0")
            derived = True
        elif step["method"] == PROVER:
            hypotheses += _check_inequality(step, domain)
        elif step["method"] == FACT:
            by_sympy, given = _check_fact(step, domain)
            derived = derived or by_sympy
            hypotheses += given
        else:
            raise _Rejected(f"step {name!r}: unknown method {step['method']!r}")
    return ("derived" if derived else "proved"), sorted(set(hypotheses))


def gap_inequality(gap: sp.Expr, strict: bool) -> Inequality:
    """gap >= 0 (> 0 when ``strict``) with its sides (gap, 0), as
    :func:`theory.prover.statement.parse_statement` reads the printed text: the certificate's gap tree is
    then the one the kernel's binding re-reads."""
    text = f"{sp.sstr(gap)} {'>' if strict else '>='} 0"
    return Inequality(text, gap, strict, sides=(gap, sp.Integer(0)))


def _check_inequality(step: dict[str, Any], domain: Domain) -> list[str]:
    name, relation = str(step["name"]), str(step["relation"])
    if relation not in INEQUALITIES:
        raise _Rejected(f"step {name!r}: the prover decides inequalities, not {relation!r}")
    step_domain, hypotheses = _cut_by_bounds(step, domain)
    gaps = []
    for record in step["assumptions"]:
        kind = record["kind"]
        if kind == "bound":
            continue
        gaps.append((record["gap"], record["strict"] is True))
        if kind == "given":
            hypotheses.append(str(record["name"]))
        elif kind in ("lemma", "derivation"):
            _check_used(record, step_domain, name)
        else:
            raise _Rejected(f"step {name!r}: unknown assumption kind {kind!r}")
    expected, strict = step_gap_tree(step["lhs"], step["rhs"], relation, gaps)
    _check_states(step["certificate"], expected, strict, step_domain, f"step {name!r}: its certificate")
    return hypotheses


def _check_states(certificate: Any, tree: Any, strict: bool, domain: Domain, what: str) -> None:
    """The certificate states tree >= 0 (> 0 when strict) over exactly ``domain``, and the kernel
    accepts it (its text must re-read to that gap)."""
    from theory.prover import check_certificate

    stated = gap_inequality(_read(tree, domain, what), strict)
    if certificate["gap"] != stated.gap_tree() or certificate["strict"] != strict:
        raise _Rejected(f"{what} states another inequality")
    if certificate["domain"] != domain_data(domain):
        raise _Rejected(f"{what} is over another domain")
    verdict = check_certificate(certificate)
    if not verdict.accepted:
        raise _Rejected(f"{what} is rejected by the kernel ({verdict.reason})")


def _cut_by_bounds(step: dict[str, Any], domain: Domain) -> tuple[Domain, list[str]]:
    """The step's domain: the derivation's cut by the step's bound records; with the bounds as text."""
    step_domain, hypotheses = domain, []
    for record in step["assumptions"]:
        if record["kind"] != "bound":
            continue
        variable, bound = str(record["variable"]), str(record["relation"])
        if bound not in INEQUALITIES or variable not in domain.names:
            raise _Rejected(f"step {step['name']!r}: a bound assumption must bound a variable by a number")
        value = rational(str(record["value"]), f"step {step['name']!r}: the bound on {variable}")
        step_domain = cut(step_domain, variable, bound, value)
        hypotheses.append(f"{variable} {bound} {record['value']}")
    return step_domain, hypotheses


def _check_fact(step: dict[str, Any], domain: Domain) -> tuple[bool, list[str]]:
    """A step by a fact (theory.derive.instance): (derived by sympy somewhere, hypotheses)."""
    name, relation = str(step["name"]), str(step["relation"])
    if relation not in INEQUALITIES:
        raise _Rejected(f"step {name!r}: a fact gives an inequality, not {relation!r}")
    step_domain, hypotheses = _cut_by_bounds(step, domain)
    if any(record["kind"] != "bound" for record in step["assumptions"]):
        raise _Rejected(f"step {name!r}: a step by a fact takes bound assumptions only")
    fact, what = step["fact"], f"the fact {step['fact']['name']!r} of step {name!r}"
    derived, strict_fact = False, fact["strict"] is True
    substitution = {str(k): v for k, v in step["substitution"].items()}
    if fact["kind"] == "given":
        if substitution:
            raise _Rejected(f"{what}: an assumption takes no substitution")
        fact_gap, fact_domain = fact["gap"], step_domain
        substitution = {n: ["var", n] for n in step_domain.names}
        hypotheses.append(str(fact["name"]))
    elif fact["kind"] in ("piece", "lemma", "derivation"):
        fact_gap, strict_proved, fact_domain = accepted_statement(fact["certificate"], what)
        if fact_gap != fact["gap"] or strict_proved != strict_fact:
            raise _Rejected(f"{what}: the record's gap is not the one its certificate proves")
    else:
        raise _Rejected(f"{what}: unknown kind {fact['kind']!r}")
    gap, strict = step_gap_tree(step["lhs"], step["rhs"], relation, [])
    if strict and not strict_fact:
        raise _Rejected(f"step {name!r}: a strict step needs a strict fact")
    multiplier = step.get("multiplier")
    needed = obligations(step["factor"], multiplier, substitution, fact_domain, step_domain, strict)
    if isinstance(needed, str):
        raise _Rejected(f"step {name!r}: {needed}")
    if not defined_on(gap, step_domain):
        raise _Rejected(f"step {name!r}: its gap is not shown defined on the whole of its domain")
    method = identity(gap, step["factor"], fact_gap, substitution, multiplier, step_domain)
    if method is None:
        raise _Rejected(f"step {name!r}: its gap is not the factor times the fact under the substitution")
    proofs = step["obligations"]
    if len(proofs) != len(needed):
        raise _Rejected(f"step {name!r}: {len(needed)} obligations to prove, {len(proofs)} given")
    for (purpose, tree, strict_obligation), proof in zip(needed, proofs, strict=True):
        if proof.get("method") == SYMPY:
            if not sign_by_sympy(tree, strict_obligation, step_domain):
                raise _Rejected(f"step {name!r}: sympy's assumptions do not show {purpose}")
            derived = True
            continue
        what = f"step {name!r}: the certificate for {purpose}"
        _check_states(proof["certificate"], tree, strict_obligation, step_domain, what)
    return derived or method == SYMPY, hypotheses


def _check_used(record: dict[str, Any], step_domain: Domain, step: str) -> None:
    """A lemma's or an earlier derivation's certificate, accepted and unconditional, states the record's
    gap over a domain containing the step's."""
    what = f"{record['kind']} {record['name']!r} of step {step!r}"
    gap, strict, domain = accepted_statement(record["certificate"], what)
    if gap != record["gap"] or strict != (record["strict"] is True):
        raise _Rejected(f"{what}: the record's gap is not the one its certificate proves")
    if not covers(domain, step_domain):
        raise _Rejected(f"{what}: its domain does not contain the step's")


def accepted_statement(certificate: Any, what: str) -> tuple[Any, bool, Domain]:
    """(gap tree, strict, domain) of what an accepted certificate proves: a derivation's conclusion (it
    must be unconditional), a chain's gap >= 0, or a prover certificate's gap (the kernel's verdict on the
    gap tree itself: its inequality text is only a label here, since the gap is what the step uses);
    rejected otherwise."""
    from theory.prover.chain import CHAIN_FORMAT, check_chain
    from theory.prover.kernel import check_certificate

    if not isinstance(certificate, dict):
        raise _Rejected(f"{what}: its certificate is not an object")
    if set(certificate) == {"file"}:
        return _referenced(certificate["file"], what)
    if certificate.get("format") == DERIVATION_FORMAT:
        checked = check_derivation(certificate)
        if not checked.accepted or checked.hypotheses:
            raise _Rejected(f"{what}: not an accepted unconditional derivation ({checked.reason})")
        conclusion = certificate["conclusion"]
        gap, strict = step_gap_tree(conclusion["lhs"], conclusion["rhs"], conclusion["relation"], [])
    elif certificate.get("format") == CHAIN_FORMAT:
        chained = check_chain(certificate)
        if not chained.accepted:
            raise _Rejected(f"{what}: its chain certificate is rejected ({chained.reason})")
        gap, strict = certificate["gap"], False
    else:
        verdict = check_certificate(certificate)
        if not verdict.accepted:
            raise _Rejected(f"{what}: its certificate is rejected ({verdict.reason})")
        gap, strict = certificate["gap"], certificate["strict"] is True
    return gap, strict, domain_of(certificate["domain"])
