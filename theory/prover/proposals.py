"""Proposals from an optional SMT solver (z3, the ``solver`` extra): points to check, never verdicts.

When the gap is written in nonlinear real arithmetic (numbers, variables, sums, products, powers by
rational constants, abs, max, min, floor, ceiling and Piecewise) it is encoded for z3 with the language's
conventions (a power p/q with q > 1 is an auxiliary r >= 0 with r^q = b^p, defined for b >= 0, b > 0 when
p < 0; a negative integer power and a quotient need a nonzero base; a Piecewise is undefined where no
condition holds) and two questions are asked on the whole domain, each within z3's resource limit
(:data:`RESOURCE_LIMIT`, a count of z3's own steps: the same answer on every run, unlike its wall-clock
timeout):

- a point of the domain where the gap is defined and the claim fails (gap < 0, or <= 0 for a strict
  claim): proposed as a **witness**. The search reports ``refuted`` only if its own check at that point
  (:func:`theory.prover.search.witness_at`: the kernel's ball of the gap, or of its exact normal form,
  below 0) confirms it; a witness it does not confirm is discarded;
- when there is none (z3's "unsat", which decides nothing here) and the claim is not strict, up to
  :data:`TOUCHING_POINTS` points where the gap is 0: **split** points. The search keeps one only where
  the kernel's ball of the gap is not > 0 (a wrong point would only move its cuts), cuts the boxes that
  contain it there (and tries the derivative steps at those cuts, as at the domain's ends), so that a
  touching minimum becomes a corner of its boxes. The certificate is then found and re-checked by the
  kernel as always.

A coordinate z3 gives as an algebraic number is proposed as a rational within 10^-DIGITS of it. The gap,
the domain and the points are data: nothing the solver says is evaluated as code, and a statement outside
the encoding (exp, log, a variable exponent, ...) gets no proposal.
Provenance: not applicable (heuristic proposals; the verdict is the prover's check or the kernel's).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

RESOURCE_LIMIT = 500_000
"""z3's rlimit per query (its deterministic step count): ~0.01-0.05 CPU s on the queries z3 answers,
~0.25 s on a 4-variable quartic it gives up on (whose CPU grows faster than the limit: 3 s at 2,000,000)."""
TOUCHING_POINTS = 3
"""Points where the gap is 0 asked for, each excluded from the next query."""
MAX_EXPONENT = 64
"""Largest numerator and denominator of a power's exponent the encoding writes out as a product."""
DIGITS = 30
"""An algebraic coordinate is proposed as a rational within 10^-DIGITS of it."""
MIN_BUDGET = 1.0
"""CPU seconds a statement's budget must reach for the solver to be asked (a smaller budget is spent on
the search alone)."""


@dataclass(frozen=True)
class Proposal:
    """A point a solver proposed, ``kind`` "witness" or "split", and the prover's ``outcome``: "confirmed"
    (its own check shows the claim failing there), "discarded" (it does not), "split" (the search cuts
    its boxes there) or "outside" (not a point of the domain: unused)."""

    solver: str
    kind: str
    point: dict[str, Fraction]
    outcome: str = ""

    def to_json(self) -> dict[str, Any]:
        """{"solver", "kind", "point": {name: "p/q"}, "outcome"}."""
        point = {name: str(value) for name, value in self.point.items()}
        return {"solver": self.solver, "kind": self.kind, "point": point, "outcome": self.outcome}


class Solver(Protocol):
    """What the search asks: points for one gap over its domain (the kernel's variables); ``version`` is
    known once the solver has been asked ("" before)."""

    name: str
    version: str

    def propose(self, tree: Any, strict: bool, domain: dict[str, Any]) -> list[Proposal]: ...


@dataclass(frozen=True)
class Consulted:
    """The proposals with their outcomes, the confirmed witness (the search's, or None) and the cuts."""

    proposals: tuple[Proposal, ...]
    witness: Any
    cuts: dict[str, frozenset[Fraction]]


def consult(
    solver: Solver,
    tree: Any,
    strict: bool,
    domain: dict[str, Any],
    confirm: Callable[[dict[str, Fraction]], Any],
    touches: Callable[[dict[str, Fraction]], bool],
) -> Consulted:
    """Ask the solver once; check each proposed witness with ``confirm`` (the search's own witness check,
    which returns its Witness or None), and keep a split point only where ``touches`` (the gap's ball there
    is not > 0: a point the enclosures cannot decide near), turning it into cuts per variable (integer
    variables are never cut off their integers). Anything else is discarded."""
    done: list[Proposal] = []
    cuts: dict[str, set[Fraction]] = {}
    for proposal in solver.propose(tree, strict, domain):
        if not all(name in domain and _contains(domain[name], v) for name, v in proposal.point.items()):
            done.append(_with(proposal, "outside"))
            continue
        if proposal.kind == "witness":
            witness = confirm(proposal.point)
            done.append(_with(proposal, "discarded" if witness is None else "confirmed"))
            if witness is not None:
                return Consulted(tuple(done), witness, {})
            continue
        if not touches(proposal.point):
            done.append(_with(proposal, "discarded"))
            continue
        for name, value in proposal.point.items():
            if not domain[name].integer:
                cuts.setdefault(name, set()).add(value)
        done.append(_with(proposal, "split"))
    return Consulted(tuple(done), None, {name: frozenset(values) for name, values in cuts.items()})


def _with(proposal: Proposal, outcome: str) -> Proposal:
    return Proposal(proposal.solver, proposal.kind, proposal.point, outcome)


def _contains(variable: Any, value: Fraction) -> bool:
    """value lies in the kernel variable's set."""
    if variable.integer and value.denominator != 1:
        return False
    above = value > variable.lower or (value == variable.lower and not variable.lower_open)
    below = value < variable.upper or (value == variable.upper and not variable.upper_open)
    return above and below


def installed() -> Solver | None:
    """The z3 proposer when z3 (the ``solver`` extra) is installed, else None; z3 itself is imported only
    when the search first asks (an easy statement never pays for the import)."""
    import importlib.util

    try:
        found = importlib.util.find_spec("z3")
    except (ImportError, ValueError):  # sys.modules holds None for it: made unavailable
        found = None
    return None if found is None else Z3()


ENCODED = frozenset(("add", "mul", "pow", "abs", "max", "min", "floor", "ceiling"))
"""The operations of a gap tree z3 is given, besides numbers, variables and Piecewise."""


class Outside(Exception):
    """The gap uses something the encoding does not express (a transcendental function, a variable
    exponent)."""


class Z3:
    """z3's nonlinear real arithmetic as a proposer (see the module docstring)."""

    name = "z3"

    def __init__(self) -> None:
        self.z3: Any = None
        self.version = ""
        """z3's version once it is imported (by the first :meth:`propose`)."""
        self._answer = ""

    def propose(self, tree: Any, strict: bool, domain: dict[str, Any]) -> list[Proposal]:
        """A witness, else (a non-strict claim) up to TOUCHING_POINTS points where the gap is 0."""
        if self.z3 is None:
            from theory.errors import require

            self.z3 = require("z3", purpose="the prover's proposals")
            self.version = self.z3.get_version_string()
        z3 = self.z3
        try:
            encoding = _Encoding(z3, z3.Context(), domain)  # its own context: no state from other queries
            gap = encoding.term(tree, [])
        except Outside:
            return []
        facts = [*encoding.facts, *encoding.conditions]
        label = f"{self.name} {self.version}"
        fails = gap <= 0 if strict else gap < 0
        found = self._model([*facts, fails], encoding)
        if found is not None:
            return [Proposal(label, "witness", found)]
        if strict or self._answer != "unsat":
            return []
        proposals: list[Proposal] = []
        excluded: list[Any] = []
        for _ in range(TOUCHING_POINTS):
            point = self._model([*facts, gap == 0, *excluded], encoding)
            if point is None or any(point == proposal.point for proposal in proposals):
                break  # none left, or an algebraic point again (only its rounding was excluded)
            proposals.append(Proposal(label, "split", point))
            others = (encoding.symbols[n] != encoding.value(v, domain[n].integer) for n, v in point.items())
            excluded.append(z3.Or(*others))
        return proposals

    def _model(self, assertions: list[Any], encoding: _Encoding) -> dict[str, Fraction] | None:
        """A point satisfying the assertions (rationals; algebraic numbers rounded), else None."""
        z3 = self.z3
        solver = z3.Solver(ctx=encoding.ctx)
        solver.set("rlimit", RESOURCE_LIMIT)
        solver.add(*assertions)
        try:
            answer = solver.check()
        except z3.Z3Exception:  # z3's own failure on a query is no proposal
            answer = z3.unknown
        self._answer = str(answer)
        if answer != z3.sat:
            return None
        model = solver.model()
        return {
            name: _rational(z3, model.eval(symbol, model_completion=True))
            for name, symbol in encoding.symbols.items()
        }


def _rational(z3: Any, value: Any) -> Fraction:
    """A model's number as a rational (an algebraic one within 10^-DIGITS)."""
    if z3.is_int_value(value):
        return Fraction(value.as_long())
    if z3.is_algebraic_value(value):
        value = value.approx(DIGITS)
    return Fraction(value.numerator_as_long(), value.denominator_as_long())


class _Encoding:
    """A gap tree as a z3 term: ``facts`` (the domain, the auxiliaries' definitions) and ``conditions``
    (where the gap is defined), each under the Piecewise conditions that select it."""

    def __init__(self, z3: Any, ctx: Any, domain: dict[str, Any]) -> None:
        self.z3, self.ctx = z3, ctx
        self.symbols = {n: z3.Int(n, ctx) if v.integer else z3.Real(n, ctx) for n, v in domain.items()}
        self.facts: list[Any] = []
        self.conditions: list[Any] = []
        for name, variable in domain.items():
            symbol = self.symbols[name]
            if not math.isinf(variable.lower):
                low = self.value(Fraction(variable.lower), variable.integer)
                self.facts.append(symbol > low if variable.lower_open else symbol >= low)
            if not math.isinf(variable.upper):
                high = self.value(Fraction(variable.upper), variable.integer)
                self.facts.append(symbol < high if variable.upper_open else symbol <= high)

    def value(self, value: Fraction, integer: bool = False) -> Any:
        """An exact rational (an integer for an integer variable) as a z3 number."""
        if integer:
            return self.z3.IntVal(value.numerator, self.ctx)
        return self.z3.Q(value.numerator, value.denominator, self.ctx)

    def _under(self, path: list[Any], formula: Any) -> Any:
        return formula if not path else self.z3.Implies(self.z3.And(*path), formula)

    def term(self, tree: Any, path: list[Any]) -> Any:
        z3 = self.z3
        op, args = tree[0], tree[1:]
        if op == "num":
            return self.value(Fraction(args[0]))
        if op == "var":
            symbol = self.symbols[args[0]]
            return z3.ToReal(symbol) if symbol.is_int() else symbol
        if op == "piecewise":
            return self.piecewise(args, path)
        if op not in ENCODED:
            raise Outside(op)
        terms = [self.term(arg, path) for arg in args]
        if op == "add":
            return z3.Sum(*terms)
        if op == "mul":
            return z3.Product(*terms)
        if op == "pow":
            if args[1][0] != "num":
                raise Outside("a power whose exponent is not a number")
            return self.power(terms[0], Fraction(args[1][1]), path)
        if op == "abs":
            return z3.If(terms[0] >= 0, terms[0], -terms[0])
        if op in ("max", "min"):
            result = terms[0]
            for other in terms[1:]:
                result = z3.If(result >= other if op == "max" else result <= other, result, other)
            return result
        if op == "floor":
            return z3.ToReal(z3.ToInt(terms[0]))
        return -z3.ToReal(z3.ToInt(-terms[0]))  # ceiling

    def power(self, base: Any, exponent: Fraction, path: list[Any]) -> Any:
        z3 = self.z3
        p, q = exponent.numerator, exponent.denominator
        if abs(p) > MAX_EXPONENT or q > MAX_EXPONENT:
            raise Outside("a power too large to write out")
        if q == 1:
            if p >= 0:
                return self.value(Fraction(1)) if p == 0 else z3.Product(*([base] * p))
            self.conditions.append(self._under(path, base != 0))
            return 1 / z3.Product(*([base] * -p))
        guard = base >= 0 if p > 0 else base > 0
        self.conditions.append(self._under(path, guard))
        root = z3.Real(f"root{len(self.facts)}", self.ctx)
        power = z3.Product(*([base] * abs(p)))
        equation = z3.Product(*([root] * q)) == power if p > 0 else z3.Product(*([root] * q)) * power == 1
        self.facts.append(self._under([*path, guard], z3.And(root >= 0, equation)))
        return root

    def condition(self, tree: Any, path: list[Any]) -> Any:
        z3 = self.z3
        op, args = tree[0], tree[1:]
        if op == "true":
            return z3.BoolVal(True, self.ctx)
        if op in ("le", "lt"):
            left, right = self.term(args[0], path), self.term(args[1], path)
            return left <= right if op == "le" else left < right
        if op in ("and", "or"):
            parts = [self.condition(arg, path) for arg in args]
            return z3.And(*parts) if op == "and" else z3.Or(*parts)
        raise Outside(op)

    def piecewise(self, pieces: list[Any], path: list[Any]) -> Any:
        """The first piece whose condition holds; undefined where none does."""
        z3 = self.z3
        branches: list[tuple[Any, Any]] = []
        failed: list[Any] = []
        for value, condition in pieces:
            holds = self.condition(condition, [*path, *failed])
            branches.append((holds, self.term(value, [*path, *failed, holds])))
            failed.append(z3.Not(holds))
        self.conditions.append(self._under(path, z3.Or(*(holds for holds, _ in branches))))
        result = branches[-1][1]
        for holds, value in reversed(branches[:-1]):
            result = z3.If(holds, value, result)
        return result
