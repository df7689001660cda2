"""The crossover of two expressions of one variable: the smallest L0 from which lower <= upper for every
L >= L0, proved by the prover over [L0, oo) and refuted just below L0.

The search is rigorous at every point it uses: the sign of upper - lower at an exact rational L is read off
its ball enclosure (the kernel's arithmetic, :func:`theory.prover.search.point_value`). It samples L0
candidates start, start + 1, ..., start + 63 and start 2^k (k <= 64), takes the last sample where the
difference is negative and, when no later sample is >= 0 (and no witness of the search lies there), squares
that point (at most ``SQUARINGS`` times: up to about 2^512) until the difference is >= 0; it then bisects
between the last negative point and the next one where the difference is >= 0 (geometrically while the
bracket spans a factor > 2, then arithmetically: integers down to consecutive integers, reals ``BISECTIONS``
halvings). The claim "lower <= upper for every L >= L0" is then proved by one kernel certificate over the
real half-line [L0, oo) built from the kernel's squares, rewrite and monotone-with-slope steps
(:mod:`theory.derive.tail`), else decided by the prover (a certificate the kernel re-checked); a refutation
beyond the samples moves the search past its witness (at most ``ROUNDS`` times). When no sample is negative
the candidate is "no crossover": lower <= upper on the whole domain, proved the same way.
The :attr:`Crossover.outcome` says which of four answers was reached: no crossover (proved), a crossover at
L0 (proved or derived), refuted (a point where lower > upper beyond every candidate tried, so no crossover
was found) or undecided; only the first two state a fact for every L.
Provenance: derived (decided by the code).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy as sp

from theory.derive.half_line import tail_certificate
from theory.errors import InvalidArgument
from theory.prover.domain import Domain, VariableDomain
from theory.prover.result import PROVED, REFUTED, UNDECIDED, InequalityResult, Witness
from theory.prover.statement import Inequality

DERIVED = "derived"
ROUNDS = 4
LINEAR_SAMPLES, DOUBLINGS, BISECTIONS, SQUARINGS = 64, 64, 40, 3
NO_CROSSOVER, CROSSOVER, NOT_FOUND, UNDECIDED_OUTCOME = "no crossover", "crossover", "refuted", "undecided"


@dataclass(frozen=True)
class Crossover:
    """The candidate L0 (None: the difference was >= 0 at every sample, so the candidate is the whole
    domain), the point just below it where the difference is negative (the refutation), the prover's
    result over [L0, oo), and ``beyond``: a point where the difference is negative with no later point
    found where it is >= 0 (then no crossover was found)."""

    lower: str
    upper: str
    variable: str
    integer: bool
    start: Fraction
    threshold: Fraction | None
    below: Witness | None
    proof: InequalityResult
    seconds: float
    tail: Tail | None = None
    kernel_tail: dict[str, Any] | None = None
    """One kernel certificate of lower <= upper over the real half-line [L0, oo)
    (:func:`theory.derive.half_line.tail_certificate`), when it was found."""
    beyond: Witness | None = None

    @property
    def decided(self) -> bool:
        """The claim over [L0, oo) (or the whole domain) was proved or derived."""
        return self.status in (PROVED, DERIVED)

    @property
    def outcome(self) -> str:
        """ "no crossover" (lower <= upper on the whole domain, decided), "crossover" (from L0, decided),
        "refuted" (a point beyond every candidate where lower > upper: no crossover found) or "undecided"."""
        if self.decided:
            return NO_CROSSOVER if self.threshold is None else CROSSOVER
        if self.refutation is not None:
            return NOT_FOUND
        return UNDECIDED_OUTCOME

    @property
    def refutation(self) -> Witness | None:
        """The point where lower > upper that defeats the last candidate, if any."""
        if self.decided:
            return None
        if self.beyond is not None:
            return self.beyond
        return self.proof.witness if self.proof.status == REFUTED else None

    @property
    def status(self) -> str:
        """proved (one certificate over [L0, oo)); derived (a certificate over [L0, X], and the tail
        [X, oo) by the log form, see :class:`Tail`); else the prover's verdict."""
        if self.proof.status == UNDECIDED and self.tail is not None and self.tail.holds:
            return DERIVED
        return self.proof.status

    def to_json(self) -> dict[str, Any]:
        """{"lower", "upper", "in", "integer", "from", "outcome" (:attr:`outcome`), "crossover" (L0 exact
        when the outcome is "crossover", else null), "crossover_approx", "candidate" (the L0 tried, when
        not decided), "status", "boxes", "seconds", "refuted_below_at"?, "witness"? (a point where
        lower > upper when refuted), "certificate"?, "tail"?}."""
        proved = self.outcome == CROSSOVER and self.threshold is not None
        record: dict[str, Any] = {
            "lower": self.lower,
            "upper": self.upper,
            "in": self.variable,
            "integer": self.integer,
            "from": str(self.start),
            "outcome": self.outcome,
            "crossover": str(self.threshold) if proved else None,
            "crossover_approx": float(self.threshold) if proved and self.threshold is not None else None,
            "candidate": None if self.decided or self.threshold is None else str(self.threshold),
            "status": self.status,
            "boxes": self.proof.boxes,
            "seconds": round(self.seconds, 3),
        }
        if self.below is not None:
            record["refuted_below_at"] = self.below.to_json()
        if self.refutation is not None:
            record["witness"] = self.refutation.to_json()
        if self.proof.certificate is not None:
            record["certificate"] = self.proof.certificate.to_json()
        if self.kernel_tail is not None:
            record["certificate"] = self.kernel_tail
        if self.tail is not None:
            record["tail"] = self.tail.to_json()
        return record


@dataclass(frozen=True)
class Tail:
    """lower <= upper on [L0, X] (``head``, a kernel-checked certificate) and on [exp(u1), oo) with
    exp(u1) <= X by the log form: with L = exp(u), ln upper - ln lower = gap(u) (sympy's identity, both
    sides positive by sympy's assumptions) and gap(u) >= 0 on [u1, oo) (``log_form``, kernel-checked)."""

    head: InequalityResult
    log_form: InequalityResult
    identity: bool
    u1: Fraction

    @property
    def holds(self) -> bool:
        """Both certificates and the identity hold."""
        return self.head.status == PROVED and self.log_form.status == PROVED and self.identity

    def to_json(self) -> dict[str, Any]:
        """{"head": {...}, "log_form": {...}, "identity_by_sympy", "u1"}."""
        return {
            "head": self.head.to_json(),
            "log_form": self.log_form.to_json(),
            "identity_by_sympy": self.identity,
            "u1": str(self.u1),
        }


def _domain(name: str, start: Fraction, integer: bool) -> Domain:
    return Domain((VariableDomain(name, start, float("inf"), False, True, integer),))


def _sign(tree: Any, name: str, value: Fraction, domain: Domain) -> int | None:
    """-1 / +1 when the difference's ball at the point is < 0 / > 0, 0 when it is >= 0 but not
    shown > 0, None when it is undefined there or its ball straddles 0."""
    from theory.prover.certificate import domain_data
    from theory.prover.kernel.verify import read_domain
    from theory.prover.search import point_value

    ball = point_value(tree, {name: value}, read_domain(domain_data(domain)))
    if ball is None:
        return None
    if ball.at_most_zero(True):
        return -1
    if ball.at_least_zero(True):
        return 1
    return 0 if ball.at_least_zero(False) else None


def crossover(
    lower: str,
    upper: str,
    variable: str,
    start: Fraction = Fraction(1),
    integer: bool = False,
    budget_seconds: float = 20.0,
) -> Crossover:
    """Where ``lower <= upper`` starts to hold for good (module docstring); both are expressions of
    ``variable`` alone, read by the safe language; InvalidArgument otherwise."""
    from theory.prover.language import MalformedExpression, parse_expression, to_tree
    from theory.prover.search import search

    begin = time.process_time()
    domain = _domain(variable, start, integer)
    try:
        low, high = (
            parse_expression(t, domain.symbols(), "the crossover's expression") for t in (lower, upper)
        )
    except MalformedExpression as error:
        raise InvalidArgument(f"{error} (a crossover is between expressions of {variable} alone)") from None
    difference = high - low
    tree = to_tree(difference)
    step = start if start > 0 else Fraction(1)
    samples = sorted(
        {start + k for k in range(LINEAR_SAMPLES)} | {start + step * (2**k - 1) for k in range(DOUBLINGS + 1)}
    )
    claim = Inequality(f"{lower} <= {upper}", difference, False)
    threshold: Fraction | None = None
    below: Witness | None = None
    kernel_tail: dict[str, Any] | None = None
    beyond: Witness | None = None
    proof = InequalityResult(claim.text, UNDECIDED, 0, 0.0, reason="no sign change of the difference found")
    for _ in range(ROUNDS):
        signs = [(x, _sign(tree, variable, x, domain)) for x in samples]
        negative = [x for x, s in signs if s == -1]
        candidate = start
        if negative:
            last = max(negative)
            after = [x for x, s in signs if x > last and s in (0, 1)]
            if not after and proof.status == REFUTED:
                break  # the search's witness is beyond every candidate: refuted
            if not after:
                last, later = _square_past(tree, variable, last, domain)
                if later is None:
                    beyond = _witness(tree, variable, last, domain)
                    break
                after = [later]
            candidate, below = _bisect(tree, variable, last, min(after), domain, integer)
            threshold = candidate
        kernel_tail = tail_certificate(lower, upper, variable, candidate)
        if kernel_tail is not None:
            proof = InequalityResult(claim.text, PROVED, 1, time.process_time() - begin)
            break
        proof = search(claim, _domain(variable, candidate, integer), budget_seconds / 4)
        if proof.status != REFUTED or proof.witness is None:
            break
        point = proof.witness.point[variable]  # a sign change beyond the samples: search past it
        samples = sorted({*samples, point, *(point * 2**k for k in range(1, DOUBLINGS + 1))})
    tail = None
    if proof.status == UNDECIDED and beyond is None:
        tail = _tail(claim, low, high, variable, threshold or start, integer, budget_seconds / 2)
    seconds = time.process_time() - begin
    return Crossover(
        lower, upper, variable, integer, start, threshold, below, proof, seconds, tail, kernel_tail, beyond
    )


HEAD_FACTOR = 2**20
"""X = HEAD_FACTOR * L0 (HEAD_FACTOR when L0 < 1): where the compact part ends and the log form begins."""


def _tail(
    claim: Inequality,
    low: sp.Expr,
    high: sp.Expr,
    name: str,
    threshold: Fraction,
    integer: bool,
    budget: float,
) -> Tail | None:
    """The two-part decision of :class:`Tail`, or None when the expressions are not positive for L >= 1."""
    import math

    from theory.prover.chain import identically_zero
    from theory.prover.search import search

    (symbol,) = _domain(name, threshold, integer).symbols().values()
    end = threshold * HEAD_FACTOR if threshold >= 1 else Fraction(HEAD_FACTOR)
    u = sp.Symbol("u", positive=True)
    u1 = Fraction(math.floor(math.log(end) * 1000) - 1, 1000)  # floats only pick u1; exp(u1) <= X is checked
    if not sp.exp(sp.Rational(u1.numerator, u1.denominator)) < sp.Rational(end.numerator, end.denominator):
        return None
    lower_u, upper_u = (side.subs(symbol, sp.exp(u)) for side in (low, high))
    if not (lower_u.is_positive and upper_u.is_positive):
        return None
    log_gap = sp.expand(sp.expand_log(sp.log(upper_u) - sp.log(lower_u), force=True))
    identity = identically_zero(sp.log(upper_u) - sp.log(lower_u) - log_gap)
    head_domain = Domain((VariableDomain(name, threshold, end, False, False, integer),))
    head = search(Inequality(claim.text, claim.gap, False), head_domain, budget / 2)
    u_domain = Domain((VariableDomain("u", u1, float("inf"), False, True, False),))
    log_form = search(Inequality(f"{sp.sstr(log_gap)} >= 0", log_gap, False), u_domain, budget / 2)
    return Tail(head, log_form, identity, u1)


def _bisect(
    tree: Any, name: str, negative: Fraction, positive: Fraction, domain: Domain, integer: bool
) -> tuple[Fraction, Witness]:
    """(L0, the witness just below it): the sign change of the difference between the two points."""
    low, high = negative, positive
    steps = 0
    while (high - low > 1) if integer else (steps < BISECTIONS and high - low > 0):
        geometric = low >= 1 and high > 2 * low
        if geometric:
            middle = Fraction(math.isqrt(math.floor(low * high)))
        else:
            middle = Fraction((low + high) // 2) if integer else (low + high) / 2
            steps += 1
        if not low < middle < high:
            middle = Fraction((low + high) // 2) if integer else (low + high) / 2
        sign = _sign(tree, name, middle, domain)
        if sign == -1:
            low = middle
        elif sign in (0, 1):
            high = middle
        else:
            break
    return high, _witness(tree, name, low, domain)


def _witness(tree: Any, name: str, point: Fraction, domain: Domain) -> Witness:
    """The point with the ball of the difference there (negative: lower > upper at the point)."""
    from theory.prover.certificate import domain_data
    from theory.prover.kernel.verify import read_domain
    from theory.prover.search import point_value

    ball = point_value(tree, {name: point}, read_domain(domain_data(domain)))
    return Witness({name: point}, (str(ball.lo), str(ball.hi)))


def _square_past(tree: Any, name: str, last: Fraction, domain: Domain) -> tuple[Fraction, Fraction | None]:
    """(the last point tried where the difference is negative, the first later one where it is >= 0, or
    None): the points last^2, last^4, ... (at most ``SQUARINGS``; from max(last, 2))."""
    point = max(last, Fraction(2))
    for _ in range(SQUARINGS):
        following = point * point
        sign = _sign(tree, name, following, domain)
        if sign in (0, 1):
            return point, following
        if sign is None:
            break
        point = following
    return (point if _sign(tree, name, point, domain) == -1 else last), None
