"""A certificate (``specbound-certificate/2``) as a Coq file: the theorem over the domain and its proof.

The file states ``Theorem statement : forall v.., <domain> -> 0 <= gap v..`` (``0 <`` when strict), with
``gap`` printed from the certificate's tree (:mod:`theory.prover.coq.terms`) and the domain exactly as
given (open and closed ends; a half-line has one bound). The proof follows the certificate:

- one lemma per box (``box_k``) and per face, quantified over every variable with the box's bounds;
- ``enclosure``: ``sb_close`` (Interval's ``interval`` at the kernel's precisions);
- ``monotone``: Coquelicot's ``auto_derive`` proves the derivative in the variable (its domain
  conditions by ``sb_side``), ``sb_close`` its sign on the box (after ``sb_signs`` has evaluated the
  ``sign`` of each Abs argument in it), and ``sb_increasing`` /
  ``sb_decreasing`` (the mean value theorem, proved in the file) bound the gap by the face lemma; with
  an open or infinite end, the rule lemmas ``sb_step_*`` and, for a face at infinity, ``sb_tail_*``
  (the tail on the side of the infinite end) through the kernel's derivative;
- the cover: the guillotine tree of the kernel's cover check, each cut by the rule lemma ``sb_cut``
  (``sb_cut_integer`` for an integer variable).

A box that cannot be proved in Coq yet (a range reaching infinity, an unknown method) becomes a named
``Hypothesis`` in a ``Section`` with its reason, so the closed theorem takes it as a premise: never
``Admitted`` or ``Axiom``. Provenance: derived (a translation of the kernel's decisions).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from theory.prover.coq import (
    bernstein,
    choices,
    erf,
    exponents,
    jumps,
    periodic,
    polynomials,
    steps,
    substitution,
)
from theory.prover.coq.grouped import grouped
from theory.prover.coq.preamble import preamble_for, sqrt_relation
from theory.prover.coq.terms import (
    POWER_AT_ZERO,
    Untranslatable,
    binders,
    points,
    rational,
    term,
    uses_erf,
    variable,
)
from theory.prover.coq.unbounded import signed_by_nodes
from theory.prover.kernel import derivative, trees
from theory.prover.kernel.balls import Undefined
from theory.prover.kernel.trees import Discontinuous, Malformed, number
from theory.prover.kernel.verify import (
    FORMAT,
    Box,
    Variable,
    decide,
    environment,
    guillotine_cut,
    monotone_direction,
    precision,
    read_box,
    read_domain,
    simplified,
)


@dataclass(frozen=True)
class Hypothesis:
    """A premise of the exported theorem that the exporter could not prove in Coq, with the reason."""

    name: str
    reason: str

    def to_json(self) -> dict[str, str]:
        """{"name", "reason"}."""
        return {"name": self.name, "reason": self.reason}


@dataclass
class CoqExport:
    """The text of one exported file, its boxes and the hypotheses it leaves (empty: a full proof)."""

    text: str
    boxes: int
    hypotheses: list[Hypothesis] = field(default_factory=list)


class _Writer:
    """The lemmas of one certificate, in order, named box_k (and box_k_face_j, box_k_form)."""

    def __init__(
        self,
        domain: dict[str, Variable],
        assumed: dict[str, str],
        probe: bool,
        positive: Callable[[Any], bool],
        tree: Any,
    ) -> None:
        self.domain = domain
        self.assumed = assumed
        self.probe = probe
        self.positive = positive
        self.tree = tree
        self.names = [variable(name) for name in domain]
        self.gap = f"gap {' '.join(self.names)}"
        self.lemmas: list[str] = []
        self.hypotheses: list[Hypothesis] = []
        self.cases = "sb_rpow_cases; " if _bases_at_zero(tree, positive) else ""
        """After ``unfold gap``: each sb_rpow of the gap split by its base's sign (empty without one)."""
        self.faces: set[str] = set()
        """The lemmas on a face where a base of an sb_rpow is fixed (:meth:`_split`)."""
        self.modules: list[str] = []
        """Nested certificates' modules (a substitution's form), placed before the lemmas' Section."""

    def nested(self, module: str, data: dict[str, Any]) -> CoqExport:
        """The certificate ``data`` exported as ``Module module`` inside this file (its theorem is
        ``module.statement``), the lemmas assumed for it named ``module.lemma``; its module is kept only
        when the caller adds it with :meth:`keep`."""
        return export_certificate(data, module, within(self.assumed, module), self.probe, standalone=False)

    def keep(self, module: str, exported: CoqExport) -> None:
        """Place the nested module before this certificate's lemmas."""
        self.modules.append(module_text(module, exported))

    def subject(self, form: Any) -> str:
        """The Coq term a claim is about: the gap (``form`` None), or a rewritten form's tree printed."""
        if form is None:
            return self.gap
        try:
            return term(form, self.positive)
        except (IndexError, KeyError, TypeError, ValueError, ZeroDivisionError, RecursionError):
            raise Malformed("a rewrite decision's form is not a tree of the certificate format") from None

    def use(self, lemma: str) -> str:
        """The tactic applying a lemma of the box at the goal's point (its variables given: a form may not
        mention them all), its premises by lra."""
        return f"apply ({lemma} {' '.join(self.names)}); lra"

    def claim(self, strict: bool, form: Any = None) -> str:
        """0 <= subject (0 < when strict)."""
        return f"0 {'<' if strict else '<='} {self.subject(form)}"

    def bounds(self, box: Box) -> list[str]:
        """The box's bounds as premises: an end outside the domain strict, a point range as lo <= v <= lo."""
        premises = []
        for name, (lo, hi) in box.items():
            coq, variable_ = variable(name), self.domain[name]
            point = lo == hi
            if not math.isinf(lo):
                relation = "<" if not point and variable_.open_at(lo, True) else "<="
                premises.append(f"{rational(Fraction(lo))} {relation} {coq}")
            if not math.isinf(hi):
                relation = "<" if not point and variable_.open_at(hi, False) else "<="
                premises.append(f"{coq} {relation} {rational(Fraction(hi))}")
        return premises

    def closed(self, box: Box) -> str:
        """The bounded ranges of the box as closed hypotheses lo <= v <= hi, the form Interval reads (from
        the premises, by lra)."""
        return "".join(
            f"assert (B_{variable(name)} : {rational(Fraction(lo))} <= {variable(name)} <= "
            f"{rational(Fraction(hi))}) by lra;\n  "
            for name, (lo, hi) in box.items()
            if not (math.isinf(lo) or math.isinf(hi))
        )

    def _open(self, box: Box) -> bool:
        """The box has a range with an end outside the domain (Interval evaluates the closed range, where
        the gap may be undefined or its strictness lost)."""
        return any(
            lo != hi and (self.domain[name].open_at(lo, True) or self.domain[name].open_at(hi, False))
            for name, (lo, hi) in box.items()
        )

    def ranged(self, box: Box) -> list[str]:
        """The Coq names of the variables with a range (not a point) on the box."""
        return [variable(name) for name, (lo, hi) in box.items() if lo != hi]

    def integers(self) -> list[str]:
        """The names of the theorem's integrality premises (I_v for an integer variable v)."""
        return [f"I_{variable(name)}" for name, v in self.domain.items() if v.integer]

    def theorem(self, box: Box, strict: bool) -> str:
        """The statement over the domain: an integer variable v ranges over the reals IZR k (premise
        exists k : Z, v = IZR k), the box lemmas over the reals of their ranges."""
        integral = "".join(
            f"(exists k : Z, {variable(name)} = IZR k) -> " for name, v in self.domain.items() if v.integer
        )
        premises = "".join(f"{p} -> " for p in self.bounds(box))
        return f"{binders(self.names)} {integral}{premises}{self.claim(strict)}"

    def statement(self, box: Box, claim: str) -> str:
        """forall v.., <the box's bounds> -> claim."""
        premises = "".join(f"{p} -> " for p in self.bounds(box))
        return f"{binders(self.names)} {premises}{claim}"

    def lemma(self, name: str, decision: Any, box: Box, strict: bool, form: Any = None) -> str:
        """Write the lemma ``name`` proving the claim on ``box`` by ``decision`` (see :meth:`stated`).
        Returns ``name``."""
        return self.stated(
            name, box, self.claim(strict, form), lambda: self._proof(name, decision, box, strict, form)
        )

    def stated(
        self, name: str, box: Box, claim: str, script: Callable[[], str], unproved: str | None = None
    ) -> str:
        """Write the lemma ``name``: over the box's bounds, ``claim``, proved by the tactic ``script()``
        after the intros (the variables, the premises H0.., the closed ranges B_v); a Hypothesis instead
        when it cannot be proved in Coq yet (the reason given, or ``unproved`` when coqc could not prove
        it). In a probe the proof admits what it cannot prove and prints ``PROBE_MARK name`` (the probe is
        compiled once to learn which lemmas coqc proves; it is never the exported file). Returns ``name``."""
        statement = self.statement(box, claim)
        try:
            if name in self.assumed:
                raise Untranslatable(unproved or self.assumed[name])
            premises = [f"H{index}" for index in range(len(self.bounds(box)))]
            tactic = f"intros {' '.join(self.names + premises)};\n  " + self.closed(box) + script()
        except Malformed:
            raise
        except FAILURES as error:  # an exporter failure on one lemma leaves it unproved, the file written
            reason = unproved_reason(error)
            self.hypotheses.append(Hypothesis(name, reason))
            self.lemmas.append(f"(* {_comment(reason)} *)\nHypothesis {name} : {statement}.\n")
            return name
        if self.probe:
            proof = f'first [ solve [ {tactic} ] | idtac "{PROBE_MARK} {name}"; admit ].\nAdmitted.'
        else:
            proof = f"{tactic}.\nQed."
        self.lemmas.append(f"Lemma {name} : {statement}.\nProof.\n  {proof}\n")
        return name

    def _proof(self, name: str, decision: Any, box: Box, strict: bool, form: Any) -> str:
        """The proof of the lemma after its intros, as one tactic expression (so that a probe can try it
        as a whole)."""
        unbounded = any(math.isinf(end) for pair in box.values() for end in pair)
        if name in self.faces:
            return f"try unfold gap; {points(box)}sb_rpow_cases; sb_at_zero"
        zero = self._zero_bases(box) if form is None else []
        if zero:
            return self._split(name, decision, box, strict, zero[0])
        method = decision.get("method") if isinstance(decision, dict) else None
        if method == "enclosure" and unbounded:
            return self._unbounded(box, strict, form)
        if method == "enclosure":  # Interval has no erf: each erf(u) an atom bounded in the context
            env = environment(box, self.domain)
            atoms = erf.atoms(self.tree if form is None else form, env, self.positive)
            closed = f"try unfold gap; {self.cases}{atoms}{bisecting(self.ranged(box))}"
            if not self._open(box) and all(lo != hi for lo, hi in box.values()):
                return closed  # else also the exact normal form (a face where the gap is 0)
            try:
                nodes = self._unbounded(box, strict, form)
            except Untranslatable:
                return closed
            # a strict claim may be a product of positive factors (a scale step's multiplier)
            positive = "\n  | solve [ try unfold gap; sb_positive ]" if strict else ""
            return f"first [ solve [ {closed} ]\n  | solve [ {nodes} ]{positive} ]"
        if method == "rewrite":
            return self._rewrite(name, decision, box, strict, form)
        if method == "squares":
            return self._squares(name, decision, box, strict, form, unbounded)
        if method == "monotone" and (form is not None or "slope" in decision or unbounded or self._open(box)):
            try:
                return self._derived(name, decision, box, strict, form)
            except Discontinuous as error:
                return self._cases(form, f"no derivative of the gap in {decision['variable']}: {error}")
        if method == "monotone":
            return self._monotone(name, decision, box, strict)
        if method in STEPS:
            return STEPS[method](self, name, decision, box, strict, form)
        raise Untranslatable(f"the method {method!r} has no Coq proof in the exporter yet")

    def _rewrite(self, name: str, decision: dict[str, Any], box: Box, strict: bool, form: Any) -> str:
        """The kernel's rewrite step: subject = form on the box (an identity proved by ``sb_identity``, its
        denominators nonzero by ``sb_side``), then the nested decision on the form in a lemma of its own."""
        rewritten = decision.get("form")
        nested = self.lemma(f"{name}_form", decision.get("then"), box, strict, rewritten)
        direct = grouped(self, self.tree if form is None else form, rewritten, box) or ""
        identity = self.identity(form, rewritten, box, direct=direct)
        return f"{identity};\n  {steps.rewriting(strict)}{self.use(nested)}"

    def _squares(
        self, name: str, decision: dict[str, Any], box: Box, strict: bool, form: Any, unbounded: bool
    ) -> str:
        """The kernel's squares step: subject = A + (-1) B (an identity), A >= 0 and B >= 0 (Interval, or
        node by node on a box reaching infinity), and the nested decision on A A + (-1) B B in a lemma of
        its own; ``sb_squares`` (A^2 >= B^2 with A, B >= 0 gives A >= B, by nra) concludes."""
        left, right = decision.get("left"), decision.get("right")
        difference = ["add", left, ["mul", ["num", "-1"], right]]
        squares = ["add", ["mul", left, left], ["mul", ["num", "-1"], right, right]]
        nested = self.lemma(f"{name}_squares", decision.get("then"), box, strict, squares)
        signs = []
        for side in (left, right):
            if unbounded:
                signs.append(signed_by_nodes(box, self.domain, self.positive, side, False))
            else:
                signs.append(bisecting(self.ranged(box)))
        rule = "sb_squares_strict" if strict else "sb_squares"
        return (
            f"{self.identity(form, difference, box)};\n  {steps.rewriting(strict)}apply {rule};\n"
            f"  [ {signs[0]}\n  | {signs[1]}\n  | {self.use(nested)} ]"
        )

    def identity(
        self,
        form: Any,
        rewritten: Any,
        box: Box,
        times: Any = None,
        prelude: str = "",
        direct: str = "",
    ) -> str:
        """assert (E : subject = rewritten) (subject * ``times`` when given), by ``sb_identity_laws`` (with
        the laws of exponents) after the box's point ranges are substituted (the kernel's normal form fixes
        them), ``prelude`` (rewrites of the subject) and sqrt a * sqrt a = a stated for every square root
        of either side, with the products of two such (so that lra can use them); where those fail,
        ``sb_identity_roots`` with the stated relations as ``field``'s rewriting rules. A ``direct`` tactic,
        when given, is tried before all of these."""
        fixed = points(box)
        sides = [self.tree if form is None else form, rewritten] + ([] if times is None else [times])
        facts, closing = root_relations(sides, self.positive)
        left = self.subject(form) if times is None else f"({self.subject(form)} * {self.subject(times)})"
        search = f"{fixed}{self.cases}{prelude}{facts}try sb_rpower; {closing}"
        laws = self._laws([sides[0] if times is None else ["mul", sides[0], times], rewritten])
        tactics = ([direct] if direct else []) + ([] if laws is None else [laws])
        tried = "".join(f"solve [ {tactic} ] | " for tactic in tactics)
        return (
            f"assert (E : {left} = {self.subject(rewritten)}) "
            f"by (try unfold gap; {f'first [ {tried}{search} ]' if tried else search})"
        )

    def _laws(self, sides: list[Any]) -> str | None:
        """The identity of ``sides`` along its log-linear normal form (:mod:`theory.prover.coq.exponents`),
        or None where it has no symbolic power or leaves that route."""
        try:
            return exponents.guided(sides, self.positive, None)
        except Untranslatable:
            return None

    def _unbounded(self, box: Box, strict: bool, form: Any) -> str:
        """An enclosure node by node (:mod:`theory.prover.coq.unbounded`), on a box reaching infinity or
        with an open end: of the tree, else of its exact normal form (the kernel's enclosure step tries
        both), the identity proved first."""
        tree = self.tree if form is None else form
        normal = simplified(tree, box)
        reason = Untranslatable("the enclosure on a box reaching infinity has no node-by-node proof")
        for candidate in [tree] if normal is tree else [tree, normal]:
            try:
                script = signed_by_nodes(box, self.domain, self.positive, candidate, strict)
            except Untranslatable as error:
                reason = error
                continue
            if candidate is tree:
                return f"try unfold gap; {self.cases}{script}"
            return f"{self.identity(form, candidate, box)};\n  {steps.rewriting(strict)}{script}"
        raise reason

    def _derived(self, name: str, decision: dict[str, Any], box: Box, strict: bool, form: Any = None) -> str:
        """A monotone step through the kernel's own symbolic derivative D of the gap (or of a rewritten
        ``form``, its face value then the function applied at the face, beta-reduced) in v: auto_derive
        proves that D is the derivative (its equality with Coquelicot's by ``sb_identity``), the lemma
        ``name_slope`` proves 0 <= D (0 <= -D when decreasing) with v's ends opened, by the slope's
        nested decision (the kernel's ``slope``) or else an enclosure of D, and the preamble's rule lemma
        ``sb_step_increasing`` / ``sb_step_decreasing`` (``_lt`` when strict; the mean value theorem with an
        interior point) concludes from the face lemma ``name_face``: the gap on the segment from the face
        to v is at least its face value, so an open or infinite far end needs nothing there.

        A face at infinity is the kernel's tail X, on the side of that end: an increasing gap's face is at
        -oo and its tail (-oo, X], a decreasing gap's at +oo and its tail [X, oo). The lemma ``name_tail``
        decides the gap on the tail box by the nested decision, and the rule lemma ``sb_tail_increasing`` /
        ``sb_tail_decreasing`` concludes: a point in the tail is the tail lemma's, any other lies on a
        monotone path from X (the tail lemma at X as its face)."""
        target = decision["variable"]
        lo, hi = box[target]
        increasing = decision["direction"] == "increasing"
        end = lo if increasing else hi
        coq = variable(target)
        slope = folded(derivative.derivative(self.tree if form is None else form, target))
        tail = None
        if math.isinf(end):
            if "tail" not in decision:
                raise Untranslatable(f"the face of {target} is at infinity and no tail is named")
            end = number(decision["tail"])
            if not lo <= end <= hi or self.domain[target].open_at(end, increasing):
                raise Untranslatable(f"the tail start {end} is not a point of the range of {target}")
            tail = self.lemma(
                f"{name}_tail",
                decision.get("then"),
                {**box, target: (lo, end) if increasing else (end, hi)},
                strict,
                form,
            )
        # the kernel's face at an open end of the domain with a strictly signed slope need only be >= 0
        weak = strict and tail is None and self.domain[target].open_at(end, increasing)
        weak = weak and "slope" not in decision and self._strictly(box, target, form)
        weak = weak and not self._strict_face(decision, {**box, target: (end, end)}, form)
        signed = slope if increasing else ["mul", ["num", "-1"], slope]
        interior = {**self.domain, target: Variable(target, lo, hi, True, True, False)}
        outer, self.domain = self.domain, interior
        try:
            sign = self.lemma(
                f"{name}_slope", decision.get("slope", {"method": "enclosure"}), box, weak, signed
            )
        finally:
            self.domain = outer
        subject = self.subject(form)
        function = f"(fun {coq} => {subject})"
        slope_function = f"(fun {coq} => {term(slope, self.positive)})"
        # auto_derive reads sb_erf as an unknown function: ex_derive sb_erf u and Derive sb_erf u; its
        # domain conditions (0 < a under ln, ...) get |sb_erf u| < 1 and t's range for Interval
        has_erf = uses_erf(self.tree if form is None else form)
        erf_derivative = "rewrite ?sb_erf_Derive; " if has_erf else ""
        erf_exists = "try apply sb_erf_ex_derive; sb_erf_bounded; " if has_erf else ""
        in_box = (
            f"assert (B_t : {rational(Fraction(lo))} <= t <= {rational(Fraction(hi))}) by lra; "
            if has_erf and not (math.isinf(lo) or math.isinf(hi))
            else ""
        )
        # Interval encloses nothing over a range with an infinite end: there the domain conditions and
        # field's denominators go by the signs of their parts first (sb_sign_side, sb_identity_signs)
        unbounded = any(math.isinf(a) or math.isinf(b) for a, b in box.values())
        side = "sb_sign_side" if unbounded else "sb_side"
        signs = "sb_identity_signs | " if unbounded else ""
        identity = f"first [ {signs}sb_identity_laws | sb_powers; sb_identity ]"
        # there, too, the gap's derivative is found term by term (sb_derive: auto_derive on a long sum at
        # once ran over 75 coqc CPU s on the l2 example's steps over [1, oo))
        derive = "sb_derive" if unbounded else "auto_derive"
        derivative_ = (
            f"intros t Ht; {in_box}try unfold gap; {self.cases}try unfold Rpower; {derive};\n"
            "      lazymatch goal with\n"
            f"      | |- _ = _ => {erf_derivative}{identity}\n"
            f"      | |- _ => repeat split; {erf_exists}{side} end"
        )
        at_t = " ".join("t" if n == coq else n for n in self.names)  # a lemma of the box at v = t
        signed_ = f"intros t Ht; cbv beta; apply ({sign} {at_t}); lra"
        at = rational(Fraction(end))
        rule = rule_lemma("tail" if tail else "step", increasing, strict)
        if weak:
            rule = f"sb_step_{'increasing' if increasing else 'decreasing'}_strictly"
        head = f"refine ({rule} {function} {slope_function} {at} {coq} _ _ _{'' if tail else ' _'});\n"
        if tail is not None:  # the tail lemma at every t of the tail (t <= X increasing, X <= t decreasing)
            beyond = f"intros t Ht; cbv beta; apply ({tail} {at_t}); lra"
            return f"{head}  [ {derivative_}\n  | {signed_}\n  | {beyond} ]"
        face_box = {**box, target: (end, end)}
        face = self.lemma(f"{name}_face", decision.get("then"), face_box, strict and not weak, form)
        at_face = [at if n == coq else n for n in self.names]
        on_face = f"cbv beta; apply ({face} {' '.join(at_face)}); lra"
        return f"{head}  [ {derivative_}\n  | {signed_}\n  | lra\n  | {on_face} ]"

    def _strictly(self, box: Box, target: str, form: Any) -> bool:
        """The kernel shows the slope of the gap (or ``form``) in ``target`` strictly signed on the box
        (:func:`~theory.prover.kernel.verify.monotone_direction`)."""
        found = monotone_direction(self.tree if form is None else form, box, self.domain, target)
        return not isinstance(found, str) and found[1]

    def _strict_face(self, decision: dict[str, Any], face: Box, form: Any) -> bool:
        """The kernel's nested decision shows the gap (or ``form``) > 0 on the face itself: the file then
        asks the strict face and a non-strict slope, as on a closed end."""
        tree = self.tree if form is None else form
        return decide(decision.get("then"), tree, face, self.domain, True) is None

    def _cases(self, form: Any, reason: str) -> str:
        """The claim on the box by cases on the sign of every Rabs argument (``sb_unabs``; Min and Max print
        through Rabs, so on each side of a switch they are one argument), then lra / nra: for a monotone
        step whose gap has no derivative (the kernel's slope of Min, Max and Abs is Clarke's hull of its
        pieces' slopes, which Coquelicot does not differentiate); without Min, Max or Abs Untranslatable
        with ``reason``."""
        if not _has(self.tree if form is None else form, ("abs", "min", "max")):
            raise Untranslatable(reason)
        return "try unfold gap; sb_unabs; first [ lra | nra ]"

    def _reaching(self, box: Box) -> list[Any]:
        """The gap's sb_rpow bases that the kernel does not enclose above 0 on the box (its ends open or
        closed as the domain says)."""
        bases = _bases_at_zero(self.tree, self.positive)
        return [base for base in bases if not _positive_on(base, box, self.domain)]

    def _zero_bases(self, box: Box) -> list[str]:
        """The variables with a range on the box (in the domain's order) of the sb_rpow bases reaching 0."""
        reaching = self._reaching(box)
        return [
            name
            for name, (lo, hi) in box.items()
            if lo != hi and any(trees.mentions(base, name) for base in reaching)
        ]

    def _split(self, name: str, decision: Any, box: Box, strict: bool, target: str) -> str:
        """The box cut at the ends of ``target``, a variable of an sb_rpow base that reaches 0 on it: on the
        open range (``name_in_<v>``) and on a closed end where every base is above 0 (``name_at_<v>_lo`` /
        ``_hi``) those bases print as Rpower (``sb_rpow_cases`` turns the gap's sb_rpow into them) and the
        decision is proved there; on an end where a base is 0, ``sb_rpow_cases`` sets its sb_rpow to 0 and
        ``sb_at_zero`` closes the rest. ``Rtotal_order`` splits the range at its two ends."""
        lo, hi = box[target]
        coq, kept = variable(target), self.domain[target]
        faces = []
        for end, lower in ((lo, True), (hi, False)):
            if kept.open_at(end, lower):
                faces.append("lra")
                continue
            face, at = f"{name}_at_{coq[2:]}_{'lo' if lower else 'hi'}", {**box, target: (end, end)}
            if self._reaching(at):
                self.faces.add(face)
            faces.append(self.use(self._within(face, decision, at, strict, self.domain)))
        interior = {**self.domain, target: Variable(target, lo, hi, True, True, kept.integer)}
        inner = self._within(f"{name}_in_{coq[2:]}", decision, box, strict, interior)
        low, high = rational(Fraction(lo)), rational(Fraction(hi))
        return (
            f"destruct (Rtotal_order {coq} {low}) as [S|[S|S]];\n"
            f"  [ lra | {faces[0]} | destruct (Rtotal_order {coq} {high}) as [T|[T|T]];\n"
            f"    [ {self.use(inner)} | {faces[1]} | lra ] ]"
        )

    def _within(self, name: str, decision: Any, box: Box, strict: bool, domain: dict[str, Variable]) -> str:
        """The lemma ``name`` on ``box`` over ``domain``, a base the kernel encloses above 0 there printed as
        Rpower in its nested lemmas."""
        outer_domain, outer_positive = self.domain, self.positive

        def positive(base: Any) -> bool:
            return outer_positive(base) or _positive_on(base, box, domain)

        self.domain, self.positive = domain, positive
        try:
            return self.lemma(name, decision, box, strict)
        finally:
            self.domain, self.positive = outer_domain, outer_positive

    def _monotone(self, name: str, decision: dict[str, Any], box: Box, strict: bool) -> str:
        target = decision["variable"]
        lo, hi = box[target]
        increasing = decision["direction"] == "increasing"
        end = lo if increasing else hi
        face_strict = strict
        open_end = self.domain[target].open_at(end, increasing)
        if strict and open_end:
            face_strict = False  # the kernel's rule: strictly inside, >= 0 on the face at an open end
        face = self.lemma(f"{name}_face", decision.get("then"), {**box, target: (end, end)}, face_strict)
        coq = variable(target)
        at_face = [rational(Fraction(end)) if n == coq else n for n in self.names]
        function = f"(fun {coq} => gap {' '.join(self.names)})"
        strictly = strict and not face_strict
        rule = ("sb_increasing" if increasing else "sb_decreasing") + ("_strict" if strictly else "")
        relation = "<" if face_strict else "<="
        face_value = f"gap {' '.join(at_face)}"
        ends = f"{rational(Fraction(lo))} {rational(Fraction(hi))}"
        sign = bisecting(["t"] + [n for n in self.ranged(box) if n != coq])
        has_erf = uses_erf(self.tree)  # auto_derive's Derive sb_erf u and ex_derive sb_erf u, as in _derived
        erf_derivative = "rewrite ?sb_erf_Derive; sb_erf_bounded; " if has_erf else ""
        erf_exists = "try apply sb_erf_ex_derive; sb_erf_bounded; " if has_erf else ""
        return (
            f"assert (Hface : 0 {relation} {face_value}) by (apply {face}; lra);\n"
            f"  assert (Hmono : {face_value} {'<' if strictly else '<='} gap {' '.join(self.names)})\n"
            f"    by (refine ({rule} {function} _ {ends} _ _ {coq} _);\n"
            f"      [ intros t Ht; unfold gap; {self.cases}auto_derive;\n"
            "        lazymatch goal with |- _ = _ => reflexivity\n"
            f"        | |- _ => repeat split; {erf_exists}sb_side end\n"
            f"      | intros t Ht; cbv beta; {erf_derivative}sb_signs; {sign}\n"
            "      | lra ]);\n"
            "  lra"
        )

    def cover(self, entries: list[tuple[Box, str]], region: Box, depth: int = 1) -> str:
        """The proof of the claim on ``region`` from the box lemmas, split as the kernel's cover check
        splits it, each cut c of v by the rule lemma ``sb_cut`` (v <= c or c < v), of an integer variable
        by ``sb_cut_integer`` (v <= c - 1 or c <= v, from the theorem's integrality premise)."""
        pad = "  " * depth
        if len(entries) == 1:
            return f"{pad}apply {entries[0][1]}; lra.\n"
        split = guillotine_cut([box for box, _ in entries], region, self.domain)
        if split is None:
            raise Untranslatable("the boxes do not form a guillotine cover")
        (left_boxes, left), (right_boxes, right) = split
        cut_name = next(n for n in region if left[n] != region[n])
        cut = right[cut_name][0]
        coq = variable(cut_name)
        lemma_of = {id(box): lemma for box, lemma in entries}
        halves = [
            self.cover([(b, lemma_of[id(b)]) for b in boxes], part, depth + 1)
            for boxes, part in ((left_boxes, left), (right_boxes, right))
        ]
        if self.domain[cut_name].integer:  # no integer in (c - 1, c): the right half is c <= v
            rule = f"sb_cut_integer _ {coq} ({Fraction(cut).numerator})%Z I_{coq}"
        else:
            rule = f"sb_cut _ {coq} {rational(Fraction(cut))}"
        return f"{pad}refine ({rule} _ _); intros C{depth}.\n" + "".join(
            f"{pad}{{\n{half}{pad}}}\n" for half in halves
        )


STEPS: dict[str, steps.Step] = {
    **steps.STEPS,
    **choices.STEPS,
    "substitute": substitution.substitute,
    "polynomial": polynomials.polynomial,
    "jump": jumps.jump,
    "periodic": periodic.periodic,
    "bernstein": bernstein.bernstein,
}
"""The kernel's steps on a form of the gap with a Coq proof, by method (:mod:`.steps`,
:mod:`.substitution`)."""
INTERNAL = "the exporter failed on this lemma (an internal error, reported as a hypothesis)"
"""The reason of a lemma whose proof the exporter could not write (an error of the exporter itself)."""
FAILURES = (Untranslatable, ArithmeticError, LookupError, TypeError, ValueError, RecursionError)
"""What writing one lemma's proof may raise (besides Malformed, a certificate that is not one): the lemma
is then a named hypothesis."""


def unproved_reason(error: Exception) -> str:
    """The reason of a lemma left a hypothesis: the Untranslatable's message, else :data:`INTERNAL`."""
    return str(error) if isinstance(error, Untranslatable) else f"{INTERNAL}: {type(error).__name__}"


PROBE_MARK = "SPECBOUND-UNPROVED"
"""What a probe prints for each lemma its proof did not close."""
BISECTION_DEPTH = 10
"""Interval's bisection depth where its naive evaluation on the whole box is too coarse."""


def rule_lemma(kind: str, increasing: bool, strict: bool) -> str:
    """The preamble's rule lemma of a monotone step (``kind`` "step": a finite face; "tail": a face at
    infinity, the tail on the side of that infinite end) in the gap's direction, ``_lt`` for a strict
    claim (:data:`theory.prover.coq.preamble.RULES`)."""
    return f"sb_{kind}_{'increasing' if increasing else 'decreasing'}{'_lt' if strict else ''}"


def bisecting(names: list[str]) -> str:
    """``sb_close``, else Interval bisecting the box in ``names`` (where the kernel's open ends gave it
    strictness that Interval's closed evaluation loses, or the dependency problem widens the range)."""
    if not names:
        return "sb_close"
    splits = ", ".join(f"i_bisect {name}" for name in names)
    return f"first [ sb_close | interval with (i_prec 64, {splits}, i_depth {BISECTION_DEPTH}) ]"


def export_certificate(
    data: Any,
    title: str = "",
    assumed: dict[str, str] | None = None,
    probe: bool = False,
    standalone: bool = True,
) -> CoqExport:
    """The Coq file of a certificate (:class:`Malformed` when it is not one; :class:`Untranslatable` when
    its gap or domain has no Coq statement yet); the lemmas named in ``assumed`` are stated as
    hypotheses with the reason given (lemmas coqc could not prove). ``probe``: the file that finds them
    (see :meth:`_Writer.lemma`). ``standalone`` False: the definitions, lemmas and theorem alone (no
    header, preamble or Print Assumptions), for a file that holds several (a chain's pieces)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise Malformed(f"not a prover certificate: format must be {FORMAT!r}")
    domain = read_domain(data.get("domain"))
    strict = data.get("strict")
    if not isinstance(strict, bool) or not isinstance(data.get("boxes"), list):
        raise Malformed("a certificate needs strict (true or false) and a list of boxes")
    whole: Box = {name: (v.lower, v.upper) for name, v in domain.items()}

    def positive(base: Any) -> bool:
        return _positive_on(base, whole, domain)

    try:
        gap = term(data.get("gap"), positive)
    except (IndexError, KeyError, TypeError, ValueError, ZeroDivisionError, RecursionError):
        raise Malformed("the certificate's gap is not a tree of the certificate format") from None
    writer = _Writer(domain, assumed or {}, probe, positive, data["gap"])
    entries = []
    for index, record in enumerate(data["boxes"], start=1):
        if not isinstance(record, dict):
            raise Malformed("a box entry must be {box, decision}")
        box = read_box(record.get("box"), domain)
        entries.append((box, writer.lemma(f"box_{index}", record.get("decision"), box, strict)))
    cover = writer.cover(entries, whole)
    spelled = " ".join(writer.names)
    premises = [f"D{i}" for i in range(len(writer.bounds(whole)))]
    header = (
        f"(* Exported by specbound from a {FORMAT} certificate{': ' + _comment(title) if title else ''}.\n"
        f"   Inequality: {_comment(str(data.get('inequality', '')))}\n"
        f"   Claim: gap {'>' if strict else '>='} 0 on the domain; {len(entries)} boxes. *)\n\n"
    )
    section = "Section Certificate.\n\n" if writer.hypotheses else ""
    closing = "\nEnd Certificate.\n" if writer.hypotheses else ""
    body = (
        f"\nDefinition gap ({spelled} : R) : R := {gap}.\n\n"
        + "\n".join(writer.modules)
        + section
        + "\n".join(writer.lemmas)
        + f"\nTheorem statement : {writer.theorem(whole, strict)}.\nProof.\n"
        + f"  intros {' '.join(writer.names + writer.integers() + premises)}.\n"
        + cover
        + "Qed.\n"
        + closing
    )
    if not standalone:
        return CoqExport(body, len(entries), writer.hypotheses)
    rest = body + "\nPrint Assumptions statement.\n"
    text = header + preamble_for(rest) + rest
    return CoqExport(text, len(entries), writer.hypotheses)


def module_text(module: str, exported: CoqExport) -> str:
    """``Module module.`` with the exported text (written with ``standalone`` False) and ``End module.``;
    a probe's marks name its lemmas ``module.lemma``."""
    text = exported.text.replace(f'"{PROBE_MARK} ', f'"{PROBE_MARK} {module}.')
    return f"Module {module}.\n{text}\nEnd {module}.\n"


def within(assumed: dict[str, str], module: str) -> dict[str, str]:
    """The lemmas assumed in a nested module (named ``module.lemma``), by their names inside it."""
    prefix = f"{module}."
    return {name[len(prefix) :]: reason for name, reason in assumed.items() if name.startswith(prefix)}


def folded(tree: Any) -> Any:
    """The tree with each exponent that is a sum or product of numbers (the kernel's derivative writes
    a^(n - 1) as a^(n + (-1))) replaced by its rational value, so that the printed derivative has Coq's
    pow, sqrt and / where the value is an integer or half-integer power, not ``Rpower`` (which Interval
    and ``field`` read as an opaque atom); and with the product rule's vanishing terms dropped: a product
    with a factor 0 is 0, a factor 1 and a term 0 are left out, a sum or product of one argument is that
    argument. The value is the same wherever the tree is defined (so where the kernel's derivative is),
    and a derivative of a derivative no longer grows with the zeros of the first: the kernel's second
    derivative of a sum of constants and a term in v carries every constant's 0 * (...)."""
    if not isinstance(tree, list) or tree[0] in ("num", "var", "const"):
        return tree
    node = [tree[0], *(folded(arg) for arg in tree[1:])]
    if node[0] == "pow":
        value = _value(node[2])
        if value is not None:
            node[2] = ["num", str(value)]
    if node[0] == "mul":
        if any(_value(arg) == 0 for arg in node[1:]):
            return ["num", "0"]
        node = ["mul", *(arg for arg in node[1:] if _value(arg) != 1)] if len(node) > 2 else node
        return node[1] if len(node) == 2 else node if len(node) > 2 else ["num", "1"]
    if node[0] == "add":
        node = ["add", *(arg for arg in node[1:] if _value(arg) != 0)]
        return node[1] if len(node) == 2 else node if len(node) > 2 else ["num", "0"]
    return node


def _value(tree: Any) -> Fraction | None:
    """The rational value of a sum or product of numbers, else None."""
    if tree[0] == "num":
        return Fraction(tree[1])
    if tree[0] in ("add", "mul"):
        total = Fraction(0 if tree[0] == "add" else 1)
        for arg in tree[1:]:
            value = _value(arg)
            if value is None:
                return None
            total = total + value if tree[0] == "add" else total * value
        return total
    return None


def _has(tree: Any, heads: tuple[str, ...]) -> bool:
    """Some node of the tree has one of ``heads``."""
    return isinstance(tree, list) and (tree[0] in heads or any(_has(arg, heads) for arg in tree[1:]))


def _bases_at_zero(tree: Any, positive: Callable[[Any], bool]) -> list[Any]:
    """The bases of the powers of ``tree`` that :func:`~theory.prover.coq.terms.term` prints as sb_rpow (a
    base not shown above 0 on the domain), innermost first."""
    if not isinstance(tree, list) or not tree or tree[0] in ("num", "var", "const"):
        return []
    found = [base for arg in tree[1:] for base in _bases_at_zero(arg, positive)]
    if tree[0] == "pow":
        try:
            printed = term(tree, positive)
        except Untranslatable:  # a part with no Coq form yet (the gap's own print says so)
            return found
        if printed.startswith(f"({POWER_AT_ZERO} "):
            found.append(tree[1])
    return found


def root_relations(sides: list[Any], positive: Any, closing: str = "sb_identity_laws") -> tuple[str, str]:
    """The square roots' defining relations for an identity of ``sides``: the tactic stating
    sqrt a * sqrt a = a (:func:`~theory.prover.coq.preamble.sqrt_relation`) for every square root of a
    side, with the products of two such (so that lra can use them), and ``closing`` followed, where those
    exist, by ``sb_identity_roots`` with the relations as ``field``'s rewriting rules (so L^(3/2), printed
    (sqrt L)^3, equals sqrt L * L)."""
    trees_ = sorted({root for side in sides for root in _roots(side)})
    roots = [term(json.loads(tree), positive) for tree in trees_]
    facts = "".join(
        f"{sqrt_relation(f'R{i}', root)}; " for i, root in enumerate(roots)
    ) + "".join(  # (sqrt a sqrt b)^2 = a b: a monomial lra cannot form from the two facts (two trees
        # may print one Coq term, (2 * PI) and ((2 * PI)): R_i then rewrites both products)
        f"assert (sqrt {a} * sqrt {a} * (sqrt {b} * sqrt {b}) = {a} * {b}) "
        f"by (rewrite R{i}; try rewrite R{j}; ring); "
        for i, a in enumerate(roots)
        for j, b in enumerate(roots)
        if i < j
    )
    if roots:  # the relations R_i as field's rewriting rules
        rules = " ".join(f"R{i}" for i in range(len(roots)))
        closing = f"first [ {closing} | sb_identity_roots ltac:(field [{rules}]) ]"
    return facts, closing


def _roots(tree: Any) -> list[str]:
    """The arguments of the square roots in a tree (powers with an exponent k/2), as JSON texts."""
    if not isinstance(tree, list) or not tree:
        return []
    found = [root for arg in tree[1:] for root in _roots(arg)]
    if tree[0] == "pow" and tree[2][0] == "num" and Fraction(tree[2][1]).denominator == 2:
        found.append(json.dumps(tree[1]))
    return found


def _comment(text: str) -> str:
    """``text`` safe inside a Coq comment (no comment delimiters, one line, at most 300 characters)."""
    return " ".join(text.replace("(*", "( *").replace("*)", "* )").split())[:300]


def _positive_on(base: Any, box: Box, domain: dict[str, Variable]) -> bool:
    """The kernel's enclosure of ``base`` on the whole domain is > 0."""
    try:
        with precision(256):
            return trees.enclose(base, environment(box, domain)).at_least_zero(True)
    except Undefined:
        return False
