"""An enclosure on a box reaching infinity (or with an open end), proved in Coq node by node.

Interval reads only two-sided closed bounds, so it cannot take a box with an infinite range, and on an open
end it evaluates the closed range (where the gap may be undefined). The kernel's enclosure is interval
arithmetic whose ends may be infinite or open; this module carries it into Coq node by node. For each node of
the tree (an n-ary sum or product as the left fold Coq parses it; a^b as exp(b ln a), which is Coq's ``Rpower
a b`` by definition), the kernel's set of its values on the box gives the facts ``L <= t`` (``L < t`` at an
open end) and ``t <= U`` (``t < U``), L and U the exact dyadic ends of the set's balls; an infinite end gives
no fact. A sum (a product by a literal) of literals and variables whose exact end is 0 where its ball is not,
or whose ball end straddles 0, takes the exact end (the kernel's affine rule: x - 1/3 > 0 over 1/3 < x),
proved by lra from the box's premises and the literals. Each other fact is proved from the facts of the node's
arguments alone (``clear -``): ``lra`` for sums, rational constants and variables (from the box's premises),
``nra`` for products and squares, a case split on the argument's sign for Rabs, max and min, and for powers,
reciprocals, sqrt, exp, ln, atan, floor and ceiling their monotonicity and sign lemmas (``pow_incr``,
``sb_pow_lt``, ``Rinv_le_contravar``, ``sqrt_le_1_alt``, ``sb_exp_le``, ``sb_ln_le``, ``sb_atan_le`` with
``atan_bound``, ``sb_ceil_le`` and their strict forms; ``sb_ceil_above`` for the kernel's ceiling(t) >= n + 1
above an open integer end n), with Interval comparing the printed end with the function's value at the
argument's end (a constant goal), one helper (:meth:`NodeProof._compared`) for every such function. The claim
0 <= gap (0 < gap) is then the root's lower fact. Provenance: derived (a translation of the kernel's
enclosure; interval arithmetic with monotone functions).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from theory.prover.coq import node_rules
from theory.prover.coq.erf import ERF_CONSTANT, erf_bounds
from theory.prover.coq.node_rules import quotient
from theory.prover.coq.terms import CONSTANTS, ERF, ROUNDINGS, Untranslatable, rational, rounding, variable
from theory.prover.kernel import balls, trees
from theory.prover.kernel.balls import Set, Undefined
from theory.prover.kernel.trees import ball, number
from theory.prover.kernel.verify import PRECISIONS, Box, Variable, environment, precision

PI_MARGIN = 44
"""Bits of the ball of pi whose ends bound PI in an atan node's facts, beyond the balls' precision: finer
than the kernel's, so its -PI/2 and PI/2 lie inside the kernel's limits of atan."""
CONSTANT_MARGIN = 64
"""Bits of Interval's precision on a constant goal f(l) beyond those at which the kernel rounded the end."""


def signed_by_nodes(
    box: Box, domain: dict[str, Variable], positive: Callable[[Any], bool], tree: Any, strict: bool
) -> str:
    """The script of 0 <= tree (0 < tree) on the box node by node, at the kernel's precisions in turn
    (:data:`~theory.prover.kernel.verify.PRECISIONS`): the first whose enclosure shows the sign. Coq's
    lra, nra and Interval work on the printed ends, so the cheapest precision that suffices is used (a
    64-bit end is a rational of about 20 digits, a 256-bit one of about 77); Untranslatable (the last
    precision's reason) when none does."""
    failure = Untranslatable("no precision to try")
    for bits in PRECISIONS:
        with precision(bits):
            try:
                return NodeProof(environment(box, domain), positive, bits).claim(tree, strict)
            except Untranslatable as error:
                failure = error
    raise failure


@dataclass
class _Node:
    """A node's Coq term, the kernel's set of its values and the names of the facts proved about it."""

    coq: str
    values: Set
    facts: list[str] = field(default_factory=list)
    lower: Fraction | None = None
    upper: Fraction | None = None
    exact: tuple[Fraction | None, Fraction | None] = (None, None)
    """Exact ends of the node's values that Coq's context gives: a literal, a variable's premises, a sum
    (a product by a literal) of such nodes once its local names (``inner``) are unfolded."""
    opened: tuple[bool, bool] = (False, False)
    """Whether each exact end is open (not attained)."""
    inner: tuple[str, ...] = ()
    """The local names of the sums and products by literals under the node, the node's own first."""
    named_ends: dict[str, str] = field(default_factory=dict)
    """The name of the fact of each side ("lo", "hi") that has one."""


@dataclass
class NodeProof:
    """The Coq script proving bounds of every node of a tree on a box, bottom-up."""

    env: dict[str, Set]
    positive: Callable[[Any], bool]
    bits: int
    """The precision of the balls (one of the kernel's): the printed ends have about this many bits."""
    steps: list[str] = field(default_factory=list)
    count: int = 0
    named: dict[str, _Node] = field(default_factory=dict)
    """The compound nodes met, by their Coq term over their arguments' names (each proved once)."""
    leaves: dict[str, _Node] = field(default_factory=dict)
    """The leaves met (numbers, variables, constants), by their Coq term (each proved once)."""
    quiet: bool = False
    """Inside a constant subtree (:meth:`_whole`): nodes give their Coq term and the kernel's set of
    their values, and no fact."""

    @property
    def interval(self) -> str:
        """The tactic of a constant goal: the printed end against the function's value at its argument's
        end."""
        return f"interval with (i_prec {self.bits + CONSTANT_MARGIN})"

    def claim(self, tree: Any, strict: bool) -> str:
        """The script: every node's facts, then ``0 <= t`` (``0 < t``) for the root t by lra; Untranslatable
        when a node has no translation here or the root's set does not show the sign. Each compound node
        is a local definition ``n<k> := f(n<i>, ...)`` over its arguments' (``pose``), so the script grows
        with the nodes, not with the nodes times their terms; the root's facts alone are unfolded back to
        the goal's term (children after parents) and kept (``clear -``) for the closing lra."""
        root = self.node(tree)
        if not root.values.at_least_zero(strict):
            raise Untranslatable("the node-by-node enclosure on the half-line does not show the sign")
        names = ", ".join(node.coq for node in reversed(self.named.values()))
        facts = ", ".join(root.facts)
        closing = (
            f"unfold {names} in {facts}; clear - {facts.replace(',', '')}; lra"
            if names and root.facts
            else "lra"
        )
        return "".join(f"{step};\n  " for step in self.steps) + closing

    def _facts(
        self,
        coq: str,
        values: Set,
        proof: Callable[[str, bool], str],
        leaf: bool = False,
        ruled: Ruled | None = None,
        joint: str | None = None,
    ) -> _Node:
        """Assert the facts of ``values`` about ``coq``, each proved by ``ruled(side, strict, end)`` (a shared
        lemma of :mod:`theory.prover.coq.node_rules` whose check holds; None where none applies), else by
        ``proof(side, strict)``; where both ends are finite and closed, a ``joint`` tactic proves both
        facts at once (``L <= t <= U``, then split). The node's
        set is then the facts' own (the printed dyadic ends, outward of the kernel's balls by up to an
        ulp): its parents are enclosed from what Coq knows of it, or x^2 from x <= c could claim less
        than c^2. A compound node (not a ``leaf``) is named first (see :meth:`claim`), once however many
        times it occurs, and each of its facts is proved with its definition unfolded."""
        if self.quiet:
            return _Node(coq, values)
        if leaf and coq in self.leaves:
            return self.leaves[coq]
        unfold = ""
        if not leaf:
            if coq in self.named:
                return self.named[coq]
            local = f"n{len(self.named) + 1}"
            self.steps.append(f"pose ({local} := {coq})")
            unfold = f"unfold {local}; "
            proof = functools.partial(_unfolding, local, proof)
            node = _Node(local, values)
            self.named[coq] = node
        else:
            node = _Node(coq, values)
            self.leaves[coq] = node
        coq = node.coq
        finite = not (balls.infinite(values.lo) or balls.infinite(values.hi))
        if joint is not None and finite and not (values.lo_open or values.hi_open):
            return self._joint(node, unfold + joint)
        for side, end, is_open in (("lo", values.lo, values.lo_open), ("hi", values.hi, values.hi_open)):
            if balls.infinite(end):
                continue
            self.count += 1
            name = f"N{self.count}"
            bound = trees.dyadic(end, side == "lo")
            relation = "<" if is_open else "<="
            fact = (
                f"{quotient(bound)} {relation} {coq}"
                if side == "lo"
                else f"{coq} {relation} {quotient(bound)}"
            )
            rule = None if ruled is None else ruled(side, is_open, bound)
            script = proof(side, is_open) if rule is None else f"{unfold}{rule}"
            self.steps.append(f"assert ({name} : {fact}) by ({script})")
            node.facts.append(name)
            node.named_ends[side] = name
            if side == "lo":
                node.lower = bound
            else:
                node.upper = bound
        node.values = Set(
            values.lo if node.lower is None else ball(node.lower),
            values.hi if node.upper is None else ball(node.upper),
            values.lo_open,
            values.hi_open,
        )
        return node

    def _joint(self, node: _Node, script: str) -> _Node:
        """Both facts of ``node`` (ends finite and closed) from one proof of L <= t <= U."""
        values = node.values
        low, high = trees.dyadic(values.lo, True), trees.dyadic(values.hi, False)
        first, second = f"N{self.count + 1}", f"N{self.count + 2}"
        self.count += 2
        self.steps.append(
            f"assert ({first} : {quotient(low)} <= {node.coq} <= {quotient(high)}) by ({script})"
        )
        self.steps.append(f"destruct {first} as [{first} {second}]")
        node.facts += [first, second]
        node.named_ends.update(lo=first, hi=second)
        node.lower, node.upper = low, high
        node.values = Set(ball(low), ball(high), False, False)
        return node

    def _from(self, children: list[_Node], tactic: str) -> Callable[[str, bool], str]:
        kept = " ".join(f for child in children for f in child.facts)
        return lambda side, strict: f"clear - {kept}; {tactic}" if kept else tactic

    def node(self, tree: Any) -> _Node:
        """The facts of ``tree``'s node (after those of its arguments)."""
        head = tree[0]
        if not self.quiet and _constant_tree(tree):
            return self._whole(tree)
        if head == "num":
            value = Fraction(number(tree[1]))
            printed = rational(value)
            leaf = self._facts(
                printed, balls.point(ball(value)), lambda side, strict: "lra", True, _literal(value)
            )
            leaf.exact = (value, value)
            return leaf
        if head == "var":
            values = self.env[tree[1]]
            leaf = self._facts(variable(tree[1]), values, lambda side, strict: "lra", True)
            leaf.exact, leaf.opened = (values.lo_exact, values.hi_exact), (values.lo_open, values.hi_open)
            return leaf
        if head == "const":  # pi, e: the kernel's ball, each end by Interval (a constant goal)
            values = trees.enclose(tree, self.env)
            return self._facts(CONSTANTS[tree[1]], values, lambda side, strict: self.interval, True)
        if head in ("add", "mul"):
            nodes = [self.node(arg) for arg in tree[1:]]
            result = nodes[0]
            for other in nodes[1:]:
                operation = balls.add if head == "add" else balls.multiply
                symbol, tactic = ("+", "lra") if head == "add" else ("*", "first [ lra | nra ]")
                values = operation(result.values, other.values)
                ends, opened = _exact_ends(head, result, other)
                exact = _exactly(values, ends, opened)
                inner = result.inner + other.inner
                result = self._facts(
                    f"({result.coq} {symbol} {other.coq})",
                    values if exact is None else exact,
                    self._from([result, other], tactic) if exact is None else _premised(inner),
                    ruled=None if exact is not None else _ruled(head, result, other),
                )
                if ends != (None, None):
                    result.exact, result.opened, result.inner = ends, opened, (result.coq, *inner)
            return result
        if head == "pow":
            return self._power(tree[1], tree[2])
        if head == "abs":
            child = self.node(tree[1])
            return self._facts(
                f"(Rabs {child.coq})", balls.absolute(child.values), self._from([child], UNABS)
            )
        if head in ("max", "min"):
            return self._extremum(head, [self.node(arg) for arg in tree[1:]])
        if head == "exp":
            return self._exp(self.node(tree[1]))
        if head == "log":
            return self._log(self.node(tree[1]))
        if head in ROUNDINGS:
            return self._rounding(head, self.node(tree[1]))
        if head == "erf":
            return self._erf(self.node(tree[1]))
        if head == "atan":
            return self._atan(self.node(tree[1]))
        raise Untranslatable(f"the function {head!r} on a box reaching infinity has no Coq proof here yet")

    def _whole(self, tree: Any) -> _Node:
        """A constant subtree (no variable, a function in it) as one node: its term printed whole, its set
        the kernel's enclosure of it, each fact by one Interval call on the whole term (a constant goal;
        ``Rpower`` read as exp(b ln a)), instead of a fact per node of it."""
        self.quiet = True
        try:
            whole = self.node(tree)
        finally:
            self.quiet = False
        tactic = f"try unfold Rpower; {self.interval}"
        return self._facts(whole.coq, whole.values, lambda side, strict: tactic, joint=tactic)

    def _extremum(self, head: str, nodes: list[_Node]) -> _Node:
        """max / min folded from the left as terms prints them, (a + b +- Rabs (a - b)) / 2."""
        sign = "+" if head == "max" else "-"
        operation = balls.maximum if head == "max" else balls.minimum
        result = nodes[0]
        for other in nodes[1:]:
            coq = f"(({result.coq} + {other.coq} {sign} Rabs ({result.coq} - {other.coq})) / 2)"
            result = self._facts(
                coq, operation(result.values, other.values), self._from([result, other], UNABS)
            )
        return result

    def _power(self, base_tree: Any, exponent: Any) -> _Node:
        base = self.node(base_tree)
        if exponent[0] == "num" and Fraction(number(exponent[1])).denominator in (1, 2):
            value = Fraction(number(exponent[1]))
            root = base if value.denominator == 1 else self._sqrt(base)
            count = abs(value.numerator)
            powered = root if count == 1 else self._integer_power(root, count)
            return self._reciprocal(powered) if value < 0 else powered
        if not self.positive(base_tree):
            raise Untranslatable("a general power whose base may reach 0")
        power = self.node(exponent)
        log = self._log(base)
        inner = self._facts(
            f"({power.coq} * {log.coq})",
            balls.multiply(power.values, log.values),
            self._from([power, log], "first [ lra | nra ]"),
        )
        image = self._exp(inner)
        unfolded = f"unfold {image.coq}, {inner.coq}, {log.coq} in *; unfold Rpower in *; lra"
        return self._facts(f"(Rpower {base.coq} {power.coq})", image.values, self._from([image], unfolded))

    def _compared(
        self,
        coq: str,
        values: Set,
        sign: list[str],
        at_end: Callable[[str], str | None],
        comparisons: tuple[str, str],
        opened: Callable[[str], bool],
        constant: str = "",
    ) -> _Node:
        """The facts of a node f(t) monotone in its argument t: for each side, the end value e = f(l) (or
        f(u); ``at_end(side)``, None when there is none) is compared with the node by one of the tactics
        ``comparisons`` (non-strict, strict: each proves e <= f(t) or e < f(t), or the reverse above, from
        the argument's facts): the strict one first only where the argument's fact at that end is strict
        (``opened(side)``; from a non-strict one it fails), else the non-strict one alone; then Interval
        proves the kernel's end against e (a constant goal) and lra concludes; ``sign`` are the steps first
        (the child's facts kept, what f's range gives); ``constant`` is the tactic of the constant goal
        (Interval at 320 bits unless given)."""

        def proof(side: str, strict: bool) -> str:
            steps = list(sign)
            value = at_end(side)
            if value is not None:
                low, high = (value, coq)[:: 1 if side == "lo" else -1]
                weak = f"assert (M : {low} <= {high}) by ({comparisons[0]})"
                strong = f"first [ assert (M : {low} < {high}) by ({comparisons[1]}) | {weak} ]"
                steps.append(strong if opened(side) else weak)
                steps.append(f"assert (K : {_constant(values, side, value)}) by {constant or self.interval}")
            return "; ".join(steps) + "; lra"

        return self._facts(coq, values, proof)

    def _monotone(
        self, child: _Node, function: str, values: Set, lemmas: tuple[str, str], sign: str, constant: str = ""
    ) -> _Node:
        """An increasing function f of the child: L <= f(t) from l <= t by ``lemmas`` (non-strict, strict:
        each concludes f x <= f y from x <= y or its strict form) and L <= f(l) by Interval (a constant
        goal); likewise above. ``sign`` states what the function's range gives (e.g. 0 < exp t)."""

        def at_end(side: str) -> str | None:
            end = child.lower if side == "lo" else child.upper
            return None if end is None else f"({function} {rational(end)})"

        comparisons = (f"apply {lemmas[0]}; repeat split; lra", f"apply {lemmas[1]}; repeat split; lra")
        kept = [f"clear - {' '.join(child.facts)}" if child.facts else "idtac", sign]
        return self._compared(
            f"({function} {child.coq})", values, kept, at_end, comparisons, _opened(child, False), constant
        )

    def _exp(self, child: _Node) -> _Node:
        values = trees.FUNCTIONS["exp"](child.values)
        sign = f"pose proof (exp_pos {child.coq})"
        return self._monotone(child, "exp", values, ("sb_exp_le", "exp_increasing"), sign)

    def _log(self, child: _Node) -> _Node:
        try:
            values = trees.FUNCTIONS["log"](child.values)
        except Undefined:
            raise Untranslatable("ln of a set reaching 0 on a box reaching infinity") from None
        return self._monotone(child, "ln", values, ("sb_ln_le", "ln_increasing"), "idtac")

    def _rounding(self, head: str, child: _Node) -> _Node:
        """floor / ceiling of the child (non-strictly increasing: ``sb_floor_le`` / ``sb_ceil_le``; no
        strict comparison); where the kernel's ceiling rule gave n + 1 <= ceiling(t) above an open
        integer end n, ``sb_ceil_above`` proves it."""
        values = trees.FUNCTIONS[head](child.values)
        lower = child.lower
        above = head == "ceiling" and child.values.lo_open and lower is not None and lower.denominator == 1
        sign = [f"clear - {' '.join(child.facts)}" if child.facts else "idtac"]
        if above and lower is not None:
            sign.append(f"pose proof (sb_ceil_above ({lower.numerator})%Z {child.coq} ltac:(lra))")

        def at_end(side: str) -> str | None:
            end = child.lower if side == "lo" else child.upper
            if end is None or (above and side == "lo"):
                return None
            return rounding(head, rational(end))

        lemma = "sb_ceil_le" if head == "ceiling" else "sb_floor_le"
        return self._compared(
            rounding(head, child.coq),
            values,
            sign,
            at_end,
            (f"apply {lemma}; lra", "fail"),
            lambda side: False,
        )

    def _erf(self, child: _Node) -> _Node:
        """erf of the child (the preamble's ``sb_erf``): increasing (``sb_erf_le``, ``sb_erf_lt``), in
        (-1, 1) (``sb_erf_bounds``, the kernel's open limits where the child's set is unbounded), and its
        value at a finite end of it by Interval's ``integral`` (:mod:`theory.prover.coq.erf`), which
        does not reach the kernel's 256 bits: such an end is rounded outward to its grid. The nodes above
        are enclosed from this wider set, so their facts follow from it."""
        ends, opened = [], []
        for side, point, is_open in (
            ("lo", child.lower, child.values.lo_open),
            ("hi", child.upper, child.values.hi_open),
        ):
            limit = -1 if side == "lo" else 1
            ends.append(ball(Fraction(limit) if point is None else erf_bounds(point, side == "lo")))
            opened.append(point is None or (is_open and point == 0))  # erf 0 = 0 is exact: not widened
        values = Set(ends[0], ends[1], opened[0], opened[1])
        sign = f"pose proof ({ERF}_bounds {child.coq})"
        return self._monotone(child, ERF, values, (f"{ERF}_le", f"{ERF}_lt"), sign, ERF_CONSTANT)

    def _atan(self, child: _Node) -> _Node:
        """atan of the child: increasing (``sb_atan_le``, ``atan_increasing``), in (-PI/2, PI/2)
        (``atan_bound``, the kernel's open limits where the child's set is unbounded), with PI between
        two dyadic numbers 2^-300 apart (Interval), outward of the kernel's 256-bit ball of pi / 2."""
        values = trees.FUNCTIONS["atan"](child.values)
        with precision(self.bits + PI_MARGIN):
            pi = balls.arb.pi()
        low, high = trees.dyadic(pi, True), trees.dyadic(pi, False)
        sign = (
            f"pose proof (atan_bound {child.coq}); "
            f"assert ({rational(low)} <= PI <= {rational(high)}) by {self.interval}"
        )
        return self._monotone(child, "atan", values, ("sb_atan_le", "atan_increasing"), sign)

    def _sqrt(self, child: _Node) -> _Node:
        if not child.values.at_least_zero(False):
            raise Untranslatable("sqrt of a set reaching below 0 on a box reaching infinity")
        values = balls.monotone(child.values, lambda x: x.sqrt(), (balls.arb(0), math.inf))
        sign = f"pose proof (sqrt_pos {child.coq})"
        if child.values.at_least_zero(True):
            sign += f"; pose proof (sqrt_lt_R0 {child.coq} ltac:(lra))"
        return self._monotone(child, "sqrt", values, ("sqrt_le_1_alt", "sqrt_lt_1_alt"), sign)

    def _integer_power(self, child: _Node, count: int) -> _Node:
        values = balls.power_integer(child.values, count)
        coq = f"({child.coq} ^ {count})"
        if count == 2 and not child.values.at_least_zero(False):
            return self._facts(coq, values, self._from([child], "first [ apply pow2_ge_0 | nra ]"))
        nonnegative = child.values.at_least_zero(False)
        if count % 2 == 0 and not nonnegative and child.values.at_most_zero(False):  # t^n = (-t)^n, -t >= 0
            opposite = balls.negate(child.values)
            mirror = self._facts(f"(-1 * {child.coq})", opposite, self._from([child], "lra"))
            if not mirror.values.at_least_zero(False):  # its printed ends lost the sign
                raise Untranslatable("a power of a set around 0 on a box reaching infinity")
            power = self._integer_power(mirror, count)
            even = f"replace {coq} with {power.coq} by (unfold {power.coq}, {mirror.coq}; ring); lra"
            return self._facts(coq, power.values, self._from([power], even))
        if not nonnegative:
            raise Untranslatable("a power of a set reaching below 0 on a box reaching infinity")
        sign = [f"clear - {' '.join(child.facts)}", f"pose proof (pow_le {child.coq} {count} ltac:(lra))"]
        if child.values.at_least_zero(True):
            sign.append(f"pose proof (pow_lt {child.coq} {count} ltac:(lra))")

        def at_end(side: str) -> str | None:
            end = child.lower if side == "lo" else child.upper
            return None if end is None or end < 0 else f"({rational(end)} ^ {count})"

        comparisons = ("apply pow_incr; split; lra", "apply sb_pow_lt; [ lra | lra | lia ]")
        return self._compared(coq, values, sign, at_end, comparisons, _opened(child, False))

    def _reciprocal(self, child: _Node) -> _Node:
        if not child.values.at_least_zero(True):
            raise Untranslatable("a quotient by a set reaching 0 or below on a box reaching infinity")
        try:
            values = balls.reciprocal(child.values)
        except Undefined:
            raise Untranslatable("a quotient by a set reaching 0 on a box reaching infinity") from None
        sign = [f"clear - {' '.join(child.facts)}", f"pose proof (Rinv_0_lt_compat {child.coq} ltac:(lra))"]

        def at_end(side: str) -> str | None:
            end = child.upper if side == "lo" else child.lower
            return None if end is None or end <= 0 else f"(/ {rational(end)})"

        comparisons = ("apply Rinv_le_contravar; lra", "apply Rinv_lt_contravar; [ nra | lra ]")
        return self._compared(f"(/ {child.coq})", values, sign, at_end, comparisons, _opened(child, True))


ARITHMETIC = frozenset({"num", "add", "mul"})
"""The heads of a tree of numbers whose facts the shared lemmas and lra prove from the literals."""


def _constant_tree(tree: Any) -> bool:
    """Whether ``tree`` has no variable, a function that is not arithmetic (whose facts would each need
    Interval on a constant goal) and no erf (Interval has no erf)."""
    heads = set()

    def walk(node: Any) -> None:
        if isinstance(node, (list, tuple)) and node and isinstance(node[0], str):
            heads.add(node[0])
            if node[0] not in ("num", "var", "const"):
                for arg in node[1:]:
                    walk(arg)

    walk(tree)
    return "var" not in heads and "erf" not in heads and tree[0] != "const" and bool(heads - ARITHMETIC)


Ruled = Callable[[str, bool, Fraction], str | None]
"""A fact's proof by a shared lemma from its side, strictness and printed end, or None."""


def _ends(node: _Node, side: str) -> tuple[str, Fraction, bool] | None:
    """The fact of a node on ``side`` with its printed end and strictness, None where it has none."""
    end = node.lower if side == "lo" else node.upper
    if side not in node.named_ends or end is None:
        return None
    return node.named_ends[side], end, node.values.lo_open if side == "lo" else node.values.hi_open


def _ruled(head: str, a: _Node, b: _Node) -> Ruled:
    """A fact of a + b (a * b) by ``sb_node_add_*`` (``sb_node_mul_*``, the four corners) where the
    arguments have the facts it reads and its rational check holds."""

    def rule(side: str, strict: bool, bound: Fraction) -> str | None:
        lower = side == "lo"
        if head == "add":
            found = [_ends(a, side), _ends(b, side)]
            if None in found:
                return None
            (fa, ea, oa), (fb, eb, ob) = found  # type: ignore[misc]
            if not node_rules.addition_holds(lower, strict, (oa, ob), bound, (ea, eb)):
                return None
            return node_rules.addition(lower, strict, (oa, ob), (fa, fb))
        found = [_ends(a, "lo"), _ends(a, "hi"), _ends(b, "lo"), _ends(b, "hi")]
        if None not in found:
            names, ends, opened = zip(*found, strict=True)
            if node_rules.product_holds(lower, strict, bound, ends[:2], ends[2:]):
                return node_rules.product(lower, strict, opened, names)
        for name, a_side, b_side, gives_lower in node_rules.QUADRANTS:
            pair = [_ends(a, a_side), _ends(b, b_side)]
            if gives_lower != lower or None in pair:
                continue
            (fa, ea, oa), (fb, eb, ob) = pair  # type: ignore[misc]
            x, y = (ea if a_side == "lo" else -ea), (eb if b_side == "lo" else -eb)
            if node_rules.quadrant_holds(strict, (oa, ob), bound if lower else -bound, x, y):
                return node_rules.quadrant(name, strict, (oa, ob), (fa, fb))
        return None

    return rule


def _literal(value: Fraction) -> Ruled:
    """A literal's fact against its printed end by ``sb_node_num`` (``_num_z`` / ``_z_num`` for an
    integer literal, which Coq reads as IZR z)."""

    def rule(side: str, strict: bool, bound: Fraction) -> str | None:
        lower = side == "lo"
        if not (node_rules.holds(strict, bound, value) if lower else node_rules.holds(strict, value, bound)):
            return None
        integer = "sb_node_num_z" if lower else "sb_node_z_num"
        name = "sb_node_num" if value.denominator != 1 else integer
        return f"apply ({name} {node_rules.flag(strict)}); {node_rules.CHECKED}"

    return rule


def _exact_ends(
    head: str, a: _Node, b: _Node
) -> tuple[tuple[Fraction | None, Fraction | None], tuple[bool, bool]]:
    """The exact ends of a + b (a * b with a or b a literal c) from the two nodes' exact ends
    (:attr:`_Node.exact`; None where unknown), and whether each is open (where an end it comes from is:
    :attr:`_Node.opened`)."""
    (a_lo, a_hi), (b_lo, b_hi) = a.exact, b.exact
    opened = (a.opened[0] or b.opened[0], a.opened[1] or b.opened[1])
    if head == "add":
        low = None if a_lo is None or b_lo is None else a_lo + b_lo
        high = None if a_hi is None or b_hi is None else a_hi + b_hi
        return (low, high), opened
    if not (b_lo is not None and b_lo == b_hi and not b.opened[0]):
        a, b, (a_lo, a_hi), (b_lo, b_hi) = b, a, b.exact, a.exact
    if not (b_lo is not None and b_lo == b_hi and not b.opened[0]):
        return (None, None), opened
    ends = (None if a_lo is None else b_lo * a_lo, None if a_hi is None else b_lo * a_hi)
    opened = a.opened
    return (ends, opened) if b_lo >= 0 else ((ends[1], ends[0]), (opened[1], opened[0]))


def _exactly(
    values: Set, ends: tuple[Fraction | None, Fraction | None], opened: tuple[bool, bool]
) -> Set | None:
    """The kernel's affine rule in Coq: ``values`` with an end replaced by its exact end (from
    :func:`_exact_ends`) where that is 0 and the ball is not, or the ball straddles 0 (the exact 0 of
    v - 1/3 over 1/3 < v, which the leaves' printed dyadic facts lose); None when no end is replaced. Its
    facts hold by lra from the lemma's premises and literals, the sums' local names unfolded."""
    sides, replaced = [], False
    for end, is_open, ball_end, ball_open in zip(
        ends, opened, (values.lo, values.hi), (values.lo_open, values.hi_open), strict=True
    ):
        lost = end == 0 and (balls.infinite(ball_end) or not ball_end.is_zero())
        if end is not None and (lost or trees.straddles(ball_end)):
            sides.append((ball(end), is_open))
            replaced = True
        else:
            sides.append((ball_end, ball_open))
    return Set(sides[0][0], sides[1][0], sides[0][1], sides[1][1]) if replaced else None


def _premised(inner: tuple[str, ...]) -> Callable[[str, bool], str]:
    """The proof of a fact :func:`_exactly` gives: the local names of the sums under it unfolded (outer
    first), then lra from the lemma's premises and the literals."""
    unfolded = "".join(f"try unfold {name}; " for name in inner)
    return lambda side, strict: f"{unfolded}lra"


def _unfolding(name: str, proof: Callable[[str, bool], str], side: str, strict: bool) -> str:
    """``proof`` of a fact about the local definition ``name``, after unfolding it."""
    return f"unfold {name}; {proof(side, strict)}"


UNABS = "sb_unabs; lra"
"""The tactic of a fact about Rabs: each Rabs split by the sign of its argument (``sb_unabs``), then lra."""


def _opened(child: _Node, decreasing: bool) -> Callable[[str], bool]:
    """Whether the argument's fact that a monotone node's fact on a side is compared with is strict: the
    argument's end on the same side (the other where the function is ``decreasing``)."""
    return lambda side: child.values.lo_open if (side == "lo") != decreasing else child.values.hi_open


def _constant(values: Set, side: str, at_end: str) -> str:
    """L <= f(l) (side "lo") or f(u) <= U: the printed end of the set against the function at the end."""
    if side == "lo":
        return f"{rational(trees.dyadic(values.lo, True))} <= {at_end}"
    return f"{at_end} <= {rational(trees.dyadic(values.hi, False))}"
