"""The kernel's steps on a form of the gap (``scale``, ``unsigned``, ``sum``) as Coq proofs, box by box.

Each step is proved as the kernel decided it, its pieces in lemmas of their own (each proved, or a named
hypothesis, by the writer's :meth:`~theory.prover.coq.export._Writer.lemma`):

- ``scale`` by m to the form f: ``name_by`` proves 0 < m on the box (an enclosure of m, as the kernel's),
  ``E : subject * m = f`` is an identity (``sb_identity``, m > 0 in the context for its denominators),
  ``name_scaled`` decides f by the nested decision, and ``sb_scale`` (g m = f, m > 0, f >= 0 give g >= 0;
  ``sb_scale_strict`` for > 0) concludes;
- ``unsigned``: for each |u| the kernel resolved (innermost first, by the sign of u's enclosure on the box),
  ``name_abs_j`` proves 0 <= u (or 0 <= -u) by enclosure, ``Rabs_pos_eq`` (``sb_abs_neg``) rewrites
  |u| as u (-1 u), the rewritten subject is the kernel's form (``sb_identity``) and ``name_unsigned``
  decides it;
- ``sum`` of the parts T_1 .. T_n: ``E : subject = T_1 + ... + T_n`` (``sb_identity``), ``name_part_i``
  decides T_i with the claim's strictness, and the rule lemmas ``sb_rewrite`` and ``sb_add`` (``_lt``
  when strict) add them.

Provenance: derived (a translation of the kernel's decisions; the identities and signs are proved by Coq).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import Any, Protocol

from theory.prover.coq.preamble import sqrt_relation
from theory.prover.coq.terms import Untranslatable, points
from theory.prover.kernel import exact, logs, signs
from theory.prover.kernel.trees import Malformed
from theory.prover.kernel.verify import FORMAT, Box, Variable, abs_sign, fixed_points


class Writer(Protocol):
    """What a step's proof needs of the exporter's writer (:class:`theory.prover.coq.export._Writer`): the
    certificate's domain, gap tree and positivity rule of general powers, the Coq term of a claim's
    subject, the tactic applying a lemma of the box, a nested lemma (proved, or a named hypothesis; by a
    decision, or with a claim and its script), an identity assertion and a nested certificate's module."""

    domain: dict[str, Variable]
    tree: Any
    names: list[str]
    positive: Callable[[Any], bool]

    def subject(self, form: Any) -> str: ...

    def use(self, lemma: str) -> str: ...

    def lemma(self, name: str, decision: Any, box: Box, strict: bool, form: Any = None) -> str: ...

    def stated(
        self, name: str, box: Box, claim: str, script: Callable[[], str], unproved: str | None = None
    ) -> str: ...

    def nested(self, module: str, data: dict[str, Any]) -> Any: ...

    def keep(self, module: str, exported: Any) -> None: ...

    def identity(
        self,
        form: Any,
        rewritten: Any,
        box: Box,
        times: Any = None,
        prelude: str = "",
        direct: str = "",
    ) -> str: ...


@contextmanager
def on_domain(writer: Writer, domain: dict[str, Variable]) -> Iterator[None]:
    """Lemmas written inside state their premises over ``domain`` (a nested decision's own domain, as
    the kernel decided it: one period, a piece between two jumps with its ends open)."""
    outer, writer.domain = writer.domain, domain
    try:
        yield
    finally:
        writer.domain = outer


ENCLOSURE = {"method": "enclosure"}
"""The decision of a sign the kernel shows by its enclosure on the box."""


def scale(writer: Writer, name: str, decision: dict[str, Any], box: Box, strict: bool, form: Any) -> str:
    """gap * m = f with m > 0 on the box, then f decided: the gap has f's sign (see the module)."""
    multiplier, scaled = decision.get("by"), decision.get("form")
    positive = writer.lemma(f"{name}_by", ENCLOSURE, box, True, multiplier)
    nested = writer.lemma(f"{name}_scaled", decision.get("then"), box, strict, scaled)
    m = writer.subject(multiplier)
    rule = "sb_scale_strict" if strict else "sb_scale"
    termwise_ = termwise(writer, form, scaled, multiplier, box)
    identity = writer.identity(form, scaled, box, multiplier, SIMPLIFY_M, direct=termwise_ or "")
    return (
        f"assert (M : 0 < {m}) by ({writer.use(positive)});\n  "
        f"{identity};\n  "
        f"apply ({rule} ({writer.subject(form)}) {m} {writer.subject(scaled)});\n"
        f"  [ exact M | exact E | {writer.use(nested)} ]"
    )


def _root_rules(writer: Writer, multiplier: Any) -> str:
    """``field [R0 ..]`` with R_i : sqrt b * sqrt b = b for each base b of a factor of the multiplier (its
    half-integer powers are what a term's product with it leaves printed as roots: sqrt L * L against
    (sqrt L)^3), each proved first (:func:`~theory.prover.coq.preamble.sqrt_relation`)."""
    bases = []
    for factor in multiplier[1:] if multiplier[0] == "mul" else [multiplier]:
        base = factor[1] if factor[0] == "pow" else factor
        if base[0] != "num" and writer.subject(base) not in bases:
            bases.append(writer.subject(base))
    facts = "".join(f"{sqrt_relation(f'R{i}', base)}; " for i, base in enumerate(bases))
    return f"{facts}field [{' '.join(f'R{i}' for i in range(len(bases)))}]"


def termwise(writer: Writer, form: Any, scaled: Any, multiplier: Any, box: Box) -> str | None:
    """The tactic of (T_1 + ... + T_n) * m = S_1 + ... + S_n term by term (the identity's first attempt),
    where the kernel's exact normal form of each T_i m is that of one S_j (a bijection, found here): each
    E_j : T_i * m = S_j by ``field`` with the inverses on both sides named (``sb_opaque_inverses``: only
    m's cancel, shown nonzero by ``sb_nonzero``) and the roots of m's bases as its rules, then the sum by
    ``ring`` (distributing m) and the congruence of + on the E_j. None where the subject or the form is
    not a sum or no such bijection exists. ``field`` on the whole sum clears every term's denominators
    at once (over 70 coqc CPU s on the 7 KB identity of docs/examples/l2_below_edelman_minilm_l6)."""
    subject = writer.tree if form is None else form
    if subject[0] != "add" or scaled[0] != "add" or len(subject) != len(scaled):
        return None
    fixed = fixed_points(box)
    products = [exact.normal_form_times(part, multiplier, fixed) for part in subject[1:]]
    order: list[int] = []
    for target in scaled[1:]:
        wanted = exact.normal_form(target, fixed)
        found = [i for i, product in enumerate(products) if i not in order and product == wanted]
        if wanted is None or not found:
            return None
        order.append(found[0])
    m = writer.subject(multiplier)
    direct = f"{points(box)}sb_opaque_inverses; {_root_rules(writer, multiplier)}; sb_nonzero"
    facts = "".join(
        f"assert (E{j} : ({writer.subject(subject[1 + i])} * {m}) = {writer.subject(target)}) by ({direct});"
        "\n    "
        for j, (i, target) in enumerate(zip(order, scaled[1:], strict=True))
    )
    middle = " + ".join(f"({writer.subject(subject[1 + i])} * {m})" for i in order)
    added = "E0"
    for j in range(1, len(order)):  # the left fold (x_1 + x_2) + x_3 .. as Coq parses both sums
        added = f"(f_equal2 Rplus {added} E{j})"
    return f"\n    {facts}transitivity ({middle}); [ ring | exact {added} ]"


SIMPLIFY_M = "rewrite ?Rmult_1_l, ?Rmult_1_r, ?Rplus_0_l, ?Rplus_0_r in M; "
"""m > 0 with 1 x, x + 0, ... simplified (the kernel's normal-form trees carry them), so that lra reads it
as the identity's denominator nonzero."""


def unsigned(writer: Writer, name: str, decision: dict[str, Any], box: Box, strict: bool, form: Any) -> str:
    """Each |u| of a signed u written u or -1 u (see the module), then the form decided."""
    subject = writer.tree if form is None else form
    found: list[tuple[Any, int]] = []
    resolved = signs.resolved(subject, _recording(box, writer.domain, found))
    facts, rewrites = [], []
    for index, (argument, sign) in enumerate(found, start=1):
        signed = argument if sign == 1 else ["mul", ["num", "-1"], argument]
        lemma = writer.lemma(f"{name}_abs_{index}", ENCLOSURE, box, False, signed)
        facts.append(f"assert (A{index} : 0 <= {writer.subject(signed)}) by ({writer.use(lemma)});\n  ")
        rule = "Rabs_pos_eq" if sign == 1 else "sb_abs_neg"
        rewrites.append(f"try rewrite ({rule} _ A{index}); ")
    nested = writer.lemma(f"{name}_unsigned", decision.get("then"), box, strict, resolved)
    identity = writer.identity(form, resolved, box, prelude="".join(rewrites))
    return "".join(facts) + f"{identity};\n  {rewriting(strict)}{writer.use(nested)}"


def _recording(
    box: Box, domain: dict[str, Variable], found: list[tuple[Any, int]]
) -> Callable[[Any], int | None]:
    """The kernel's rule for the sign of an abs argument (:func:`~theory.prover.kernel.verify.abs_sign`),
    each answer recorded in ``found`` in the order asked (innermost first)."""

    def sign(argument: Any) -> int | None:
        value = abs_sign(argument, box, domain)
        if value is not None:
            found.append((argument, value))
        return value

    return sign


def sum_(writer: Writer, name: str, decision: dict[str, Any], box: Box, strict: bool, form: Any) -> str:
    """subject = T_1 + ... + T_n, each T_i decided (see the module)."""
    parts = decision.get("parts")
    if not (isinstance(parts, list) and parts and all(isinstance(part, dict) for part in parts)):
        raise Malformed("a sum decision needs a non-empty list of parts {form, then}")
    forms = [part.get("form") for part in parts]
    relation = "<" if strict else "<="
    facts = []
    for index, (part, record) in enumerate(zip(forms, parts, strict=True), start=1):
        lemma = writer.lemma(f"{name}_part_{index}", record.get("then"), box, strict, part)
        claim = f"0 {relation} {writer.subject(part)}"
        facts.append(f"assert (P{index} : {claim}) by ({writer.use(lemma)});\n  ")
    added = "exact P1"
    for index in range(2, len(forms) + 1):  # the left fold (T_1 + T_2) + T_3 .. as Coq parses the sum
        added = f"apply {'sb_add_lt' if strict else 'sb_add'}; [ {added} | exact P{index} ]"
    return "".join(facts) + f"{writer.identity(form, ['add', *forms], box)};\n  {rewriting(strict)}{added}"


def rewriting(strict: bool) -> str:
    """The rule lemma ``sb_rewrite`` (``sb_rewrite_lt``) applied to the identity ``E : subject = form``:
    what is left to prove is the claim on the form."""
    return f"apply ({'sb_rewrite_lt' if strict else 'sb_rewrite'} _ _ E); "


def log(writer: Writer, name: str, decision: dict[str, Any], box: Box, strict: bool, form: Any) -> str:
    """subject = A - B with A, B > 0, then log A - log B decided on the kernel's expansions (see the
    module)."""
    left, right = decision.get("left"), decision.get("right")
    facts: list[str] = []
    expansions = []
    signs_ = []
    for side, tree in (("left", left), ("right", right)):
        logarithm = _Logarithm(writer, f"{name}_{side}", box, facts)
        signs_.append(logarithm.positive(tree))
        expansions.append((logarithm.fact(tree), logarithm.expanded(tree)))
    (left_fact, left_log), (right_fact, right_log) = expansions
    difference = ["add", left_log, ["mul", ["num", "-1"], right_log]]
    nested = writer.lemma(f"{name}_logs", decision.get("then"), box, strict, difference)
    rule = "sb_log_strict" if strict else "sb_log"
    subject = ["add", left, ["mul", ["num", "-1"], right]]
    return (
        "".join(facts)
        + f"{writer.identity(form, subject, box)};\n  {rewriting(strict)}\n  "
        + f"apply ({rule} {writer.subject(left)} {writer.subject(right)} {writer.subject(left_log)} "
        + f"{writer.subject(right_log)});\n"
        + f"  [ exact {signs_[0]} | exact {signs_[1]} | exact {left_fact} | exact {right_fact}\n"
        + f"  | {writer.use(nested)} ]"
    )


class _Logarithm:
    """The facts ln T = L(T) for the kernel's expansion L (:mod:`theory.prover.kernel.logs`) of a tree T
    and of the subtrees it expands, asserted bottom-up in ``facts``; a factor of a product and the base of
    a numeric power are shown > 0 by an enclosure lemma of their own (the kernel's ``positive``)."""

    def __init__(self, writer: Writer, prefix: str, box: Box, facts: list[str]) -> None:
        self.writer, self.prefix, self.box, self.facts = writer, prefix, box, facts
        self.count = 0
        self.trivial: set[str] = set()

    def rewrite(self, fact: str) -> str:
        """``rewrite fact; `` (nothing for a fact ln T = ln T)."""
        return "" if fact in self.trivial else f"rewrite {fact}; "

    def expanded(self, tree: Any) -> Any:
        """L(T), the kernel's tree (every factor and base was shown > 0 by the kernel's own decision)."""
        expansion = logs.expanded(tree, lambda factor: True)
        if expansion is None:
            raise Malformed("a log step's side has no expansion")
        return expansion

    def _name(self, kind: str) -> str:
        self.count += 1
        return f"{kind}{self.prefix.upper().replace('_', '')}{self.count}"

    def positive(self, tree: Any) -> str:
        """The name of the fact 0 < T: for a product from its factors' (Rmult_lt_0_compat), for Rpower by
        exp_pos, else from an enclosure lemma of T on the box (the kernel's enclosure)."""
        if tree[0] == "mul" and len(tree) > 2:
            factors = [self.positive(factor) for factor in tree[1:]]
            proof = factors[0]
            for factor in factors[1:]:
                proof = f"(Rmult_lt_0_compat _ _ {proof} {factor})"
            proof = f"exact {proof}"
        elif tree[0] == "pow" and not _numeric(tree[2]):
            proof = "unfold Rpower; apply exp_pos"  # Rpower b e = exp (e ln b), printed only for b > 0
        else:
            lemma = self.writer.lemma(
                f"{self.prefix}_positive_{self.count + 1}", ENCLOSURE, self.box, True, tree
            )
            proof = self.writer.use(lemma)
        name = self._name("Q")
        self.facts.append(f"assert ({name} : 0 < {self.writer.subject(tree)}) by ({proof});\n  ")
        return name

    def fact(self, tree: Any) -> str:
        """The name of the fact ln T = L(T), asserted with those of T's parts."""
        printed = self.writer.subject(tree)
        goal = f"ln {printed} = {self.writer.subject(self.expanded(tree))}"
        head = tree[0]
        if head == "num" and tree[1] == "1":
            proof = "apply ln_1"
        elif head == "exp":
            proof = "apply ln_exp"
        elif head == "mul":
            proof = self._product(tree[1:])
        elif head == "pow":
            proof = self._power(tree[1], tree[2])
        else:
            proof = "reflexivity"  # a log the kernel keeps: nothing to rewrite with it
        name = self._name("L")
        if proof == "reflexivity":
            self.trivial.add(name)
        self.facts.append(f"assert ({name} : {goal}) by ({proof});\n  ")
        return name

    def _product(self, factors: list[Any]) -> str:
        """ln (F1 * .. * Fn) = ln F1 + .. + ln Fn by ln_mult from the outside in (Coq's product is a left
        fold; each prefix is > 0 by Rmult_lt_0_compat), then each ln Fi by its fact."""
        if len(factors) == 1:
            return f"{self.rewrite(self.fact(factors[0]))}ring"
        signs_ = [self.positive(factor) for factor in factors]
        equations = [self.fact(factor) for factor in factors]
        prefixes = [signs_[0]]
        for sign in signs_[1:-1]:
            prefixes.append(f"(Rmult_lt_0_compat _ _ {prefixes[-1]} {sign})")
        splits = "".join(
            f"rewrite (ln_mult _ _ {prefixes[index - 1]} {signs_[index]}); "
            for index in range(len(factors) - 1, 0, -1)
        )
        return splits + "".join(self.rewrite(equation) for equation in equations) + "ring"

    def _power(self, base: Any, exponent: Any) -> str:
        """ln (B^e) = e ln B: Rpower by sb_ln_rpower; a numeric exponent n / 2^k as terms prints it
        (pow, sqrt, /) by ln_pow, ln_sqrt and ln_Rinv with B > 0; then ln B by its fact."""
        inner = self.fact(base)
        if not _numeric(exponent):
            return f"rewrite sb_ln_rpower; {self.rewrite(inner)}ring"
        value = Fraction(exponent[1])
        sign = self.positive(base)
        steps_ = f"pose proof {sign}; "
        if value.denominator == 2:
            steps_ += f"pose proof (sqrt_lt_R0 _ {sign}); "
        count = abs(value.numerator)
        steps_ += (
            "repeat first [ rewrite ln_Rinv by (apply pow_lt; assumption) | rewrite ln_Rinv by assumption "
        )
        steps_ += "| rewrite ln_pow by assumption | rewrite ln_sqrt by assumption ]; "
        return steps_ + f"{self.rewrite(inner)}replace (INR {count}) with {count} by (simpl; lra); field"


def _numeric(exponent: Any) -> bool:
    """An exponent terms prints through pow, sqrt and / (a number n or n/2); any other is Rpower's."""
    return bool(exponent[0] == "num" and Fraction(exponent[1]).denominator in (1, 2))


Step = Callable[["Writer", str, dict[str, Any], Box, bool, Any], str]
STEPS: dict[str, Step] = {"scale": scale, "unsigned": unsigned, "sum": sum_, "log": log}
"""The kernel's steps with a Coq proof here, by method."""


def end_text(value: float | Fraction) -> str:
    """A box end as a certificate writes it: "oo", "-oo" or the exact rational."""
    if math.isinf(value):
        return "oo" if value > 0 else "-oo"
    return str(Fraction(value))


def keep_one_box(
    writer: Writer,
    module: str,
    inequality: str,
    gap: Any,
    records: list[dict[str, Any]],
    strict: bool,
    then: Any,
    what: str,
) -> None:
    """Export the claim ``gap`` >= 0 (> 0 when strict) over the one box of the domain ``records``, decided
    by ``then``, as the nested ``Module module`` of this file and keep it; :class:`Untranslatable` (naming
    ``what``) when its proof leaves hypotheses."""
    data = {
        "format": FORMAT,
        "inequality": inequality,
        "gap": gap,
        "domain": records,
        "strict": strict,
        "boxes": [{"box": {r["name"]: [r["lower"], r["upper"]] for r in records}, "decision": then}],
    }
    exported = writer.nested(module, data)
    if exported.hypotheses:
        left = "; ".join(f"{h.name} ({h.reason})" for h in exported.hypotheses)
        raise Untranslatable(f"{what}'s Coq proof (module {module}) leaves hypotheses: {left}")
    writer.keep(module, exported)
