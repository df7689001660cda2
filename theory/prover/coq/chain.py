"""A chain certificate (``specbound-chain-certificate/2``) as one Coq file: pieces, ranges, factors, identity.

The kernel accepts a chain when (theory.prover.kernel.chain) every piece's certificate is accepted, each
substitution value lies in its piece's domain, each factor is >= 0 on the chain's domain D and
gap = sum_i factor_i * sub_i(sigma_i) holds exactly. The file states the same steps as Coq lemmas:

- each piece's certificate in a ``Module piece_<name>`` (:func:`~theory.prover.coq.export.
  export_certificate`, its gap ``piece_<name>.gap`` and theorem ``piece_<name>.statement``);
- ``range_<name>_<y>``: over D, the value of y in y's set (its finite ends, open where the piece's domain
  is open), and ``factor_<name>``: 0 <= factor over D, each proved node by node
  (:mod:`theory.prover.coq.unbounded`: the kernel's enclosure on D, which reaches infinity);
- ``identity``: gap = sum_i factor_i * piece_<name>.gap (sigma_i) over D, after the pieces' gaps are
  unfolded, along its log-linear normal form (:mod:`theory.prover.coq.exponents`: the laws of exponents
  and ln of sums as checked rewrites), or by ``sb_identity`` where it has neither symbolic powers nor
  logarithms to rewrite;
- ``statement``: 0 <= gap over D exactly as given: the identity, then each term is a product of two
  numbers >= 0 (the factor's lemma and the piece's theorem at the ranges' facts), so lra concludes.

A lemma coqc cannot prove (the probe finds them, as for a box certificate) and the theorem of a piece
whose module leaves hypotheses (``piece_<name>_statement``, the reason naming the module's own) become
named ``Hypothesis`` premises of a ``Section`` with the reason: never ``Admitted`` or ``Axiom``.
Provenance: derived (a translation of the kernel's chain check).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from theory.prover.coq import node_rules
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
    unproved_reason,
    within,
)
from theory.prover.coq.preamble import preamble
from theory.prover.coq.substitution import IDENTITY_UNPROVED, Fact, range_claim, range_facts, range_script
from theory.prover.coq.terms import Untranslatable, binders, term, variable
from theory.prover.coq.unbounded import signed_by_nodes
from theory.prover.kernel import chain as kernel_chain
from theory.prover.kernel import trees, verify
from theory.prover.kernel.substitution import substitute as substituted
from theory.prover.kernel.trees import Malformed
from theory.prover.kernel.verify import Box

PIECE_HYPOTHESES = "its certificate's Coq proof (its module) leaves hypotheses"
"""The reason a piece's theorem is a premise of the chain, followed by the module's hypotheses."""


def module_name(piece: str) -> str:
    """The Coq module of a piece (prefixed, so no piece name shadows a Coq name)."""
    return variable(piece).replace("v_", "piece_", 1)


class _ChainWriter:
    """The lemmas of one chain, in order: ranges, factors, identity (each proved or a Hypothesis)."""

    def __init__(self, data: dict[str, Any], assumed: dict[str, str], probe: bool) -> None:
        self.domain = verify.read_domain(data.get("domain"))
        self.gap = data.get("gap")
        trees.validate(self.gap, set(self.domain))
        self.whole: Box = {name: (v.lower, v.upper) for name, v in self.domain.items()}
        if any(v.integer for v in self.domain.values()):
            raise Untranslatable("a chain over an integer variable has no Coq translation yet")
        self.writer = _Writer(self.domain, {}, probe, self.positive, self.gap)
        self.assumed = assumed
        self.probe = probe
        self.premises = [f"D{i}" for i in range(len(self.writer.bounds(self.whole)))]
        self.lemmas: list[str] = []
        self.hypotheses: list[Hypothesis] = []

    def positive(self, base: Any) -> bool:
        """The kernel encloses ``base`` above 0 on the chain's whole domain."""
        return _positive_on(base, self.whole, self.domain)

    def over(self, claim: str) -> str:
        """forall x.., <D's bounds> -> claim."""
        premises = "".join(f"{p} -> " for p in self.writer.bounds(self.whole))
        return f"{binders(self.writer.names)} {premises}{claim}"

    def lemma(self, name: str, claim: str, script: Callable[[], str]) -> None:
        """Lemma ``name`` over D proved by ``script()`` (a tactic expression after the intros), or a
        Hypothesis with the reason when it raises Untranslatable (or an internal error: :data:`FAILURES`)
        or is in ``assumed``."""
        try:
            if name in self.assumed:
                raise Untranslatable(self.assumed[name])
            tactic = script()
        except Malformed:
            raise
        except FAILURES as error:
            reason = unproved_reason(error)
            self.hypotheses.append(Hypothesis(name, reason))
            self.lemmas.append(f"(* {_comment(reason)} *)\nHypothesis {name} : {self.over(claim)}.\n")
            return
        intros = f"intros {' '.join(self.writer.names + self.premises)};\n  "
        if self.probe:
            proof = f'first [ solve [ {intros}{tactic} ] | idtac "{PROBE_MARK} {name}"; admit ].\nAdmitted.'
        else:
            proof = f"{intros}{tactic}.\nQed."
        self.lemmas.append(f"Lemma {name} : {self.over(claim)}.\nProof.\n  {proof}\n")

    def signed(self, tree: Any, strict: bool) -> str:
        """The script of 0 <= tree (0 < tree) over D, node by node (the kernel's enclosure on D)."""
        return signed_by_nodes(self.whole, self.domain, self.positive, tree, strict)

    def range_facts(self, piece: kernel_chain.Piece) -> list[tuple[str, list[Fact]]]:
        """Per variable y of the piece (its domain's order): the range lemma's name and the facts of the
        value against y's finite ends (:func:`~theory.prover.coq.substitution.range_facts`)."""
        return [
            (
                f"range_{module_name(piece.name)[6:]}_{variable(name)[2:]}",
                range_facts(piece.substitution[name], target, term(piece.substitution[name], self.positive)),
            )
            for name, target in piece.domain.items()
        ]

    def range_lemma(self, name: str, facts: list[Fact]) -> None:
        """The range lemma: each fact from 0 <= value - lo (0 < ...) or its upper form, node by node."""
        self.lemma(
            name,
            range_claim(facts),
            lambda: range_script(facts, self.signed, lambda tree: term(tree, self.positive)),
        )


def export_chain(
    data: Any,
    title: str = "",
    assumed: dict[str, str] | None = None,
    probe: bool = False,
) -> CoqExport:
    """The Coq file of a chain certificate (see the module). ``assumed``: lemmas stated as hypotheses
    with the reason, the chain's own by name and a piece's as ``piece_<name>.<lemma>`` (what a probe
    reports); ``probe``: the file that finds them (each piece's marks carry its module's name).
    :class:`Malformed` when it is not a chain certificate."""
    if not isinstance(data, dict) or data.get("format") != kernel_chain.FORMAT:
        raise Malformed(f"not a chain certificate: format must be {kernel_chain.FORMAT!r}")
    assumed = {n: IDENTITY_UNPROVED if n == "identity" else r for n, r in (assumed or {}).items()}
    chain = _ChainWriter(data, assumed, probe)
    records = data.get("pieces")
    if not isinstance(records, list) or not records:
        raise Malformed("a chain certificate needs a non-empty list of pieces")
    pieces = [kernel_chain.read_piece(record, set(chain.domain)) for record in records]
    modules, boxes = [], 0
    left: dict[str, list[Hypothesis]] = {}
    for piece, certificate in pieces:
        module = module_name(piece.name)
        exported = export_certificate(
            certificate, piece.name, within(assumed, module), probe, standalone=False
        )
        boxes += exported.boxes
        modules.append(module_text(module, exported))
        left[module] = exported.hypotheses
    names = chain.writer.names
    terms, uses = [], []
    for piece, _ in pieces:
        module = module_name(piece.name)
        arguments = " ".join(term(piece.substitution[y], chain.positive) for y in piece.domain)
        factor = term(piece.factor, chain.positive)
        terms.append(f"{factor} * {module}.gap {arguments}")
        chain.lemma(
            f"factor_{module[6:]}", f"0 <= {factor}", functools.partial(chain.signed, piece.factor, False)
        )
        ranges = chain.range_facts(piece)
        for name, facts in ranges:
            chain.range_lemma(name, facts)
        uses.append((piece, module, arguments, ranges))
    unfold = ", ".join(["gap"] + [f"{module}.gap" for _, module, _, _ in uses])
    chain.lemma(
        "identity",
        f"gap {' '.join(names)} = {' + '.join(terms)}",
        functools.partial(_identity_script, chain, [piece for piece, _ in pieces], unfold),
    )
    for piece, module, _, _ in uses:
        if left[module]:
            reason = f"{PIECE_HYPOTHESES}: " + "; ".join(f"{h.name} ({h.reason})" for h in left[module])
            chain.hypotheses.append(Hypothesis(f"{module}_statement", reason))
            chain.lemmas.append(
                f"(* {_comment(reason)} *)\n"
                f"Hypothesis {module}_statement : {_piece_statement(piece, module)}.\n"
            )
    return CoqExport(_text(data, title, chain, modules, uses, boxes), boxes, chain.hypotheses)


def _identity_script(chain: _ChainWriter, pieces: list[kernel_chain.Piece], unfold: str) -> str:
    """gap = sum_i factor_i * piece_i.gap (sigma_i): after unfolding, by the laws of exponents along the
    identity's log-linear normal form (:func:`~theory.prover.coq.exponents.guided`; a base that is not a
    number or a variable shown > 0 node by node) where it has symbolic powers, else ``sb_identity``."""
    right = ["add", *(["mul", p.factor, substituted(p.gap, p.substitution)] for p in pieces)]
    laws = guided([chain.gap, right], chain.positive, functools.partial(chain.signed, strict=True))
    if laws is None:
        return f"unfold {unfold}; sb_identity"
    return f"unfold {unfold}; cbv beta;\n  {laws}"


def _piece_statement(piece: kernel_chain.Piece, module: str) -> str:
    """The statement of a piece's theorem, as its module states it (its domain's bounds, then 0 <= gap)."""
    writer = _Writer(piece.domain, {}, False, lambda base: False, piece.gap)
    whole: Box = {name: (v.lower, v.upper) for name, v in piece.domain.items()}
    premises = "".join(f"{p} -> " for p in writer.bounds(whole))
    return f"{binders(writer.names)} {premises}0 <= {module}.gap {' '.join(writer.names)}"


def _text(
    data: dict[str, Any],
    title: str,
    chain: _ChainWriter,
    modules: list[str],
    uses: list[tuple[kernel_chain.Piece, str, str, list[Any]]],
    boxes: int,
) -> str:
    """The file: header, preamble, the chain's gap, the pieces' modules, the lemmas and the theorem."""
    names = chain.writer.names
    spelled = " ".join(names)
    at = f"{spelled} {' '.join(chain.premises)}"
    proof = [f"  intros {at}.", f"  rewrite (identity {at})."]
    for index, (_, module, arguments, ranges) in enumerate(uses, start=1):
        facts: list[str] = []
        for r, (name, parts) in enumerate(ranges):
            labels = [f"R{index}_{r}_{k}" for k in range(len(parts))]
            if len(labels) == 1:
                proof.append(f"  pose proof ({name} {at}) as {labels[0]}.")
            elif labels:
                proof.append(f"  destruct ({name} {at}) as [{' '.join(labels)}].")
            facts += labels
        statement = (
            f"{module}_statement"
            if any(h.name == f"{module}_statement" for h in chain.hypotheses)
            else f"{module}.statement"
        )
        proof.append(f"  pose proof ({statement} {arguments} {' '.join(facts)}) as S{index}.")
        proof.append(f"  pose proof (factor_{module[6:]} {at}) as F{index}.")
        proof.append(f"  pose proof (Rmult_le_pos _ _ F{index} S{index}) as T{index}.")
    proof.append("  lra.")
    header = (
        f"(* Exported by specbound from a {kernel_chain.FORMAT} certificate"
        f"{': ' + _comment(title) if title else ''}.\n"
        f"   Inequality: {_comment(str(data.get('inequality', '')))}\n"
        f"   Claim: gap >= 0 on the domain, as the sum of {len(uses)} pieces' factor * piece; "
        f"{boxes} boxes in the pieces. *)\n\n"
    )
    section = bool(chain.hypotheses)
    return (
        header
        + preamble(nodes=node_rules.used([*modules, *chain.lemmas]))
        + f"\nDefinition gap ({spelled} : R) : R := {term(chain.gap, chain.positive)}.\n\n"
        + "\n".join(modules)
        + ("\nSection Chain.\n\n" if section else "\n")
        + "\n".join(chain.lemmas)
        + f"\nTheorem statement : {chain.writer.theorem(chain.whole, False)}.\nProof.\n"
        + "\n".join(proof)
        + "\nQed.\n"
        + ("\nEnd Chain.\n" if section else "")
        + "\nPrint Assumptions statement.\n"
    )
