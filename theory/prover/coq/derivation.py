"""A derivation certificate (``specbound-derivation-certificate/1``, docs/derive.md) as one Coq file: each
step a lemma, the conclusion from them.

The checker (:mod:`theory.derive.check`) accepts a derivation E0 R1 E1 R2 ... En when the steps chain and
each step holds on its domain (the derivation's, cut by the step's bound assumptions). The file states:

- ``e_i``: each expression E_i of the chain as a Coq function of the variables;
- per inequality step decided by the prover, its certificate in a ``Module step_<k>``
  (:func:`~theory.prover.coq.export.export_certificate`: 0 <= gap over the step's domain, the gap
  E_k - E_{k-1} or E_{k-1} - E_k as the checker rebuilds it), and the lemma ``step_<k>``: E_{k-1} R_k E_k
  over the step's domain, from the module's theorem by ``lra`` (the module's gap equal to that difference
  along the log-linear normal form, else by ``field``);
- per identity (= by the kernel's exact normal form, or by sympy's), the lemma ``step_<k>``: E_{k-1} = E_k
  over the derivation's domain, by ``sb_identity`` (with the square roots' relation sqrt a * sqrt a = a
  where a side has a power k/2, :func:`~theory.prover.coq.export.root_relations`: L^(3/2) is printed
  (sqrt L)^3) or along the log-linear normal form (:func:`~theory.prover.coq.exponents.guided`) where it
  has symbolic powers or logarithms;
- per step by a fact under a substitution, the fact's module (once per file) and the lemma ``step_<k>``
  from the fact's theorem at the substitution (:mod:`theory.prover.coq.fact_step`);
- ``statement``: for every point of the domain where the bound assumptions and the named assumptions the
  steps use hold, E0 R En, each step's lemma applied (its premises from the theorem's by ``lra``), then
  ``lra``. An earlier derivation used as a fact is the same text without header, preamble or
  ``Print Assumptions`` (``standalone`` False), inside its fact's module.

A lemma coqc cannot prove (the probe finds them, as for a box certificate), and a step whose module leaves
hypotheses, become named ``Hypothesis`` premises of a ``Section`` with the reason: never ``Admitted`` or
``Axiom``. A step under an assumption that is not a bound has no translation yet (:class:`Untranslatable`,
naming the step). Provenance: derived (a translation of the derivation checker).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from theory.derive.check import DERIVATION_FORMAT, EXACT, FACT, PROVER, SYMPY, step_gap_tree
from theory.prover.coq.exponents import guided
from theory.prover.coq.export import (
    FAILURES,
    PROBE_MARK,
    CoqExport,
    Hypothesis,
    _comment,
    _positive_on,
    _Writer,
    export_certificate,
    module_text,
    root_relations,
    unproved_reason,
    within,
)
from theory.prover.coq.fact_step import FACTORS, FactModules, fact_step, premises, step_domain
from theory.prover.coq.paired import CLOSE
from theory.prover.coq.preamble import preamble_for
from theory.prover.coq.terms import Untranslatable, binders, term
from theory.prover.coq.unbounded import signed_by_nodes
from theory.prover.kernel import verify
from theory.prover.kernel.trees import Malformed
from theory.prover.kernel.verify import Box

RELATIONS = {"<=": "<=", "<": "<", ">=": ">=", ">": ">", "=": "="}
"""The certificate's relations and Coq's (on R)."""
MODULE_HYPOTHESES = "its certificate's Coq proof (its module) leaves hypotheses"
"""The reason a step's lemma is a premise, followed by the module's hypotheses."""
FIELD = f"solve [ {CLOSE} ]"
"""An inequality step's gap = E_k - E_{k-1} where the log-linear route leaves it (a rewrite of ln whose
argument's positivity ``sb_positive`` cannot show, such as that of a ceiling's square): both are written
with the same atoms, so ``field`` (its conditions by the sign rules) closes it."""


class _DerivationWriter:
    """The lemmas of one derivation, in order (each proved, or a Hypothesis with its reason)."""

    def __init__(
        self, data: dict[str, Any], assumed: dict[str, str], probe: bool, files: dict[str, Any]
    ) -> None:
        self.data_domain = data.get("domain")
        self.domain = verify.read_domain(self.data_domain)
        self.whole: Box = {name: (v.lower, v.upper) for name, v in self.domain.items()}
        self.writer = _Writer(self.domain, {}, probe, self.positive, ["num", "0"])
        self.names = self.writer.names
        self.assumed = assumed
        self.probe = probe
        self.lemmas: list[str] = []
        self.hypotheses: list[Hypothesis] = []
        self.facts = FactModules(files, functools.partial(_nested, files, probe))

    def positive(self, base: Any) -> bool:
        """The kernel encloses ``base`` above 0 on the derivation's whole domain."""
        return _positive_on(base, self.whole, self.domain)

    def equal(self, left: Any, right: Any) -> str:
        """The tactic proving the terms of ``left`` and ``right`` equal (their definitions unfolded):
        along the log-linear normal form where they have symbolic powers or logarithms, else
        ``sb_identity`` with the square roots' relations."""
        laws = guided([left, right], self.positive, self.signed)
        if laws is not None:
            return f"cbv beta;\n  {laws}"
        facts, closing = root_relations([left, right], self.positive, "sb_identity")
        return f"{facts}{closing}"

    def over(self, premises: list[str], claim: str) -> str:
        """forall x.., premises -> claim."""
        return f"{binders(self.names)} {''.join(f'{p} -> ' for p in premises)}{claim}"

    def lemma(self, name: str, premises: list[str], claim: str, script: Callable[[list[str]], str]) -> None:
        """Lemma ``name`` over ``premises`` proved by ``script(labels)`` (a tactic after the intros, the
        premises named by ``labels``), or a Hypothesis with the reason when it raises Untranslatable (or
        an internal error: :data:`FAILURES`) or is in ``assumed``."""
        labels = [f"P{i}" for i in range(len(premises))]
        try:
            if name in self.assumed:
                raise Untranslatable(self.assumed[name])
            tactic = script(labels)
        except Malformed:
            raise
        except FAILURES as error:
            self.hypothesis(name, premises, claim, unproved_reason(error))
            return
        intros = f"intros {' '.join(self.names + labels)};\n  "
        if self.probe:
            proof = f'first [ solve [ {intros}{tactic} ] | idtac "{PROBE_MARK} {name}"; admit ].\nAdmitted.'
        else:
            proof = f"{intros}{tactic}.\nQed."
        self.lemmas.append(f"Lemma {name} : {self.over(premises, claim)}.\nProof.\n  {proof}\n")

    def hypothesis(self, name: str, premises: list[str], claim: str, reason: str) -> None:
        """A named premise of the theorem, with its reason beside it."""
        self.hypotheses.append(Hypothesis(name, reason))
        self.lemmas.append(f"(* {_comment(reason)} *)\nHypothesis {name} : {self.over(premises, claim)}.\n")

    def signed(self, tree: Any, strict: bool = True) -> str:
        """The script of 0 < tree (0 <= tree) over the domain, node by node (the kernel's enclosure)."""
        return signed_by_nodes(self.whole, self.domain, self.positive, tree, strict)


def export_derivation(
    data: Any,
    title: str = "",
    assumed: dict[str, str] | None = None,
    probe: bool = False,
    files: dict[str, Any] | None = None,
    standalone: bool = True,
) -> CoqExport:
    """The Coq file of a derivation certificate (see the module). ``assumed``: lemmas stated as
    hypotheses with the reason, a step's own by name and a module's as ``step_<k>.<lemma>`` (what a probe
    reports); ``probe``: the file that finds them. :class:`Malformed` when it is not a derivation
    certificate, :class:`Untranslatable` when a step has no Coq translation yet."""
    if not isinstance(data, dict) or data.get("format") != DERIVATION_FORMAT:
        raise Malformed(f"not a derivation certificate: format must be {DERIVATION_FORMAT!r}")
    steps = data.get("steps")
    if not isinstance(steps, list) or not steps:
        raise Malformed("a derivation certificate needs a non-empty list of steps")
    files = data.get("files", {}) if files is None else files
    derivation = _DerivationWriter(data, assumed or {}, probe, files)
    names = " ".join(derivation.names)
    expressions = [steps[0]["lhs"], *(step["rhs"] for step in steps)]
    definitions = "".join(
        f"Definition e_{i} ({names} : R) : R := {term(tree, derivation.positive)}.\n"
        for i, tree in enumerate(expressions)
    )
    modules: list[str] = []
    bounds: list[str] = []
    boxes = 0
    for k, step in enumerate(steps, start=1):
        claim = f"e_{k - 1} {names} {RELATIONS[step['relation']]} e_{k} {names}"
        if step["method"] in (EXACT, SYMPY):
            identity = functools.partial(_identity, derivation, expressions[k - 1], expressions[k], k)
            derivation.lemma(f"step_{k}", premises(derivation.domain), claim, identity)
        elif step["method"] == PROVER:
            boxes += _prover_step(derivation, step, k, claim, modules, bounds)
        elif step["method"] == FACT:
            own, added, counted = fact_step(derivation, derivation.facts, step, k, claim, data["domain"])
            modules += own
            bounds += [b for b in added if b not in bounds]
            boxes += counted
        else:
            raise Malformed(f"step {step.get('name')!r}: unknown method {step['method']!r}")
    opening = FACTORS if standalone else ""
    modules = derivation.facts.texts + modules
    text = _text(data, title, derivation, opening + definitions, modules, bounds, len(steps), standalone)
    return CoqExport(text, boxes, derivation.hypotheses)


def _nested(files: dict[str, Any], probe: bool, certificate: Any, assumed: dict[str, str]) -> CoqExport:
    """An earlier derivation used as a fact, as a module's body (its references to the outermost
    certificate's ``files``)."""
    return export_derivation(certificate, "", assumed, probe, files, standalone=False)


def _identity(derivation: _DerivationWriter, left: Any, right: Any, k: int, _labels: list[str]) -> str:
    """E_{k-1} = E_k after unfolding (:meth:`_DerivationWriter.equal`)."""
    return f"unfold e_{k - 1}, e_{k}; {derivation.equal(left, right)}"


def _prover_step(
    derivation: _DerivationWriter,
    step: dict[str, Any],
    k: int,
    claim: str,
    modules: list[str],
    bounds: list[str],
) -> int:
    """The module of the step's certificate and the step's lemma over its domain (its bound assumptions
    added to ``bounds``, the theorem's premises); the certificate's boxes."""
    _, cut = step_domain(derivation.data_domain, step)
    gap, strict = step_gap_tree(step["lhs"], step["rhs"], step["relation"], [])
    certificate = step["certificate"]
    if certificate.get("strict") is not strict:
        raise Malformed(f"step {step.get('name')!r}: its certificate states another inequality")
    module = f"step_{k}"
    exported = export_certificate(
        certificate, module, within(derivation.assumed, module), derivation.probe, standalone=False
    )
    modules.append(module_text(module, exported))
    bounds += [b for b in cut if b not in bounds]
    stated = premises(verify.read_domain(certificate["domain"]))
    if exported.hypotheses:
        reason = f"{MODULE_HYPOTHESES}: " + "; ".join(f"{h.name} ({h.reason})" for h in exported.hypotheses)
        derivation.hypothesis(module, stated, claim, reason)
        return exported.boxes
    names = " ".join(derivation.names)

    def script(labels: list[str]) -> str:
        laws = guided([certificate["gap"], gap], derivation.positive, derivation.signed)
        identity = "sb_identity" if laws is None else f"cbv beta;\n    first [ solve [ {laws} ] | {FIELD} ]"
        difference = term(gap, derivation.positive)
        return (
            f"pose proof ({module}.statement {names} {' '.join(labels)}) as S;\n  "
            f"assert (E : {module}.gap {names} = {difference}) by (unfold {module}.gap; {identity});\n  "
            f"unfold e_{k - 1}, e_{k}; lra"
        )

    derivation.lemma(module, stated, claim, script)
    return exported.boxes


def _text(
    data: dict[str, Any],
    title: str,
    derivation: _DerivationWriter,
    definitions: str,
    modules: list[str],
    bounds: list[str],
    steps: int,
    standalone: bool,
) -> str:
    """The file: header, preamble, the expressions, the steps' modules, the lemmas and the theorem."""
    names = " ".join(derivation.names)
    conclusion = data["conclusion"]
    stated = premises(derivation.domain) + bounds
    labels = [f"P{i}" for i in range(len(stated))]
    proof = [f"  intros {' '.join(derivation.names + labels)}."]
    for k in range(1, steps + 1):
        step = f"e_{k - 1} {names} {RELATIONS[data['steps'][k - 1]['relation']]} e_{k} {names}"
        proof.append(f"  assert (S{k} : {step}) by (apply step_{k}; first [ assumption | lra ]).")
    proof.append("  lra.")
    claim = f"e_0 {names} {RELATIONS[conclusion['relation']]} e_{steps} {names}"
    section = bool(derivation.hypotheses)
    header = (
        f"(* Exported by specbound from a {DERIVATION_FORMAT} certificate"
        f"{': ' + _comment(title) if title else ''}.\n"
        f"   Claim: e_0 {conclusion['relation']} e_{steps} on the domain where the bound assumptions hold, "
        f"step by step; {steps} steps. *)\n\n"
    )
    rest = (
        definitions
        + "\n"
        + "\n".join(modules)
        + ("\nSection Derivation.\n\n" if section else "\n")
        + "\n".join(derivation.lemmas)
        + f"\nTheorem statement : {derivation.over(stated, claim)}.\nProof.\n"
        + "\n".join(proof)
        + "\nQed.\n"
        + ("\nEnd Derivation.\n" if section else "")
        + ("\nPrint Assumptions statement.\n" if standalone else "")
    )
    return header + preamble_for(rest) + rest if standalone else rest
