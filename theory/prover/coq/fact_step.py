"""A derivation's step by a fact under a substitution (:mod:`theory.derive.instance`) as a Coq lemma.

The checker accepts the step E_{k-1} R E_k over its domain D (the derivation's, cut by the step's bound
assumptions) when its gap g = f * h(sigma(x)) (or (g - f * h(sigma(x))) m = 0 with m > 0), f >= 0
(> 0 for a strict step), sigma(D) lies in the fact's domain D_h, and h >= 0 over D_h is proved. The Coq
file states the same steps:

- the fact, once per file, as ``Module fact_<j>``: its ``gap`` (h over D_h's variables) and its theorem
  ``statement``: for every point of D_h, 0 <= gap (0 < when strict). A lemma's or a piece's box
  certificate is exported as the module (:func:`~theory.prover.coq.export.export_certificate`: the
  fact's own proof, nothing assumed); an earlier derivation (``file:``) is exported in full as its
  inner ``Module derivation`` and ``statement`` follows from its conclusion by ``lra``. An assumption of
  the derivation (``given``) is no module: 0 <= h is a premise of the step's lemma and of the theorem;
- each obligation (f >= 0, m > 0, an end of sigma's range) from its certificate's module
  ``step_<k>_obligation_<j>`` over D, its gap identified with the obligation's tree; one that sympy's
  assumptions decided, from the kernel's enclosure over D node by node;
- the lemma ``step_<k>``: over D, 0 <= h(sigma) by applying the fact's theorem at sigma (its premises,
  sigma's range, by ``lra`` from the obligations and D's bounds), g = f * h(sigma) after unfolding the
  fact's gap (where there is a multiplier, m g = m f h(sigma) cancelled by ``Rmult_eq_reg_l``), then
  0 <= f * h(sigma) by ``Rmult_le_pos`` (0 < by ``Rmult_lt_0_compat`` when strict) and ``lra``.

A fact whose certificate has no Coq form as a fact yet (a chain certificate) is :class:`Untranslatable`.
Provenance: derived (a translation of the checker of steps by a fact, theory.derive.check).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from theory.derive.check import DERIVATION_FORMAT, INEQUALITIES, SYMPY, cut, step_gap_tree
from theory.derive.instance import obligations, substitute
from theory.prover.certificate import domain_data, domain_of
from theory.prover.coq.export import (
    CoqExport,
    _positive_on,
    _Writer,
    export_certificate,
    module_text,
    within,
)
from theory.prover.coq.terms import Untranslatable, binders, rational, term, variable
from theory.prover.domain import Domain
from theory.prover.kernel.trees import Malformed
from theory.prover.kernel.verify import FORMAT, Box, Variable, read_domain
from theory.prover.numbers import rational as exact

FACTORS = """\
Ltac sb_positive_factor :=
  first [ sb_positive
        | match goal with H : 0 < ?a * ?b + _ |- 0 < ?b =>
            apply (Rmult_lt_reg_l a); [ sb_positive | lra ] end
        | match goal with H : 0 < ?a * ?b |- 0 < ?b =>
            apply (Rmult_lt_reg_l a); [ sb_positive | lra ] end ].
"""
"""0 < b from a hypothesis 0 < a * b (a range obligation of a substituted value a * b) and 0 < a
(``Rmult_lt_reg_l``; standard): the side condition of ln (a * b) = ln a + ln b where b alone is not
shown positive (a ceiling inside it)."""
LOGS = (
    "repeat first [ rewrite ln_mult by sb_positive_factor | rewrite ln_Rinv by sb_positive_factor ]; "
    "sb_identity"
)
"""An identity after ln (a b) = ln a + ln b and ln (/ a) = - ln a are rewritten (ln_mult, ln_Rinv;
standard): the fact's ln at a substituted product against the step's logarithms of its factors."""

MODULE_HYPOTHESES = "the Coq proof of its fact or of an obligation (its module) leaves hypotheses"
"""The reason a step by a fact is a premise, followed by the modules' hypotheses."""
Nested = Callable[[Any, dict[str, str]], CoqExport]
"""Exports a derivation certificate as a module's body (no header, preamble or Print Assumptions), the
lemmas named in its second argument assumed (with their reasons)."""


class Steps(Protocol):
    """What a step needs of the derivation's writer (:mod:`theory.prover.coq.derivation`)."""

    names: list[str]
    assumed: dict[str, str]
    probe: bool

    def positive(self, base: Any) -> bool: ...
    def signed(self, tree: Any, strict: bool = True) -> str: ...
    def equal(self, left: Any, right: Any) -> str: ...
    def hypothesis(self, name: str, premises: list[str], claim: str, reason: str) -> None: ...
    def lemma(
        self, name: str, premises: list[str], claim: str, script: Callable[[list[str]], str]
    ) -> None: ...


def premises(domain: dict[str, Variable]) -> list[str]:
    """The premises of a claim over the kernel's ``domain``, as every exported theorem states them: an
    integer variable's integrality, then the finite ends (strict where open)."""
    whole: Box = {name: (v.lower, v.upper) for name, v in domain.items()}
    integral = [f"(exists k : Z, {variable(name)} = IZR k)" for name, v in domain.items() if v.integer]
    return integral + _Writer(domain, {}, False, _never, ["num", "0"]).bounds(whole)


def _never(_: Any) -> bool:
    return False


def step_domain(data_domain: Any, step: dict[str, Any]) -> tuple[Domain, list[str]]:
    """The step's domain (the derivation's cut by the step's bound assumptions) and those bounds as Coq
    premises; :class:`Untranslatable` for an assumption that is not a bound."""
    domain, bounds = domain_of(data_domain), []
    for record in step["assumptions"]:
        if record["kind"] != "bound":
            raise Untranslatable(
                f"step {step.get('name')!r} uses an assumption that is not a bound (a Max of the gap and "
                "the assumption), which has no Coq translation yet"
            )
        relation, name = str(record["relation"]), str(record["variable"])
        value = exact(str(record["value"]), f"the bound on {name}")
        domain = cut(domain, name, relation, value)
        bounds.append(f"{variable(name)} {relation} {rational(value)}")
    return domain, bounds


class FactModules:
    """The facts' modules of one file, each written once (keyed by its file, or its kind and name)."""

    def __init__(self, files: dict[str, Any], nested: Nested) -> None:
        self.files = files
        self.nested = nested
        self.written: dict[str, tuple[str, CoqExport, Any]] = {}
        self.texts: list[str] = []

    def module(
        self, fact: dict[str, Any], assumed: dict[str, str], probe: bool
    ) -> tuple[str, CoqExport, Any]:
        """(module name, export, the fact's certificate) of the fact's module: its ``gap`` and
        ``statement`` (see the module)."""
        certificate = fact["certificate"]
        reference = isinstance(certificate, dict) and set(certificate) == {"file"}
        key = f"file:{certificate['file']}" if reference else f"{fact['kind']}:{fact['name']}"
        if key in self.written:
            return self.written[key]
        if reference:
            if certificate["file"] not in self.files:
                raise Malformed(f"the fact {fact['name']!r} refers to no file of the certificate")
            certificate = self.files[certificate["file"]]
        name = f"fact_{len(self.written) + 1}"
        inside = within(assumed, name)
        if certificate.get("format") == FORMAT:
            exported = export_certificate(certificate, name, inside, probe, standalone=False)
        elif certificate.get("format") == DERIVATION_FORMAT:
            exported = _derivation_fact(certificate, self.nested(certificate, within(inside, "derivation")))
        else:
            raise Untranslatable(
                f"the fact {fact['name']!r} has a certificate of format {certificate.get('format')!r}, "
                "which has no Coq translation as a fact yet"
            )
        self.written[key] = (name, exported, certificate)
        self.texts.append(f"(* {fact['kind']}:{fact['name']} *)\n" + module_text(name, exported))
        return name, exported, certificate


def _derivation_fact(certificate: dict[str, Any], inner: CoqExport) -> CoqExport:
    """A derivation as a fact: ``Module derivation`` (its file), its gap (rhs - lhs; lhs - rhs for >=)
    and ``statement``: 0 <= gap over its domain, from its conclusion (an unconditional one)."""
    domain = read_domain(certificate["domain"])
    whole = {name: (v.lower, v.upper) for name, v in domain.items()}
    conclusion = certificate["conclusion"]
    gap, strict = step_gap_tree(conclusion["lhs"], conclusion["rhs"], conclusion["relation"], [])
    names = [variable(name) for name in domain]
    spelled = " ".join(names)
    printed = term(gap, lambda base: _positive_on(base, whole, domain))
    stated = premises(domain)
    labels = [f"P{i}" for i in range(len(stated))]
    last = len(certificate["steps"])
    text = (
        module_text("derivation", inner)
        + f"\nDefinition gap ({spelled} : R) : R := {printed}.\n\n"
        + f"Theorem statement : {binders(names)} {''.join(p + ' -> ' for p in stated)}"
        + f"0 {'<' if strict else '<='} gap {spelled}.\nProof.\n"
        + f"  intros {' '.join(names + labels)}.\n"
        + f"  pose proof (derivation.statement {' '.join(names + labels)}) as S.\n"
        + f"  unfold derivation.e_0, derivation.e_{last} in S; unfold gap; lra.\nQed.\n"
    )
    return CoqExport(text, inner.boxes, inner.hypotheses)


def fact_step(
    derivation: Steps, facts: FactModules, step: dict[str, Any], k: int, claim: str, data_domain: Any
) -> tuple[list[str], list[str], int]:
    """The lemma ``step_<k>`` of a step by a fact (see the module), written by ``derivation``; returns
    (the obligations' modules, to place before the lemmas; the premises the theorem adds: the step's
    bounds and a given fact; the boxes exported)."""
    if step["relation"] not in INEQUALITIES:
        raise Malformed(f"step {step.get('name')!r}: a fact gives an inequality")
    domain, bounds = step_domain(data_domain, step)
    kernel_domain = read_domain(domain_data(domain))
    fact, factor, multiplier = step["fact"], step["factor"], step.get("multiplier")
    gap, strict = step_gap_tree(step["lhs"], step["rhs"], step["relation"], [])
    strict_fact = fact["strict"] is True
    boxes, extra, left = 0, [], []
    if fact["kind"] == "given":
        substitution = {name: ["var", name] for name in domain.names}
        fact_domain, instance_tree = domain, fact["gap"]
        instance = _printed(derivation, instance_tree)
        extra.append(f"0 {'<' if strict_fact else '<='} {instance}")
        apply_fact = "assumption"
        unfold = ""
    else:
        module, exported, certificate = facts.module(fact, derivation.assumed, derivation.probe)
        boxes += exported.boxes
        left = [f"{module}.{h.name} ({h.reason})" for h in exported.hypotheses]
        substitution = step["substitution"]
        fact_domain = domain_of(certificate["domain"])
        instance_tree = substitute(fact["gap"], substitution)
        arguments = " ".join(_printed(derivation, substitution[name]) for name in fact_domain.names)
        instance = f"({module}.gap {arguments})"
        apply_fact = f"apply {module}.statement; first [ assumption | lra ]"
        unfold = f"unfold {module}.gap; "
    needed = obligations(factor, multiplier, substitution, fact_domain, domain, strict)
    if isinstance(needed, str) or len(needed) != len(step["obligations"]):
        raise Malformed(f"step {step.get('name')!r}: its obligations are not the checker's")
    signs: list[tuple[tuple[bool, str], str | None, str]] = []
    modules: list[str] = []
    for j, ((_, tree, strict_obligation), proof) in enumerate(
        zip(needed, step["obligations"], strict=True), 1
    ):
        stated = (strict_obligation, _printed(derivation, tree))
        if proof.get("method") == SYMPY:
            signs.append((stated, None, derivation.signed(tree, strict_obligation)))
            continue
        name = f"step_{k}_obligation_{j}"
        obligation = export_certificate(
            proof["certificate"], name, within(derivation.assumed, name), derivation.probe, standalone=False
        )
        left += [f"{name}.{h.name} ({h.reason})" for h in obligation.hypotheses]
        boxes += obligation.boxes
        modules.append(module_text(name, obligation))
        equal = derivation.equal(proof["certificate"]["gap"], tree)
        signs.append((stated, name, f"unfold {name}.gap; {equal}"))
    if not any(purpose == "factor" for purpose, _, _ in needed):  # a positive number
        signs.append(((strict, _printed(derivation, factor)), None, derivation.signed(factor, strict)))
    lemma_premises = premises(kernel_domain) + extra
    names = " ".join(derivation.names)
    product = ["mul", factor, instance_tree]
    right = f"{_printed(derivation, factor)} * {instance}"

    def script(labels: list[str]) -> str:
        lines = []
        own = " ".join(labels[: len(premises(kernel_domain))])
        for index, ((strict_sign, printed), name, proof) in enumerate(signs, start=1):
            stated = f"0 {'<' if strict_sign else '<='} {printed}"
            if name is None:
                lines.append(f"assert (O{index} : {stated}) by ({proof})")
            else:
                lines.append(
                    f"assert (O{index} : {stated}) by (pose proof ({name}.statement {names} {own}) as S; "
                    f"assert (E : {name}.gap {names} = {printed}) by ({proof}); lra)"
                )
        lines.append(f"assert (H : 0 {'<' if strict_fact else '<='} {instance}) by ({apply_fact})")
        difference = _printed(derivation, gap)
        if multiplier is None:
            equal = f"{unfold}cbv beta; first [ solve [ {LOGS} ] | ({derivation.equal(gap, product)}) ]"
            lines.append(f"assert (E : {difference} = {right}) by ({equal})")
        else:
            times = _printed(derivation, multiplier)
            equal = derivation.equal(["mul", multiplier, gap], ["mul", multiplier, product])
            lines.append(
                f"assert (E : {difference} = {right}) by (apply (Rmult_eq_reg_l {times}); "
                f"[ {unfold}cbv beta; first [ solve [ {LOGS} ] | ({equal}) ] | apply Rgt_not_eq; lra ])"
            )
        rule = "Rmult_lt_0_compat" if strict else "Rmult_le_pos"
        lines.append(f"assert (G : 0 {'<' if strict else '<='} {right}) by (apply {rule}; lra)")
        lines.append(f"unfold e_{k - 1}, e_{k}; lra")
        return ";\n  ".join(lines)

    if left:
        derivation.hypothesis(f"step_{k}", lemma_premises, claim, f"{MODULE_HYPOTHESES}: {'; '.join(left)}")
    else:
        derivation.lemma(f"step_{k}", lemma_premises, claim, script)
    return modules, bounds + extra, boxes


def _printed(derivation: Steps, tree: Any) -> str:
    """The Coq term of a tree of the derivation."""
    return term(tree, derivation.positive)
