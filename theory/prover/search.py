"""Branch and bound: cover the domain by boxes the kernel accepts a decision on, or find a witness.

Boxes are taken first in first out. Each box is first probed for a counterexample at its inner point and at
its corners in the domain (corners only on the first box when there are more than three variables), for a gap
with a floor or ceiling also just inside each finite end of each real variable: a point where the ball of the
gap is < 0 (<= 0 for a strict claim) refutes the inequality. Then a decision is looked for with the kernel's
own primitives (:mod:`theory.prover.kernel`): the enclosure of the gap, else monotonicity in a variable whose
slope has a sign, the face (or at an infinite face the tail towards it, (-oo, -X] for an increasing gap and
[X, oo) for a decreasing one, X in TAIL_STARTS) decided the same way with one variable fewer, else its
exact sign as a univariate polynomial or a case split (a Max or Min bounded by an argument, every value of
a Piecewise, Max or Min on its region, floor and ceiling with their fractions, an integer-valued gap above
-1). These are
proposals: the verdict is the kernel's re-check of the whole certificate (:func:`kernel.check`), which
computes its tails itself. An undecided box is
split in the variable widest in compactified coordinates (integers into integer sub-ranges, half-lines at the
compactified midpoint). The search stops when every box is decided (proved, with the cover as certificate), at
a witness (refuted), or when the box or time budget runs out (undecided, with the boxes left). Times are CPU
seconds of this process, checked before every kernel call, so a budget is overrun by at most one enclosure.
Provenance: derived (the decision procedure itself; the kernel decides).
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import time
from collections import deque
from fractions import Fraction
from typing import Any

from theory.prover import factoring, premised, proposals, rewrites, substitutions
from theory.prover.box import Box
from theory.prover.certificate import Certificate, Decision, domain_data
from theory.prover.domain import Domain
from theory.prover.kernel import cases, derivative, exact, jumps, logs, polynomial, premises, trees
from theory.prover.kernel import verify as kernel
from theory.prover.kernel.balls import Undefined, flint, infinite
from theory.prover.kernel.nodes import children
from theory.prover.result import PROVED, REFUTED, UNDECIDED, InequalityResult, ProverStatus, Witness
from theory.prover.statement import Inequality
from theory.prover.unbounded import finite_inner_point

ctx = flint().ctx
"""python-flint's context (the working precision the search raises), through the kernel's guard."""


Variables = dict[str, kernel.Variable]
DERIVED_SECONDS = 0.25
"""CPU seconds one derivative step may take to find its nested decision on one box."""
MAX_ORDER = 2
"""Derivatives the search differentiates through (a touching point of second order)."""
SEARCHED_JUMPS = 8
"""The search splits a floor or ceiling at most at this many integer crossings in one box (the kernel
accepts up to jumps.MAX_JUMPS); a box with more is split by the cover first."""
DEFAULT_BUDGET_SECONDS = 60.0
DEFAULT_MAX_BOXES = 20000
MAX_BOUND_TEXT = 300
"""Longest text of a box bound the search splits at: narrower boxes around a touching point at an
irrational number (x^6 - x^2 + 2 sqrt(3)/9 at 3^(-1/4)) are left undecided, before the exact values at
their faces (x^6 of such a bound) outgrow the kernel's longest number text."""
TAIL_STARTS = (Fraction(2**4), Fraction(2**16), Fraction(2**64))
"""Where the tail [X, oo) towards a face at +oo may start ((-oo, -X] towards -oo)."""


class OutOfTime(Exception):
    """The search's deadline passed inside a decision."""


class _GiveUp(Exception):
    """One attempt at a derivative step took its DERIVED_SECONDS."""


class _Problem:
    """One inequality over its domain in the kernel's terms: the tree, the kernel's domain, the deadline."""

    def __init__(self, inequality: Inequality, domain: Domain, deadline: float) -> None:
        self.tree = inequality.gap_tree()
        self.as_typed = inequality.as_typed
        self.jumps = any(f'"{op}"' in json.dumps(self.tree) for op in ("floor", "ceiling"))
        self.strict = inequality.strict
        self.domain = kernel.read_domain(domain_data(domain))
        self.deadline = deadline
        self.attempt_deadline = math.inf
        self.cuts: dict[str, frozenset[Fraction]] = {
            name: frozenset(points) for name, points in cases.boundaries(self.tree).items()
        }
        """Values per variable where a box is cut first: a Piecewise condition's boundary (so each side has
        the condition decided, and the boundary is a corner probed for a witness), and where a solver
        proposed the gap touches 0 (:mod:`theory.prover.proposals`)."""

    def tick(self) -> None:
        now = time.process_time()
        if now > self.deadline:
            raise OutOfTime
        if now > self.attempt_deadline:
            raise _GiveUp

    def holds(self, tree: Any, box: kernel.Box, domain: Variables, strict: bool) -> bool:
        self.tick()
        return kernel.decide({"method": "enclosure"}, tree, box, domain, strict) is None

    def direction(self, tree: Any, box: kernel.Box, domain: Variables, name: str) -> tuple[str, bool] | None:
        """("increasing" | "decreasing", strictly) when the kernel shows the gap monotone in name."""
        self.tick()
        found = kernel.monotone_direction(tree, box, domain, name)
        return None if isinstance(found, str) else found

    def rewrite(
        self, tree: Any, box: kernel.Box, domain: Variables, strict: bool, depth: int, squaring: bool = True
    ) -> Decision | None:
        """A rewrite of the tree (:mod:`theory.prover.rewrites`) the kernel accepts with a decision."""
        self.tick()
        fixed = kernel.fixed_points(box)
        form = exact.normal_form(tree, fixed)
        if form is None:
            return None
        candidates = [(rewrites.common_factor(form), None), (rewrites.sum_of_squares(form), None)]
        candidates.append(rewrites.together(tree, form, fixed) or (None, None))
        squares = self.squares(tree, form, box, domain, strict, depth) if squaring else None
        if squares is not None:
            return squares
        for attempt in (self.logarithm, self.parts):
            found = attempt(tree, form, box, domain, strict, depth)
            if found is not None:
                return found
        scaled = rewrites.cleared(form)
        if scaled is not None:
            then = self.find(scaled[0], box, domain, strict, depth, MAX_ORDER, rewriting=False)
            unbounded = any(infinite(end) for pair in box.values() for end in pair)
            scale = {
                "method": "scale",
                "form": scaled[0],
                "by": rewrites.horner(scaled[1]) if unbounded else scaled[1],
            }
            if then is not None and kernel.decide({**scale, "then": then}, tree, box, domain, strict) is None:
                return {**scale, "then": then}
        for candidate, multiplier in candidates:
            if candidate is None:
                continue
            then = self.find(candidate, box, domain, strict, depth, MAX_ORDER, rewriting=False)
            decision = {"method": "rewrite", "form": candidate, "then": then}
            if multiplier is not None:
                decision["multiplier"] = multiplier
            if then is not None and kernel.decide(decision, tree, box, domain, strict) is None:
                return decision
        return None

    def exactly(
        self,
        tree: Any,
        box: kernel.Box,
        domain: Variables,
        strict: bool,
        depth: int = 0,
        order: int = 0,
        rewriting: bool = True,
    ) -> Decision | None:
        """The exact polynomial decision, else (where rewrites are still allowed: never inside a rewrite's
        own search, whose form would be factored again) the factored rewrite, else a case split
        (:meth:`choice`)."""
        return (
            self.polynomial(tree, box, domain, strict)
            or (self.factored(tree, box, domain, strict, depth) if rewriting else None)
            or self.choice(tree, box, domain, strict, depth, order)
        )

    def factored(
        self, tree: Any, box: kernel.Box, domain: Variables, strict: bool, depth: int
    ) -> Decision | None:
        """The kernel's ``rewrite`` to the gap's factorization over the rationals, quadratic factors of odd
        multiplicity as sums of squares (:mod:`theory.prover.factoring`), when the gap is a polynomial in
        two or more variables of the box: (x - y)^2 ((x + y/2)^2 + 3/4 y^2) >= 0 by enclosure over the
        reals, where the expanded x^4 + y^4 - x^3 y - x y^3 touches 0 along the diagonal."""
        if sum(lo != hi for lo, hi in box.values()) < 2 or not _polynomial_text(tree):
            return None
        self.tick()
        candidate = factoring.factored(tree)
        if candidate is None:
            return None
        then = self.find(candidate, box, domain, strict, depth, MAX_ORDER, rewriting=False)
        decision = {"method": "rewrite", "form": candidate, "then": then}
        return (
            decision
            if then is not None and kernel.decide(decision, tree, box, domain, strict) is None
            else None
        )

    def polynomial(self, tree: Any, box: kernel.Box, domain: Variables, strict: bool) -> Decision | None:
        """The kernel's exact ``polynomial`` decision when the gap is written with sums, products and
        powers by natural numbers only and its normal form is a polynomial in one variable with a range (a
        touching minimum such as x^4 - x^3 + 27/256 at x = 3/4, or x^6 - x^2 + 2 sqrt(3)/9 at x = 3^(-1/4),
        its coefficients in Q(sqrt 3)); else, on a bounded box, its ``bernstein``
        decision (a polynomial in several variables whose Bernstein coefficients are >= 0)."""
        if not _polynomial_text(tree):
            return None
        for name, (lo, hi) in box.items():
            if lo == hi:
                continue
            self.tick()
            if polynomial.coefficients(tree, box, name, quadratic=True) is None:
                continue
            decision = {"method": "polynomial", "variable": name}
            return decision if kernel.decide(decision, tree, box, domain, strict) is None else None
        return self.bernstein(tree, box, domain, strict)

    def bernstein(self, tree: Any, box: kernel.Box, domain: Variables, strict: bool) -> Decision | None:
        """The kernel's ``bernstein`` decision on a bounded box for a gap written with sums, products and
        powers by natural numbers (a polynomial in several variables whose Bernstein coefficients there are
        >= 0)."""
        if any(infinite(lo) or infinite(hi) for lo, hi in box.values()) or not _polynomial_text(tree):
            return None
        self.tick()
        decision = {"method": "bernstein"}
        return decision if kernel.decide(decision, tree, box, domain, strict) is None else None

    def choice(
        self, tree: Any, box: kernel.Box, domain: Variables, strict: bool, depth: int, order: int
    ) -> Decision | None:
        """The kernel's case splits (:mod:`theory.prover.kernel.cases`): a Max (Min) at a linear position
        bounded by one argument, every value of the first Piecewise, Max or Min on its region, floor and
        ceiling by their fractions, and an integer-valued gap (or the gap times its denominators) > -1."""
        text = json.dumps(tree)
        attempts: list[Decision] = []
        found = cases.linear(tree) if ('"max"' in text or '"min"' in text) else None
        if found is not None and (found[0][0] == "max") == (found[2] > 0):
            for index, argument in enumerate(found[0][1:]):
                bound = cases.at_path(tree, found[1], argument)
                then = self.find(bound, box, domain, strict, depth, order)
                if then is not None:
                    attempts.append({"method": "bound", "argument": index, "then": then})
                    break
        node = cases.first(tree, cases.CHOICES) if not attempts else None
        if node is not None:
            values = [pair[0] for pair in node[1:]] if node[0] == "piecewise" else node[1:]
            branches: list[Decision | None] = []
            for value, place in zip(values, cases.regions(node, box, domain), strict=False):
                then = None
                if place is not None:
                    case = cases.replaced(tree, node, value)
                    then = self.find(case, place[0], place[1], strict, depth, order) or self.under_premises(
                        case, place, strict, premises.of_branch(node, len(branches)), depth, order
                    )
                    if then is None:
                        break
                branches.append(then)
            if len(branches) == len(values):
                attempts.append({"method": "cases", "branches": branches})
        if not attempts and ('"floor"' in text or '"ceiling"' in text):
            attempts += self.rounded(tree, box, domain, strict, depth, order)
        for decision in attempts:
            if kernel.decide(decision, tree, box, domain, strict) is None:
                return decision
        return None

    def under_premises(
        self,
        tree: Any,
        place: tuple[kernel.Box, Variables],
        strict: bool,
        given: list[premises.Premise],
        depth: int,
        order: int,
    ) -> Decision | None:
        """A value of a case split decided under its case's premises (:mod:`theory.prover.premised`)."""
        if not given:
            return None

        def find(form: Any, box: kernel.Box, domain: Variables, claim: bool) -> Decision | None:
            return self.find(form, box, domain, claim, depth, order)

        return premised.decision(tree, place[0], place[1], strict, given, find, self.holds)

    def rounded(
        self, tree: Any, box: kernel.Box, domain: Variables, strict: bool, depth: int, order: int
    ) -> list[Decision]:
        """An integer-valued gap (or the gap times the common denominator of its normal form's
        coefficients) decided > -1 (``integral``) with floor and ceiling written with their fractions t in
        [0, 1) (``fractional``); else the gap itself with its fractions."""
        multiple = None if strict else integer_multiple(tree, box, domain)
        if multiple is not None:
            scaled, by = multiple
            then = self.fractional(["add", scaled, ["num", "1"]], box, domain, True, depth, order)
            if then is not None:
                integral = {"method": "integral", "then": then}
                if by is None:
                    return [integral]
                return [{"method": "scale", "by": by, "form": scaled, "then": integral}]
        then = self.fractional(tree, box, domain, strict, depth, order)
        if then is None:
            then = self.jump(tree, box, domain, strict, depth, order)
        if then is None:
            then = self.periodic(tree, box, domain, strict, depth, order)
        return [] if then is None else [then]

    def periodic(
        self, tree: Any, box: kernel.Box, domain: Variables, strict: bool, depth: int, order: int
    ) -> Decision | None:
        """The kernel's ``periodic`` step for a variable over the whole line whose floor and ceiling
        arguments are a_i v + b_i: the period P = lcm(denominators of a_i) / gcd(numerators of a_i), the
        least with every a_i P an integer, and the gap decided on [0, P]."""
        for name, (lo, hi) in box.items():
            if not (
                infinite(lo)
                and infinite(hi)
                and infinite(domain[name].lower)
                and infinite(domain[name].upper)
            ):
                continue
            slopes = []
            for node in _roundings(tree):
                affine = polynomial.coefficients(node[1], box, name)
                if affine is not None and len(affine) == 2:
                    slopes.append(abs(affine[1]))
            if not slopes:
                continue
            period = Fraction(
                math.lcm(*(a.denominator for a in slopes)), math.gcd(*(a.numerator for a in slopes))
            )
            if domain[name].integer and period.denominator != 1:
                continue
            self.tick()
            one_period = {
                **domain,
                name: kernel.Variable(name, Fraction(0), period, False, False, domain[name].integer),
            }
            then = self.find(tree, {**box, name: (Fraction(0), period)}, one_period, strict, depth, order)
            if then is None:
                continue
            decision = {"method": "periodic", "variable": name, "period": str(period), "then": then}
            if kernel.decide(decision, tree, box, domain, strict) is None:
                return decision
        return None

    def jump(
        self, tree: Any, box: kernel.Box, domain: Variables, strict: bool, depth: int, order: int
    ) -> Decision | None:
        """The kernel's ``jump`` step: the first floor or ceiling, of an argument affine in one variable,
        replaced by its value at each integer crossing and on each open interval between (a touching
        point at a jump, which no closed box separates: floor(x/2) + floor((x + 1)/2) = x at x = 1)."""
        for name in box:
            found = jumps.pieces(tree, box, domain, name)
            if isinstance(found, str) or len(found) > 2 * SEARCHED_JUMPS + 3:
                continue
            decisions: list[Decision | None] = []
            for piece in found:
                then = (
                    None if piece is None else self.find(piece[0], piece[1], piece[2], strict, depth, order)
                )
                if piece is not None and then is None:
                    break
                decisions.append(then)
            else:
                decision = {"method": "jump", "variable": name, "pieces": decisions}
                if kernel.decide(decision, tree, box, domain, strict) is None:
                    return decision
        return None

    def fractional(
        self, tree: Any, box: kernel.Box, domain: Variables, strict: bool, depth: int, order: int
    ) -> Decision | None:
        """The kernel's ``fractional`` step: the form with floor(u) = u - t, ceiling(u) = u + t decided
        over the box times [0, 1) for each t."""
        form, names = cases.fractional_form(tree, box)
        wider_box, wider = cases.widened(box, domain, names)
        then = self.find(form, wider_box, wider, strict, depth, order)
        return None if then is None else {"method": "fractional", "then": then}

    def unsigned(
        self, tree: Any, box: kernel.Box, domain: Variables, strict: bool, depth: int, order: int
    ) -> Decision | None:
        """The kernel's ``unsigned`` step (abs of an argument of known sign removed) with a decision."""
        if '"abs"' not in json.dumps(tree):
            return None
        self.tick()
        form = kernel.unsigned_form(tree, box, domain)
        if form == tree:
            return None
        then = self.find(form, box, domain, strict, depth, order)
        return None if then is None else {"method": "unsigned", "then": then}

    def logarithm(
        self, tree: Any, form: exact.Polynomial, box: kernel.Box, domain: Variables, strict: bool, depth: int
    ) -> Decision | None:
        """The kernel's ``log`` step for a gap T - c or c - T (c a positive number): decide log T - log c."""
        sides = rewrites.constant_sides(tree)
        if sides is None:
            return None
        left, right = sides
        expanded = [logs.expanded(side, lambda t: self.holds(t, box, domain, True)) for side in sides]
        if expanded[0] is None or expanded[1] is None:
            return None
        difference = ["add", expanded[0], ["mul", ["num", "-1"], expanded[1]]]
        then = self.find(difference, box, domain, strict, depth, MAX_ORDER)
        decision = {"method": "log", "left": left, "right": right, "then": then}
        if then is not None and kernel.decide(decision, tree, box, domain, strict) is None:
            return decision
        return None

    def parts(
        self, tree: Any, form: exact.Polynomial, box: kernel.Box, domain: Variables, strict: bool, depth: int
    ) -> Decision | None:
        """The kernel's ``sum`` step on a box at an open end of the domain: the terms continuous up to that
        end (whose face there counts) and the others, each decided on its own."""
        for name, (lo, hi) in box.items():
            for end, lower in ((lo, True), (hi, False)):
                if lo == hi or infinite(end) or not domain[name].open_at(end, lower):
                    continue
                reaching: exact.Polynomial = {}
                rest: exact.Polynomial = {}
                for monomial, coefficient in form.items():
                    term = exact.as_tree({monomial: coefficient})
                    side = rest if kernel.reaches(term, box, domain, name, lower) else reaching
                    side[monomial] = coefficient
                if not (reaching and rest):
                    continue
                parts = []
                for part in (exact.as_tree(reaching), exact.as_tree(rest)):
                    then = self.find(part, box, domain, strict, depth, MAX_ORDER, rewriting=False)
                    if then is None:
                        break
                    parts.append({"form": part, "then": then})
                decision = {"method": "sum", "parts": parts}
                if len(parts) == 2 and kernel.decide(decision, tree, box, domain, strict) is None:
                    return decision
        return None

    def squares(
        self, tree: Any, form: exact.Polynomial, box: kernel.Box, domain: Variables, strict: bool, depth: int
    ) -> Decision | None:
        """gap = A - B with A the terms under a fractional power, both sides >= 0: decide A^2 - B^2. When
        the form has no such sides but a compound atom (C^(1/2))^(-1), the form with it written C^(-1/2)
        (:func:`rewrites.inverted_roots`) is tried so, behind the kernel's ``rewrite`` step."""
        found = self._squares(tree, form, box, domain, strict, depth)
        flat = None if found is not None else rewrites.inverted_roots(tree)
        flat_form = None if flat is None else exact.normal_form(flat[0], kernel.fixed_points(box))
        if flat is None or flat_form is None:
            return found
        inner = self._squares(flat[0], flat_form, box, domain, strict, depth + 1)
        decision = {"method": "rewrite", "form": flat[0], "multiplier": flat[1], "then": inner}
        if inner is not None and kernel.decide(decision, tree, box, domain, strict) is None:
            return decision
        return None

    def _squares(
        self, tree: Any, form: exact.Polynomial, box: kernel.Box, domain: Variables, strict: bool, depth: int
    ) -> Decision | None:
        unbounded = any(infinite(end) for pair in box.values() for end in pair)
        for left, right in rewrites.root_sides(form, unbounded):
            if unbounded:  # Horner's form keeps a sign at infinity (and loses u * u >= 0 around 0)
                left, right = rewrites.horner(left), rewrites.horner(right)
            squared = ["add", ["mul", left, left], ["mul", ["num", "-1"], right, right]]
            then = self.find(squared, box, domain, strict, depth, MAX_ORDER, squaring=False)
            decision = {"method": "squares", "left": left, "right": right, "then": then}
            if then is not None and kernel.decide(decision, tree, box, domain, strict) is None:
                return decision
        return None

    def derived(
        self, tree: Any, box: kernel.Box, domain: Variables, name: str, depth: int, order: int
    ) -> Decision | None:
        """A monotone decision in name whose slope is decided on the kernel's derivative tree, looked for
        during at most DERIVED_SECONDS (the box is split instead)."""
        if self.attempt_deadline < math.inf:
            return self._derived(tree, box, domain, name, order)
        self.attempt_deadline = time.process_time() + DERIVED_SECONDS
        try:
            return self._derived(tree, box, domain, name, order)
        except _GiveUp:
            return None
        finally:
            self.attempt_deadline = math.inf

    def _derived(
        self, tree: Any, box: kernel.Box, domain: Variables, name: str, order: int
    ) -> Decision | None:
        if domain[name].integer or not kernel.defined(tree, box, domain):
            return None
        try:
            slope = derivative.derivative(tree, name)
        except trees.Discontinuous:
            return None
        lo, hi = box[name]
        interior = {**domain, name: kernel.Variable(name, lo, hi, True, True, False)}
        fixed = kernel.fixed_points(box)
        inner = {n: finite_inner_point(a, b) for n, (a, b) in box.items()}
        for direction, signed in (("increasing", slope), ("decreasing", ["mul", ["num", "-1"], slope])):
            self.tick()
            value = point_value(signed, inner, interior)
            if value is not None and value.at_most_zero(True):
                continue  # negative at a point of the box: not this direction
            form = exact.normal_form(signed, fixed)
            simplified = signed if form is None else exact.as_tree(form)
            then = self.find(simplified, box, interior, False, 0, order + 1)
            if then is not None and simplified is not signed:
                then = {"method": "rewrite", "form": simplified, "then": then}
            if then is not None:
                return {"method": "monotone", "variable": name, "direction": direction, "slope": then}
        return None

    def find(
        self,
        tree: Any,
        box: kernel.Box,
        domain: Variables,
        strict: bool,
        depth: int = 0,
        order: int = 0,
        rewriting: bool = True,
        squaring: bool = True,
    ) -> Decision | None:
        """A decision for tree >= 0 (> 0) on the box: enclosure, a rewrite, else monotone (by the slope's
        enclosure, or up to MAX_ORDER by a decision on the derivative) with a decided face or tail, else
        an exact polynomial sign or a case split (:meth:`exactly`; last, so that a box the older steps
        decide keeps their decision and its Coq proof)."""
        if self.holds(tree, box, domain, strict):
            return {"method": "enclosure"}
        unsigned = self.unsigned(tree, box, domain, strict, depth, order)
        if unsigned is not None:
            return unsigned
        if rewriting:
            rewritten = self.rewrite(tree, box, domain, strict, depth, squaring)
            if rewritten is not None:
                return rewritten
        if depth >= len(box):
            return self.exactly(tree, box, domain, strict, depth, order, rewriting)
        ranged = [name for name, (lo, hi) in box.items() if lo != hi]
        attempts = [(name, False) for name in ranged]
        if order < MAX_ORDER:  # the kernel's derivative where no slope enclosure has a sign, on a range
            # reaching the domain's end in that variable (where a gap touches 0 on a face or a tail), or
            # a cut at a point where a solver proposed that the gap touches 0
            attempts += [
                (name, True)
                for name in ranged
                if box[name][0] == domain[name].lower
                or box[name][1] == domain[name].upper
                or not self.cuts.get(name, frozenset()).isdisjoint(box[name])
            ]
        for name, by_derivative in attempts:
            lo, hi = box[name]
            step: dict[str, Any] = {}
            if by_derivative:
                step = self.derived(tree, box, domain, name, depth, order) or {}
                if not step:
                    continue
                direction, strictly = step["direction"], False
            else:
                found = self.direction(tree, box, domain, name)
                if found is None:
                    continue
                direction, strictly = found
            increasing = direction == "increasing"
            end = lo if increasing else hi
            step = {"method": "monotone", "variable": name, "direction": direction, **step}
            if infinite(end):
                for start in _tail_starts(lo, hi, increasing):
                    tail = {**box, name: (lo, start) if increasing else (start, hi)}
                    then = self.find(
                        tree, tail, domain, strict and not strictly, depth + 1, order, rewriting, squaring
                    )
                    if then is not None:
                        return {**step, "tail": str(start), "then": then}
                continue
            if domain[name].open_at(end, increasing) and kernel.reaches(tree, box, domain, name, increasing):
                continue  # the face is outside the domain and the gap not shown continuous up to it
            face_strict = strict and not (strictly and domain[name].open_at(end, increasing))
            then = self.find(
                tree, {**box, name: (end, end)}, domain, face_strict, depth + 1, order, rewriting, squaring
            )
            if then is not None:
                return {**step, "then": then}
        return self.exactly(tree, box, domain, strict, depth, order, rewriting)


def integer_multiple(tree: Any, box: kernel.Box, domain: Variables) -> tuple[Any, Any] | None:
    """(F, None) for an integer-valued gap F, (F, d) for a gap whose normal form times the common
    denominator d of its coefficients is the integer-valued F, else None."""
    if cases.integer_valued(tree, domain):
        return tree, None
    normal = exact.normal_form(tree, kernel.fixed_points(box))
    if not normal:
        return None
    denominator = math.lcm(*(coefficient.denominator for coefficient in normal.values()))
    scaled = exact.as_tree({m: c * denominator for m, c in normal.items()})
    return (scaled, ["num", str(denominator)]) if cases.integer_valued(scaled, domain) else None


def _roundings(tree: Any) -> list[Any]:
    """Every floor and ceiling node of the tree."""
    found = [tree] if tree[0] in ("floor", "ceiling") else []
    for child in children(tree):
        found += _roundings(child)
    return found


def _polynomial_text(tree: Any) -> bool:
    """The tree is built from numbers, variables, square roots of positive numbers, sums, products and
    powers by natural numbers."""
    op = tree[0]
    if op in ("num", "var"):
        return True
    if op == "pow":
        exponent = tree[2]
        if tree[1][0] == "num" and exponent == ["num", "1/2"]:
            return Fraction(tree[1][1]) > 0
        natural = exponent[0] == "num" and Fraction(exponent[1]).denominator == 1 and exponent[1][0] != "-"
        return natural and _polynomial_text(tree[1])
    return op in ("add", "mul") and all(_polynomial_text(arg) for arg in tree[1:])


def _tail_starts(lo: kernel.Bound, hi: kernel.Bound, increasing: bool) -> list[Fraction]:
    """Tail starts inside the range towards its infinite end (increasing: towards -oo)."""
    sign = -1 if increasing else 1
    finite = hi if increasing else lo
    far = -math.inf if infinite(finite) else sign * Fraction(finite)
    starts = [start for start in TAIL_STARTS if start > far] or [2 * abs(Fraction(finite)) + 1]
    return [sign * start for start in starts]


def _touches(tree: Any, values: dict[str, Fraction], domain: Variables) -> bool:
    """The gap is defined at the point and its ball there is not > 0 (it may be 0: a touching point)."""
    value = point_value(tree, values, domain)
    return value is not None and not value.at_least_zero(True)


def _proposed_cut(box: Box, cuts: dict[str, frozenset[Fraction]]) -> tuple[str, Fraction] | None:
    """The first variable (in domain order) with a proposed cut strictly inside the box's range, and the
    smallest such cut."""
    for name, lo, hi in box.ranges:
        inside = sorted(value for value in cuts.get(name, ()) if lo < value < hi)
        if inside:
            return name, inside[0]
    return None


def kernel_box(box: Box) -> kernel.Box:
    """The kernel's {name: (lo, hi)} of a search box."""
    return {name: (lo, hi) for name, lo, hi in box.ranges}


JUMP_OFFSET = Fraction(1, 2**20)
"""Where a gap that may jump is probed beside a box's finite ends, as a share of the range's width."""


def _candidates(box: Box, domain: Domain, corners: bool, jumps: bool = False) -> list[dict[str, Fraction]]:
    """Points of the domain to probe: the box's inner point, and its corners that lie in the domain; for a
    gap with a floor or ceiling (``jumps``), also the inner point moved in one real variable to just inside
    either end (JUMP_OFFSET * width from it), where a ceiling or floor of it has just jumped."""
    inner = {}
    for name, lo, hi in box.ranges:
        value = finite_inner_point(lo, hi)
        inner[name] = Fraction(math.floor(value)) if domain[name].integer else value
    points = [inner]
    if corners:
        sides = [[v for v in (lo, hi) if not infinite(v)] or [inner[n]] for n, lo, hi in box.ranges]
        for combo in itertools.product(*sides):
            points.append({n: Fraction(v) for n, v in zip(box.names, combo, strict=True)})
    if jumps:
        for name, lo, hi in box.ranges:
            if lo != hi and not (infinite(lo) or infinite(hi) or domain[name].integer):
                offset = JUMP_OFFSET * (Fraction(hi) - Fraction(lo))
                points += [{**inner, name: Fraction(lo) + offset}, {**inner, name: Fraction(hi) - offset}]
    return [p for p in points if all(domain[n].contains(Fraction(v)) for n, v in p.items())]


def point_value(tree: Any, values: dict[str, Fraction], domain: dict[str, kernel.Variable]) -> Any:
    """The kernel's enclosure of the tree at one point, at the first precision that fixes its sign (None
    where the tree is undefined there)."""
    box: kernel.Box = {name: (value, value) for name, value in values.items()}
    value = None
    with kernel.precision(kernel.PRECISIONS[0]):
        for bits in kernel.PRECISIONS:
            ctx.prec = bits
            try:
                value = trees.enclose(tree, kernel.environment(box, domain))
            except Undefined:
                return None
            if value.at_least_zero(True) or value.at_most_zero(False):
                break
    return value


def witness_at(
    tree: Any, strict: bool, values: dict[str, Fraction], domain: dict[str, kernel.Variable]
) -> Witness | None:
    """A witness when the gap is defined at the point (its ball there exists) and its ball, or the ball of
    its exact normal form with the point substituted (:func:`exact.normal_form`, equal to the gap
    wherever the gap is defined), is < 0 (<= 0 for a strict claim): sqrt(2) sqrt(3) - sqrt(6) is exactly
    0, which no ball of the gap shows."""
    value = point_value(tree, values, domain)
    if value is None:
        return None
    if not value.at_most_zero(not strict) and not value.at_least_zero(strict):  # the ball holds 0
        form = exact.normal_form(tree, values)
        value = None if form is None else point_value(exact.as_tree(form), values, domain)
    if value is not None and value.at_most_zero(not strict):
        return Witness(values, (str(value.lo), str(value.hi)))
    return None


def _changed_variables(problem: _Problem, whole: kernel.Box) -> Decision | None:
    """A change of variables on the whole domain (:mod:`theory.prover.substitutions`, its candidates'
    forms decided by the search without substitutions), tried only when the gap's enclosure does not
    decide the domain as it stands: a gap the kernel encloses at once (a sign obligation of a derivation)
    never pays for the candidates' nested searches."""
    if problem.holds(problem.tree, whole, problem.domain, problem.strict):
        return None
    nested = functools.partial(search, substituting=False)
    return substitutions.find(
        problem.tree, problem.strict, whole, problem.domain, problem.deadline, nested, not problem.as_typed
    )


def search(
    inequality: Inequality,
    domain: Domain,
    budget_seconds: float = DEFAULT_BUDGET_SECONDS,
    max_boxes: int = DEFAULT_MAX_BOXES,
    substituting: bool = True,
    solver: proposals.Solver | None = None,
) -> InequalityResult:
    """Decide one inequality over its domain (see the module docstring); with ``substituting``, a change
    of variables on the whole domain is tried on the first box, after its witness probes, unless the
    gap's enclosure decides that box (:func:`_changed_variables`). With a ``solver``, when the first box
    is not decided the solver is asked once for points (:mod:`theory.prover.proposals`): a witness
    counts only when :func:`witness_at` confirms it, and split points become the search's first cuts."""
    start = time.process_time()
    problem = _Problem(inequality, domain, start + budget_seconds)
    queue: deque[Box] = deque([Box.of_domain(domain)])
    decided: list[tuple[Box, Decision]] = []
    stuck: list[Box] = []
    examined = 0
    proposed: tuple[proposals.Proposal, ...] = ()

    def finish(status: ProverStatus, **evidence: object) -> InequalityResult:
        return InequalityResult(
            inequality.text,
            status,
            examined,
            time.process_time() - start,
            proposals=proposed,
            **evidence,  # type: ignore[arg-type]
        )

    while queue:
        if examined >= max_boxes or time.process_time() > problem.deadline:
            return finish(UNDECIDED, remaining=tuple(queue), reason="budget exhausted")
        box = queue.popleft()
        examined += 1
        for values in _candidates(box, domain, examined == 1 or len(box.ranges) <= 3, problem.jumps):
            witness = witness_at(problem.tree, problem.strict, values, problem.domain)
            if witness is not None:
                return finish(REFUTED, witness=witness)
        ranges = kernel_box(box)
        try:
            decision = None
            if substituting and examined == 1:
                if problem.jumps and integer_multiple(problem.tree, ranges, problem.domain) is not None:
                    decision = problem.exactly(problem.tree, ranges, problem.domain, problem.strict)
                decision = decision or _changed_variables(problem, ranges)
            decision = decision or problem.find(problem.tree, ranges, problem.domain, problem.strict)
        except OutOfTime:
            return finish(UNDECIDED, remaining=(box, *queue), reason="budget exhausted")
        if decision is not None:
            decided.append((box, decision))
            continue
        if solver is not None and examined == 1:
            confirm = functools.partial(witness_at, problem.tree, problem.strict, domain=problem.domain)
            touches = functools.partial(_touches, problem.tree, domain=problem.domain)
            consulted = proposals.consult(
                solver, problem.tree, problem.strict, problem.domain, confirm, touches
            )
            proposed = consulted.proposals
            for name, points in consulted.cuts.items():
                problem.cuts[name] = problem.cuts.get(name, frozenset()) | points
            if consulted.witness is not None:
                return finish(REFUTED, witness=consulted.witness)
        if any(len(str(end)) > MAX_BOUND_TEXT for _, lo, hi in box.ranges for end in (lo, hi)):
            stuck.append(box)
            continue
        cut = _proposed_cut(box, problem.cuts)
        if cut is not None:
            queue.extend(box.split(cut[0], False, at=cut[1]))
            continue
        variable = box.widest(domain)
        if variable is None:
            stuck.append(box)
            continue
        queue.extend(box.split(variable, domain[variable].integer))
    if stuck:
        return finish(UNDECIDED, remaining=tuple(stuck), reason="points where the gap's ball contains 0")
    certificate = Certificate(inequality, domain, tuple(decided))
    verdict = kernel.check(certificate.to_json())
    if not verdict.accepted:
        return finish(UNDECIDED, reason=f"the kernel rejected the certificate: {verdict.reason}")
    return finish(PROVED, certificate=certificate)
