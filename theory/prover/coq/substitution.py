"""The kernel's change of variables (``substitute``) as a Coq proof on one box, and the range facts it
shares with a chain.

The kernel accepts gap(x) = M(x) * H(phi(x)) on a box B when M >= 0 (> 0 when strict) there, every
phi_u's values on B lie in the set of u in the substitution's domain U, the exact normal forms of the two
sides agree, and H's own boxes over U prove H >= 0 (:mod:`theory.prover.kernel.substitution`). The Coq
proof of the box lemma ``box_k`` states the same steps:

- ``Module box_k_substitution``: H's boxes over U exported as a certificate of their own (its ``gap`` is
  H, its theorem ``statement`` is 0 <= H over U exactly as U is given), placed before the file's lemmas;
- ``box_k_range_u``: over B, phi_u lies in u's set (its finite ends, strict where U's are open): node by
  node from the kernel's enclosure of phi_u on B (:mod:`theory.prover.coq.unbounded`), or, for phi_u
  written ceiling(Z) - Z, by the kernel's rule ceiling(z) - z in [0, 1), which is Flocq's
  z <= ceiling(z) < z + 1 (``Raux.Zceil_ub``, ``Raux.Zceil_lb``);
- ``box_k_multiplier``: 0 <= M (0 < M) by the enclosure of M on B;
- ``box_k_identity``: gap = M * H(phi) on B through its atoms paired by their arguments' normal forms
  (:mod:`theory.prover.coq.paired`: sqrt (1152 + 1769472 L) = sqrt (L (1152 / L + 1769472)), each pair
  and the level's identity by ``field``), else along the log-linear normal form where it has symbolic
  powers (:mod:`theory.prover.coq.exponents`: the laws of exponents the kernel's normal form applies,
  printed as checked rewrites), else by ``sb_identity`` after ln of products and reciprocals of positive
  factors is expanded (``ln_mult``, ``ln_Rinv``): the kernel's normal form expands them for the
  variables it sees positive. Where coqc proves neither, it is a named hypothesis with that reason;
- ``box_k``: the identity, then M >= 0 times the module's theorem at phi (its premises the range facts)
  by ``Rmult_le_pos`` (``Rmult_lt_0_compat`` when strict).

A module whose proof leaves hypotheses, or a U with an integer variable (the theorem would need its
integrality premise), makes the box a hypothesis with the reason. Provenance: derived (a translation of
the kernel's substitution step; the identities and signs are proved by Coq).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from theory.prover.coq.paired import paired
from theory.prover.coq.steps import ENCLOSURE, Writer
from theory.prover.coq.terms import Untranslatable, rational, variable
from theory.prover.coq.unbounded import signed_by_nodes
from theory.prover.kernel.substitution import fractional_part_argument
from theory.prover.kernel.substitution import substitute as substituted
from theory.prover.kernel.trees import Malformed
from theory.prover.kernel.verify import FORMAT, Box, Variable, read_domain

IDENTITY_UNPROVED = (
    "sb_identity (field, ring) takes each Rpower a b, ln and ceiling as an atom, and the kernel's normal "
    "form also applies the laws of exponents a^x a^y = a^(x + y), (a b)^x = a^x b^x, (a^x)^y = a^(x y) "
    "for positive bases and symbolic x, y, and ln of products and sums; coqc proved it neither along that "
    "normal form (its rewrites printed, each checked) nor by sb_identity_laws (a box's identity only)"
)
"""The reason an identity of the kernel's normal form is a premise when coqc does not prove it."""
LOGS = "repeat first [ rewrite ln_mult by sb_positive | rewrite ln_Rinv by sb_positive ]; "
"""ln (a * b) = ln a + ln b and ln (/ a) = - ln a for positive a, b (the preamble's ``sb_positive``: a
product, reciprocal, power, sum, sqrt or exp of terms the premises show positive), rewritten in an
identity's goal."""

INTEGER_TARGET = "a substitution into an integer variable has no Coq translation yet"
"""Why a range in an integer variable is not translated (the theorem would need its integrality premise)."""
Fact = tuple[str, Any, bool]
"""A range fact: its Coq text, the tree shown >= 0 for it (value - lo, or hi - value) and its strictness."""


def range_facts(value: Any, target: Variable, printed: str) -> list[Fact]:
    """The facts of ``value`` (printed ``printed``) against the finite ends of ``target``'s set: lo <= value
    (lo < value at an open end) shown by value - lo >= 0 (> 0), value <= hi by hi - value; an integer
    target has no translation yet."""
    if target.integer:
        raise Untranslatable(INTEGER_TARGET)
    facts: list[Fact] = []
    if not math.isinf(target.lower):
        lo = Fraction(target.lower)
        relation = "<" if target.lower_open else "<="
        shifted = ["add", value, ["num", str(-lo)]]
        facts.append((f"{rational(lo)} {relation} {printed}", shifted, target.lower_open))
    if not math.isinf(target.upper):
        hi = Fraction(target.upper)
        relation = "<" if target.upper_open else "<="
        below = ["add", ["num", str(hi)], ["mul", ["num", "-1"], value]]
        facts.append((f"{printed} {relation} {rational(hi)}", below, target.upper_open))
    return facts


def range_claim(facts: list[Fact]) -> str:
    """The conjunction of the facts (True when the set has no finite end)."""
    return " /\\ ".join(fact for fact, _, _ in facts) or "True"


def range_script(facts: list[Fact], signed: Callable[[Any, bool], str], printed: Callable[[Any], str]) -> str:
    """The proof of :func:`range_claim`: each fact from 0 <= its tree (0 <) by ``signed(tree, strict)``."""
    if not facts:
        return "exact I"
    parts = [
        f"assert (0 {'<' if strict else '<='} {printed(tree)}) by ({signed(tree, strict)})"
        for _, tree, strict in facts
    ]
    return ";\n  ".join(parts) + ";\n  " + ("split; lra" if len(facts) == 2 else "lra")


def substitute(writer: Writer, name: str, decision: dict[str, Any], box: Box, strict: bool, form: Any) -> str:
    """gap = M * H(phi) on the box, H >= 0 over U by its own boxes (see the module)."""
    target = read_domain(decision.get("domain"))
    mapping, multiplier, inner = decision.get("map"), decision.get("multiplier"), decision.get("form")
    if not isinstance(mapping, dict) or set(mapping) != set(target):
        raise Malformed(f"a substitution's map must give every variable of its domain: {sorted(target)}")
    if any(v.integer for v in target.values()):
        raise Untranslatable(INTEGER_TARGET)
    module = f"{name}_substitution"
    exported = writer.nested(
        module,
        {
            "format": FORMAT,
            "inequality": f"the form of {name}'s change of variables",
            "gap": inner,
            "domain": decision.get("domain"),
            "strict": strict,
            "boxes": decision.get("boxes"),
        },
    )
    if exported.hypotheses:
        left = "; ".join(f"{h.name} ({h.reason})" for h in exported.hypotheses)
        raise Untranslatable(f"the substituted form's Coq proof (module {module}) leaves hypotheses: {left}")
    labels, uses = [], []
    for index, (variable_name, set_) in enumerate(target.items(), start=1):
        value = mapping[variable_name]
        printed = writer.subject(value)
        facts = range_facts(value, set_, printed)
        lemma = writer.stated(
            f"{name}_range_{variable(variable_name)[2:]}",
            box,
            range_claim(facts),
            functools.partial(_range_proof, writer, box, value, facts),
        )
        own = [f"R{index}_{k}" for k in range(len(facts))]
        if len(own) == 1:
            uses.append(f"assert ({own[0]} : {range_claim(facts)}) by ({writer.use(lemma)});\n  ")
        elif own:
            uses.append(f"assert (R{index} : {range_claim(facts)}) by ({writer.use(lemma)});\n  ")
            uses.append(f"destruct R{index} as [{' '.join(own)}];\n  ")
        labels += own
    sign = writer.lemma(f"{name}_multiplier", ENCLOSURE, box, strict, multiplier)
    product = ["mul", multiplier, substituted(inner, mapping)]
    subject, rewritten = writer.subject(form), writer.subject(product)
    direct = paired(writer, writer.tree if form is None else form, product, box) or ""
    identity = writer.stated(
        f"{name}_identity",
        box,
        f"{subject} = {rewritten}",
        lambda: f"{writer.identity(form, product, box, prelude=LOGS, direct=direct)};\n  exact E",
        unproved=IDENTITY_UNPROVED,
    )
    arguments = " ".join(writer.subject(mapping[n]) for n in target)
    rule = "Rmult_lt_0_compat" if strict else "Rmult_le_pos"
    relation = "<" if strict else "<="
    writer.keep(module, exported)
    return (
        "".join(uses)
        + f"pose proof ({module}.statement {arguments} {' '.join(labels)}) as S;\n  "
        + f"assert (M : 0 {relation} {writer.subject(multiplier)}) by ({writer.use(sign)});\n  "
        + f"rewrite ({identity} {' '.join(writer.names)}) by lra;\n  "
        + f"apply {rule}; [ exact M | exact S ]"
    )


def _range_proof(writer: Writer, box: Box, value: Any, facts: list[Fact]) -> str:
    """A range lemma's proof: ceiling(Z) - Z by Flocq's bounds of Zceil, else node by node."""
    argument = fractional_part_argument(value)
    if argument is not None:
        z = writer.subject(argument)
        return f"pose proof (Raux.Zceil_ub {z}); pose proof (Raux.Zceil_lb {z});\n  " + (
            "split; lra" if len(facts) == 2 else "lra" if facts else "exact I"
        )

    def claim(tree: Any, strict: bool) -> str:
        return signed_by_nodes(box, writer.domain, writer.positive, tree, strict)

    return range_script(facts, claim, writer.subject)
