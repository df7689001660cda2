"""A seeded generator of statements whose truth is fixed by their construction, for the soundness suite.

Every :class:`Case` is built from parts whose extremes are known analytically (a monotone function's value
at a finite end or its limit at an infinite one; a planted minimum of a bump k (x - p)^2 + m; an exact
identity among constants such as atan(2) + atan(1/2) = pi/2; a planted point where the text is undefined),
so its truth is decided without the prover:

- true: the bound is the infimum minus a margin, or the infimum itself where the claim allows it (>= , or
  > when the infimum is not attained);
- false: the bound is the infimum plus a margin (10^-3 to 10^-15 for near misses), or the infimum itself
  under > where it is attained; the generator plants a witness point from its construction (the attained
  end, the planted minimum, or a point 2^-j from an open end or 2^j out towards an infinite one) and keeps
  the case only when mpmath at :data:`~soundness_terms.DIGITS` digits confirms the claim fails there;
- undefined: the text is undefined at a planted rational point of the domain (a quotient by 0, a log of 0,
  a square root of a negative number...), which mpmath confirms.

:func:`generate` gives the first ``count`` cases drawn from ``random.Random(seed)`` over the :data:`FAMILIES`
(drawn once per process and seed).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction

import mpmath

from tests.helpers.soundness_terms import (
    DIGITS,
    Term,
    UndefinedHere,
    absolute,
    add,
    atan,
    constant,
    div,
    erf,
    erfc,
    exp,
    log,
    maximum,
    minimum,
    mp,
    mul,
    number,
    phi_cdf,
    piecewise,
    power,
    sqrt,
    sub,
    tanh,
    var,
)

TRUE, FALSE, UNDEFINED = "true", "false", "undefined"
MARGINS = [Fraction(1, 10**k) for k in range(3, 16)]
"""Near-miss margins 10^-3 .. 10^-15."""
COARSE = [Fraction(1), Fraction(1, 2), Fraction(1, 10)]


@dataclass(frozen=True)
class Variable:
    """One variable's set: ends None for -oo / oo; integer ranges are closed."""

    name: str
    lo: Fraction | None
    hi: Fraction | None
    lo_open: bool = False
    hi_open: bool = False
    integer: bool = False

    def text(self) -> str:
        if self.integer:
            if self.lo is None and self.hi is None:
                return f"{self.name}: integer"
            low = "-oo" if self.lo is None else str(self.lo)
            high = "oo" if self.hi is None else str(self.hi)
            left, right = "(" if self.lo is None else "[", ")" if self.hi is None else "]"
            return f"{self.name}: integer in {left}{low}, {high}{right}"
        if self.lo is None and self.hi is None:
            return f"{self.name}: real"
        low = "-oo" if self.lo is None else str(self.lo)
        high = "oo" if self.hi is None else str(self.hi)
        left = "(" if self.lo is None or self.lo_open else "["
        right = ")" if self.hi is None or self.hi_open else "]"
        return f"{self.name}: {left}{low}, {high}{right}"

    def contains(self, value: Fraction) -> bool:
        if self.integer and value.denominator != 1:
            return False
        if self.lo is not None and (value < self.lo or (self.lo_open and value == self.lo)):
            return False
        return not (self.hi is not None and (value > self.hi or (self.hi_open and value == self.hi)))

    def samples(self, rng: random.Random) -> list[Fraction]:
        """Points of the set for the generator's self-check: its ends, points next to them, inside points and
        points far out towards an infinite end."""
        lo = self.lo if self.lo is not None else (self.hi if self.hi is not None else Fraction(0)) - 2**40
        hi = self.hi if self.hi is not None else lo + 2**41
        points = [lo, hi] + [lo + (hi - lo) * Fraction(rng.randint(1, 999), 1000) for _ in range(6)]
        points += [end + sign * Fraction(1, 2**k) for k in (1, 12, 45) for end, sign in ((lo, 1), (hi, -1))]
        points += [Fraction(rng.randint(-8, 8), rng.choice([1, 3, 4])) for _ in range(4)]
        if self.integer:
            points = [Fraction(p.__floor__()) for p in points]
        return [p for p in points if self.contains(p)]


@dataclass(frozen=True)
class Case:
    """``left relation right`` over the variables, with its truth and (false, undefined) a witness."""

    family: str
    left: Term
    relation: str
    right: Term
    variables: tuple[Variable, ...]
    truth: str
    witness: dict[str, Fraction] | None = None
    exact_zero: bool = False
    """At the witness the two sides are equal by construction (an identity among constants, a planted
    minimum equal to the bound): a strict claim fails there, which mpmath confirms to its precision."""
    note: str = field(default="", compare=False)

    @property
    def statement(self) -> str:
        return f"{self.left.text} {self.relation} {self.right.text}"

    @property
    def domain(self) -> str:
        return ", ".join(v.text() for v in self.variables)

    def gap(self, point: dict[str, Fraction]) -> mpmath.mpf:
        """left - right for >= and >, right - left for <= and < (UndefinedHere where undefined)."""
        with mpmath.workdps(DIGITS):
            left, right = self.left.at(point), self.right.at(point)
            return left - right if self.relation.startswith(">") else right - left

    def fails_at(self, point: dict[str, Fraction]) -> bool:
        """mpmath confirms the claim is false at ``point`` (a point of the domain where both sides are
        defined): the gap < 0, or = 0 under a strict relation (to 10^-(DIGITS - 10) where the case says
        the sides are equal by an identity)."""
        if not self.in_domain(point):
            return False
        try:
            gap = self.gap(point)
        except UndefinedHere:
            return False
        if gap < 0:
            return True
        if self.relation in (">", "<"):
            return gap == 0 or (self.exact_zero and abs(gap) < mpmath.mpf(10) ** (10 - DIGITS))
        return False

    def in_domain(self, point: dict[str, Fraction]) -> bool:
        return set(point) == {v.name for v in self.variables} and all(
            v.contains(Fraction(point[v.name])) for v in self.variables
        )


# --- monotone pieces --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Monotone:
    """An increasing function f with its limits at -oo and oo (None: infinite)."""

    name: str
    build: Callable[[Term], Term]
    low: Callable[[], Term] | None
    high: Callable[[], Term] | None


def _pi_over(k: int, sign: int) -> Callable[[], Term]:
    return lambda: constant(f"{'-' if sign < 0 else ''}pi/{k}", lambda: sign * mpmath.pi / k)


def _n(value: int) -> Callable[[], Term]:
    return lambda: number(value)


INCREASING = [
    Monotone("identity", lambda u: u, None, None),
    Monotone("cubic", lambda u: add(power(u, 3), u), None, None),
    Monotone("exp", exp, _n(0), None),
    Monotone("atan", atan, _pi_over(2, -1), _pi_over(2, 1)),
    Monotone("tanh", tanh, _n(-1), _n(1)),
    Monotone("erf", erf, _n(-1), _n(1)),
    Monotone("erfc", lambda u: erfc(mul(number(-1), u)), _n(0), _n(2)),
    Monotone("Phi", phi_cdf, _n(0), _n(1)),
    Monotone("logistic", lambda u: div(exp(u), add(number(1), exp(u))), _n(0), _n(1)),
    Monotone("softplus", lambda u: log(add(number(1), exp(u))), _n(0), None),
    Monotone("x+atan", lambda u: add(u, atan(u)), None, None),
    Monotone("-exp(-u)", lambda u: mul(number(-1), exp(mul(number(-1), u))), None, _n(0)),
    Monotone("algebraic", lambda u: div(u, sqrt(add(number(1), power(u, 2)))), _n(-1), _n(1)),
    Monotone("x+atan/2", lambda u: add(u, mul(number(Fraction(1, 2)), atan(u))), None, None),
]

SCALES = [Fraction(1), Fraction(2), Fraction(1, 2), Fraction(1, 8), Fraction(3)]
CENTRES = [Fraction(0), Fraction(1), Fraction(-1), Fraction(1, 3), Fraction(-5, 2), Fraction(7, 4)]


@dataclass(frozen=True)
class Piece:
    """g(v) = k f(s a (v - e)) on one variable's set: monotone (increasing iff s > 0)."""

    variable: Variable
    f: Monotone
    s: int
    a: Fraction
    e: Fraction
    k: Fraction

    def build(self, v: Term) -> Term:
        inner = mul(number(self.s * self.a), sub(v, number(self.e)))
        return mul(number(self.k), self.f.build(inner))

    def limit(self, towards_high: bool) -> Term | None:
        """g's limit as v -> oo (towards_high) or -oo; None when infinite."""
        f_high = towards_high == (self.s > 0)
        end = self.f.high if f_high else self.f.low
        return None if end is None else mul(number(self.k), end())

    def infimum(self, sigma: int) -> tuple[Term | None, bool, Callable[[int], Fraction]]:
        """inf of sigma g on the set: (its value, None for -oo; attained; the j-th point of a sequence of
        the set approaching it)."""
        v = self.variable
        increasing = (self.s * sigma) > 0
        end, end_open = (v.lo, v.lo_open) if increasing else (v.hi, v.hi_open)
        direction = 1 if increasing else -1  # from the end into the set
        if end is not None:
            value = mul(number(sigma), self.build(number(end)))
            if not end_open:
                return value, True, lambda _j: end
            return value, False, lambda j: end + direction * Fraction(1, 2 ** (j + 1))
        limit = self.limit(not increasing)
        value = None if limit is None else mul(number(sigma), limit)
        start = (v.hi if increasing else v.lo) or 0  # the other end (None on the line) or 0
        return value, False, lambda j: Fraction(start) - direction * 2**j


def _half_line(rng: random.Random, name: str, integer: bool) -> Variable:
    end = Fraction(rng.randint(-3, 3)) if integer else rng.choice(CENTRES)
    upward = rng.random() < 0.5
    opened = not integer and rng.random() < 0.5
    if upward:
        return Variable(name, end, None, lo_open=opened, integer=integer)
    return Variable(name, None, end, hi_open=opened, integer=integer)


def _interval(rng: random.Random, name: str, integer: bool) -> Variable:
    lo = Fraction(rng.randint(-4, 2)) if integer else rng.choice(CENTRES)
    hi = lo + (rng.randint(1, 5) if integer else rng.choice([Fraction(1, 2), Fraction(1), Fraction(3)]))
    if integer:
        return Variable(name, lo, hi, integer=True)
    return Variable(name, lo, hi, rng.random() < 0.3, rng.random() < 0.3)


def _piece(rng: random.Random, variable: Variable) -> Piece:
    f = rng.choice(INCREASING)
    e = variable.lo if variable.lo is not None else variable.hi
    if e is None:
        e = rng.choice(CENTRES)
    if rng.random() < 0.3:
        e = rng.choice(CENTRES)
    if f.name == "cubic" or f.name == "exp":
        a = rng.choice([Fraction(1), Fraction(1, 2), Fraction(1, 8)])
    else:
        a = rng.choice(SCALES)
    k = rng.choice([Fraction(1), Fraction(2), Fraction(1, 3)])
    return Piece(variable, f, rng.choice([1, -1]), a, e, k)


def _bound_case(rng: random.Random, family: str, pieces: list[Piece], margins: list[Fraction]) -> Case | None:
    """sum g_i >= c (or <=, sigma = -1) with c = the infimum of sigma * sum g_i shifted by -margin (true),
    0 or +margin; truth from the infimum and whether it is attained; witness by walking every variable's
    sequence towards its infimum until mpmath sees the claim fail."""
    sigma = rng.choice([1, -1])
    strict = rng.random() < 0.35
    relation = (">" if strict else ">=") if sigma > 0 else ("<" if strict else "<=")
    infima = [piece.infimum(sigma) for piece in pieces]
    terms = [p.build(var(p.variable.name)) for p in pieces]
    sides = add(*terms) if len(terms) > 1 else terms[0]
    unbounded = any(value is None for value, _, _ in infima)
    attained = all(hit for _, hit, _ in infima)
    shift = rng.choice([-1, 0, 1]) if not unbounded else 0
    margin = rng.choice(margins)
    if unbounded:
        bound = number(Fraction(rng.randint(-50, 50), rng.choice([1, 2, 7])))
        truth = FALSE
    else:
        infimum = add(*[value for value, _, _ in infima])  # type: ignore[misc]
        shifted = infimum if shift == 0 else add(infimum, number(shift * margin))
        bound = mul(number(sigma), shifted)  # sigma * c = inf + shift * margin
        truth = TRUE if shift < 0 or (shift == 0 and (not strict or not attained)) else FALSE
    variables = tuple(p.variable for p in pieces)
    touching = shift == 0 and not unbounded  # the bound is the infimum itself
    case = Case(family, sides, relation, bound, variables, truth, exact_zero=touching)
    if truth == TRUE:
        return case
    for j in range(0, 400):
        point = {p.variable.name: seq(j) for p, (_, _, seq) in zip(pieces, infima, strict=True)}
        if case.fails_at(point):
            return Case(family, sides, relation, bound, variables, FALSE, point, exact_zero=touching)
    return None


def _line_case(rng: random.Random) -> Case | None:
    line = Variable("x", None, None)
    return _bound_case(rng, "monotone, whole line", [_piece(rng, line)], MARGINS + COARSE)


def _half_line_case(rng: random.Random) -> Case | None:
    variable = _half_line(rng, "x", False)
    return _bound_case(rng, "monotone, half-lines", [_piece(rng, variable)], MARGINS + COARSE)


def _integer_case(rng: random.Random) -> Case | None:
    kind = rng.random()
    if kind < 0.3:
        variable = Variable("N", None, None, integer=True)
    elif kind < 0.7:
        variable = _half_line(rng, "N", True)
    else:
        variable = _interval(rng, "N", True)
    if rng.random() < 0.3:  # a planted minimum between integers: (N - p)^2 + m, least at an integer near p
        p = rng.randint(-3, 3) + rng.choice([Fraction(1, 2), Fraction(1, 3), Fraction(0)])
        m = Fraction(rng.randint(-5, 5))
        candidates = [Fraction(p.__floor__()), Fraction(p.__floor__() + 1), variable.lo, variable.hi]
        inside = [n for n in candidates if n is not None and variable.contains(n)]
        best = min(inside, key=lambda n: (n - p) ** 2)
        shape = lambda n: add(power(sub(n, number(p)), 2), number(m))  # noqa: E731
        return _planted(rng, "integers", shape, variable, best, m + (best - p) ** 2)
    return _bound_case(rng, "integers", [_piece(rng, variable)], MARGINS + COARSE)


def _several_case(rng: random.Random) -> Case | None:
    pieces = []
    for name in ("x", "y", "z")[: rng.choice([2, 2, 3])]:
        integer = rng.random() < 0.15
        kind = rng.random()
        if kind < 0.3:
            variable = Variable(name, None, None, integer=integer)
        elif kind < 0.65:
            variable = _half_line(rng, name, integer)
        else:
            variable = _interval(rng, name, integer)
        pieces.append(_piece(rng, variable))
    return _bound_case(rng, "2-3 variables", pieces, MARGINS + COARSE)


# --- planted minima (near misses) ----------------------------------------------------------------------

BUMPS: list[tuple[str, Callable[[Term], Term]]] = [
    ("u^2", lambda u: power(u, 2)),
    ("u^4", lambda u: power(u, 4)),
    ("|u|", absolute),
    ("exp(u) - 1 - u", lambda u: sub(exp(u), add(number(1), u))),
    ("exp(u) + exp(-u) - 2", lambda u: sub(add(exp(u), exp(mul(number(-1), u))), number(2))),
    ("u^2/(1 + u^2)", lambda u: div(power(u, 2), add(number(1), power(u, 2)))),
    ("atan(u)^2", lambda u: power(atan(u), 2)),
    ("u - log(1 + u)", None),  # type: ignore[list-item]  # needs u > -1: built on a half-line below
    ("Max(u, -2u)", lambda u: maximum(u, mul(number(-2), u))),
    ("log(1 + u^2)", lambda u: log(add(number(1), power(u, 2)))),
    (
        "(u - 1) exp(u - 1) + exp(-1)",
        lambda u: add(mul(sub(u, number(1)), exp(sub(u, number(1)))), exp(number(-1))),
    ),
]


def _planted(
    rng: random.Random,
    family: str,
    shape: Callable[[Term], Term],
    variable: Variable,
    at: Fraction,
    m: Fraction,
) -> Case:
    """shape(v) >= m + shift * margin (or the negation <=) where min shape = m is attained at ``at``."""
    sigma = rng.choice([1, -1])
    strict = rng.random() < 0.35
    relation = (">" if strict else ">=") if sigma > 0 else ("<" if strict else "<=")
    shift = rng.choice([-1, 0, 1, 1])
    margin = rng.choice(MARGINS)
    value = shape(var(variable.name))
    left = value if sigma > 0 else mul(number(-1), value)
    bound = number(sigma * (m + shift * margin))
    truth = TRUE if shift < 0 or (shift == 0 and not strict) else FALSE
    witness = None if truth == TRUE else {variable.name: at}
    return Case(family, left, relation, bound, (variable,), truth, witness, exact_zero=shift == 0)


def _near_miss_case(rng: random.Random) -> Case | None:
    p = rng.choice(CENTRES)
    k = rng.choice([Fraction(1), Fraction(3), Fraction(1, 4)])
    m = Fraction(rng.randint(-9, 9), rng.choice([1, 3, 8]))
    _name, bump = rng.choice(BUMPS)
    logarithmic = bump is None
    if logarithmic:  # u - log(1 + u), u > -1: on the half-line x > p - 1
        variable = Variable("x", p - 1, None, lo_open=True)
        bump = lambda u: sub(u, log(add(number(1), u)))  # noqa: E731
    else:
        kind = rng.random()
        if kind < 0.4:
            variable = Variable("x", None, None)
        elif kind < 0.7:
            variable = Variable("x", p - rng.choice([0, 1, 2]), None, lo_open=False)
        else:
            variable = Variable("x", p - Fraction(1, 2), p + rng.choice([0, 1, 5]))
    if rng.random() < 0.25:  # two variables: bump(x - p) + bump(y - q)
        q = rng.choice(CENTRES)
        # the log bump needs y - q > -1 as it needs x - p > -1
        second = Variable("y", q - 1, None, lo_open=True) if logarithmic else Variable("y", None, None)
        other = mul(number(k), bump(sub(var("y"), number(q))))
        shape = lambda v: add(mul(number(k), bump(sub(v, number(p)))), other, number(m))  # noqa: E731
        case = _planted(rng, "near misses", shape, variable, p, m)
        witness = None if case.witness is None else {**case.witness, "y": q}
        variables = (variable, second)
        return Case(case.family, case.left, case.relation, case.right, variables, case.truth, witness)
    shape = lambda v: add(mul(number(k), bump(sub(v, number(p)))), number(m))  # noqa: E731
    return _planted(rng, "near misses", shape, variable, p, m)


# --- exact identities among constants -----------------------------------------------------------------


def _c(text: str, value: Callable[[], mpmath.mpf]) -> Term:
    return constant(text, value)


IDENTITIES: list[tuple[Term, Term]] = [
    (add(atan(number(2)), atan(number(Fraction(1, 2)))), _c("pi/2", lambda: mpmath.pi / 2)),
    (add(atan(number(Fraction(1, 2))), atan(number(Fraction(1, 3)))), _c("pi/4", lambda: mpmath.pi / 4)),
    (
        sub(mul(number(4), atan(number(Fraction(1, 5)))), atan(number(Fraction(1, 239)))),
        _c("pi/4", lambda: mpmath.pi / 4),
    ),
    (add(atan(number(1)), atan(number(2)), atan(number(3))), _c("pi", lambda: mpmath.pi)),
    (log(number(6)), add(log(number(2)), log(number(3)))),
    (log(number(8)), mul(number(3), log(number(2)))),
    (mul(sqrt(number(2)), sqrt(number(3))), sqrt(number(6))),
    (sqrt(number(8)), mul(number(2), sqrt(number(2)))),
    (mul(exp(number(1)), exp(number(2))), exp(number(3))),
    (exp(log(number(3))), number(3)),
    (mul(power(number(2), Fraction(1, 2)), power(number(2), Fraction(1, 2))), number(2)),
    (add(erf(number(0)), tanh(number(0)), atan(number(0))), number(0)),
    (phi_cdf(number(0)), number(Fraction(1, 2))),
    (sub(exp(number(1)), _c("E", lambda: mpmath.e)), number(0)),
    (tanh(log(number(2))), number(Fraction(3, 5))),
    (add(erf(number(Fraction(1, 3))), erfc(number(Fraction(1, 3)))), number(1)),
]


def _identity_case(rng: random.Random) -> Case | None:
    a, b = rng.choice(IDENTITIES)
    if rng.random() < 0.5:
        a, b = b, a
    p = rng.choice(CENTRES)
    shape = rng.choice(["square", "abs", "end"])
    if shape == "end":
        variable = Variable("x", p, p + rng.choice([Fraction(1), Fraction(1, 2)]))
        bump = sub(var("x"), number(p))
    else:
        variable = rng.choice([Variable("x", None, None), Variable("x", p - 1, p + 1)])
        u = sub(var("x"), number(p))
        bump = mul(number(rng.choice([1, 2])), power(u, 2) if shape == "square" else absolute(u))
    sigma = rng.choice([1, -1])
    strict = rng.random() < 0.4
    relation = (">" if strict else ">=") if sigma > 0 else ("<" if strict else "<=")
    shift = rng.choice([-1, 0, 0, 1])
    margin = rng.choice(MARGINS)
    left = add(a, bump) if sigma > 0 else sub(a, bump)
    right = b if shift == 0 else add(b, number(sigma * shift * margin))
    truth = TRUE if shift < 0 or (shift == 0 and not strict) else FALSE
    witness = None if truth == TRUE else {"x": p}
    return Case("exact identities", left, relation, right, (variable,), truth, witness, exact_zero=shift == 0)


# --- Piecewise, Min, Max ---------------------------------------------------------------------------------


def _pieces_case(rng: random.Random) -> Case | None:
    x = var("x")
    p = rng.choice(CENTRES)
    kind = rng.randrange(5)
    line = Variable("x", None, None)
    if kind == 0:  # a V: Max(k1 (x - p) + m, k2 (p - x) + m), least m at p
        k1, k2 = rng.choice(SCALES), rng.choice(SCALES)
        m = Fraction(rng.randint(-6, 6), rng.choice([1, 2, 5]))
        rising = lambda v: add(mul(number(k1), sub(v, number(p))), number(m))  # noqa: E731
        falling = lambda v: add(mul(number(k2), sub(number(p), v)), number(m))  # noqa: E731
        variable = rng.choice([line, Variable("x", p - 1, p + 2)])
        return _planted(rng, "Piecewise, Min, Max", lambda v: maximum(rising(v), falling(v)), variable, p, m)
    if kind == 1:  # Min(g(x), M) with g increasing: inf is g's limit at -oo, never attained
        drawn = _piece(rng, line)
        bounded_below = [f for f in INCREASING if f.low is not None]
        piece = Piece(line, rng.choice(bounded_below), 1, drawn.a, drawn.e, drawn.k)
        ceiling_value = number(rng.choice([2, 3, 5]))
        wrapped = minimum(piece.build(x), ceiling_value)
        base = _bound_case(rng, "Piecewise, Min, Max", [piece], MARGINS)
        if base is None or base.relation in ("<", "<="):
            return None
        low = piece.limit(False)
        if low is None or low.at({}) >= ceiling_value.at({}) - 1:
            return None
        return Case(base.family, wrapped, base.relation, base.right, base.variables, base.truth, base.witness)
    if kind == 2:  # a jump: Piecewise((k1 (p - x) + m1, x < p), (k2 (x - p)^2 + m2, True))
        k1, k2 = rng.choice(SCALES), rng.choice(SCALES)
        m1, m2 = Fraction(rng.randint(-3, 3)), Fraction(rng.randint(-3, 3))
        op = "<"
        value = piecewise(
            (add(mul(number(k1), sub(number(p), x)), number(m1)), (x, op, number(p))),
            (add(mul(number(k2), power(sub(x, number(p)), 2)), number(m2)), None),
        )
        least, attained = min(m1, m2), m2 <= m1
        strict = rng.random() < 0.4
        shift = rng.choice([-1, 0, 1])
        margin = rng.choice(MARGINS + COARSE)
        relation = ">" if strict else ">="
        bound = number(least + shift * margin)
        truth = TRUE if shift < 0 or (shift == 0 and not (strict and attained)) else FALSE
        case = Case("Piecewise, Min, Max", value, relation, bound, (line,), truth, exact_zero=shift == 0)
        if truth == TRUE:
            return case
        for j in range(200):
            point = {"x": p if attained else p - Fraction(1, 2**j)}
            if case.fails_at(point):
                return Case(case.family, value, relation, bound, (line,), FALSE, point, exact_zero=shift == 0)
        return None
    if kind == 3:  # a constant exponent chosen by an exact identity: x^Piecewise((1/2, A < B), (3, True))
        a, b = rng.choice(IDENTITIES)
        op = rng.choice(["<", "<="])
        exponent_small = op == "<="  # A <= B holds (A = B): exponent 1/2; A < B fails: exponent 3
        variable = Variable("x", Fraction(3, 4), Fraction(1))
        half = piecewise((number(Fraction(1, 2)), (a, op, b)), (number(3), None))
        exponent = mpmath.mpf(1) / 2 if exponent_small else 3  # by the identity, not by rounding A and B
        value = Term(f"x^{half.text}", lambda v: mpmath.power(v["x"], exponent))
        least = mpmath.sqrt(mpmath.mpf(3) / 4) if exponent_small else mpmath.mpf(27) / 64
        shift = rng.choice([-1, 1])
        margin = rng.choice(MARGINS)
        with mpmath.workdps(DIGITS):
            target = least + shift * mp(margin) / 2
            bound = Fraction(int(mpmath.floor(target * 10**20)), 10**20)
        truth = TRUE if shift < 0 else FALSE
        case = Case("Piecewise, Min, Max", value, ">=", number(bound), (variable,), truth)
        witness = {"x": Fraction(3, 4)}
        if truth == TRUE:
            return case
        planted = Case(case.family, value, ">=", case.right, (variable,), FALSE, witness)
        return planted if planted.fails_at(witness) else None
    # a jump at p to the least value 0, attained at p: Piecewise((F, p < x), (Abs(x - p), True)) with F > 0
    # on x > p, either 1 + exp(x - p) or 1/(x - p) (undefined at p, where its branch is never taken)
    u = sub(x, number(p))
    right_branch = add(number(1), exp(u)) if rng.random() < 0.5 else div(number(1), u)
    value = piecewise((right_branch, (number(p), "<", x)), (absolute(u), None))
    shift = rng.choice([-1, 0, 1])
    margin = rng.choice(MARGINS)
    relation = rng.choice([">", ">="])
    bound = number(shift * margin)
    truth = TRUE if shift < 0 or (shift == 0 and relation == ">=") else FALSE
    witness = None if truth == TRUE else {"x": p}
    return Case("Piecewise, Min, Max", value, relation, bound, (line,), truth, witness, exact_zero=shift == 0)


# --- statements undefined at a planted point ----------------------------------------------------------


def _undefined_case(rng: random.Random) -> Case | None:
    q = rng.choice(CENTRES)
    x = var("x")
    u = sub(x, number(q))
    around = rng.choice([Variable("x", None, None), Variable("x", q - 1, q + 1), Variable("x", q, q + 2)])
    from_q = Variable("x", q, q + rng.choice([1, 3]))
    below = Variable("x", None, q + rng.choice([0, 1]))
    shapes: list[tuple[Term, Term, Variable, Fraction]] = [
        (div(number(1), u), number(rng.randint(-3, 3)), around, q),
        (div(u, u), number(1), around, q),
        (log(u), number(-100), from_q, q),
        (log(absolute(u)), number(-100), around, q),
        (sqrt(u), number(0), Variable("x", q - 1, q + 1), q - 1),
        (power(sqrt(u), 2), u, Variable("x", q - 1, q + 1), q - 1),
        (exp(log(u)), u, from_q, q),
        (mul(power(u, Fraction(1, 2)), power(u, Fraction(-1, 2))), number(1), from_q, q),
        (sub(log(u), log(u)), number(0), from_q, q),
        (power(u, -2), number(0), around, q),
        (mul(u, log(u)), number(-1), from_q, q),
        (power(u, Fraction(1, 3)), number(-5), Variable("x", q - 1, q + 1), q - 1),
        (piecewise((number(1), (x, "<", number(q)))), number(0), around, q),
        (div(number(1), sub(power(x, 2), number(q * q))), number(-(10**6)), Variable("x", q - 1, q + 1), q),
        # an undefined part hidden under a bounded outer function, on sets reaching -oo
        (maximum(log(u), number(0)), number(0), rng.choice([Variable("x", None, None), below]), q),
        (atan(log(u)), number(-2), rng.choice([Variable("x", None, None), below]), q),
        (exp(mul(number(-1), power(log(u), 2))), number(0), Variable("x", None, q), q),
    ]
    left, right, variable, at = rng.choice(shapes)
    if rng.random() < 0.2:  # two variables: a quotient by x - y on a square around the diagonal
        y = Variable("y", q - 1, q + 1)
        left, right = div(number(1), sub(x, var("y"))), number(-1000)
        relation, variables, witness = rng.choice([">=", "<="]), (variable, y), {"x": q, "y": q}
    elif rng.random() < 0.1:  # an integer variable
        q = Fraction(rng.randint(-3, 3))
        left, right = div(number(1), sub(x, number(q))), number(-2)
        relation, variables, witness = ">=", (Variable("x", None, None, integer=True),), {"x": q}
    else:
        relation, variables, witness = rng.choice([">=", "<=", ">", "<"]), (variable,), {"x": at}
    case = Case("undefined points", left, relation, right, variables, UNDEFINED, witness)
    if not case.in_domain(case.witness or {}):
        return None
    try:
        case.gap(case.witness or {})
    except UndefinedHere:
        return case
    return None


FAMILIES: dict[str, Callable[[random.Random], Case | None]] = {
    "monotone, whole line": _line_case,
    "monotone, half-lines": _half_line_case,
    "integers": _integer_case,
    "2-3 variables": _several_case,
    "exact identities": _identity_case,
    "Piecewise, Min, Max": _pieces_case,
    "near misses": _near_miss_case,
    "undefined points": _undefined_case,
}


_DRAWN: dict[int, tuple[list[Case], Iterator[Case]]] = {}
"""Per seed: the cases drawn so far and the stream they came from. The stream is one sequence per seed
(its first n cases are the n cases asked for), so each case is built, and its witness confirmed by mpmath,
once per process however many tests ask for it (the slow tier's truth check and its audit share 5,000)."""


def generate(count: int, seed: int) -> Iterator[Case]:
    """The first ``count`` cases of :func:`_stream` for ``seed``."""
    drawn, stream = _DRAWN.setdefault(seed, ([], _stream(seed)))
    while len(drawn) < count:
        drawn.append(next(stream))
    return iter(drawn[:count])


def _stream(seed: int) -> Iterator[Case]:
    """Cases without end, the families in turn, from ``random.Random(seed)`` (a draw the generator cannot
    give a confirmed witness is drawn again)."""
    rng = random.Random(seed)
    names = list(FAMILIES)
    made = 0
    while True:
        builder = FAMILIES[names[made % len(names)]]
        for _ in range(50):
            case = builder(rng)
            if case is not None:
                break
        else:
            raise AssertionError(f"the generator could not build a {names[made % len(names)]} case")
        made += 1
        yield case
