"""Theorem 4.1 (reconstructed): the parametric-interpolation covering bound, with its logs and constants.

Setting. W in R^{d1 x d2}, N = max(d1, d2) >= 1, spectral norm <= C, S >= sum_i sigma_i(W)^p with p > 0;
M >= 2 input points with ||x_i|| <= s; metric max_i ||x_i (W - W')||_2; radius eps > 0.

Statement (true for every N >= 1, p in (0, 2], eps > 0, S, s, C > 0, M >= 2; in fact for every p > 0):

    log N(eps) <= Lambda * ( K_p N^{2(p+1)/(p+2)} S^{2/(p+2)} (s/eps)^{2p/(p+2)} + 3 N ),
    Lambda = ln(2 (8 N C s / eps + 3) M N + 1),   K_p = c_p 3^{2/(p+2)} 144^{p/(p+2)},
    c_p = ((p+2)/2) (2/p)^{p/(p+2)}   (c_0+ = 1, c_2 = 2; read off by sympy, not typed).

Proof, with the steps the code does marked [code]:
1. W = W_k + R_k (truncated SVD), k >= 1 an integer; cover W_k and R_k at radius eps/2 each.
2. Head, step 2 (theory.covering.parametric_entropy at eps/2, inputs <= s): rank <= k' = min(k, d_min),
   ||W_k||_F <= sqrt(k') C, so log N_head <= (d1 + d2 + 1) k' ln(18 s sqrt(k') C / eps)_+ <= 3 N k ln(18 s
   sqrt(N) C / eps)_+ (d1 + d2 + 1 <= 3 N: checked in covering; k' <= N). [code: ``head_entropy`` is the
   covering lemma with these two substitutions.] If k >= d_min then R_k = 0 and the tail costs nothing.
3. Tail, step 3 (theory.covering.maurey_matrix_entropy at eps/2, d2 <= N): ||R_k||_F <= sqrt(d_min)
   sigma_{k+1} <= sqrt(N) min(C, (S/k)^{1/p}) since sigma_{k+1}^p <= S/(k+1) (step 1). [code:
   ``tail_entropy`` is the covering lemma at this radius.]
4. Logs: both logs are <= Lambda [code: ``_check_logs_below_lambda``, polynomial slacks with positive
   coefficients; uses M >= 2 and ceil(y) <= y + 1]; a negative head log only helps.
5. Balance [code]: dividing by Lambda and replacing min(C, .) by its second argument gives
   g(k) = 3 N k + 144 N^2 (S/k)^{2/p} (s/eps)^2 (read off the composed lemmas, not typed); sympy solves
   g'(k*) = 0, checks g''(k*) > 0 and reads g(k*) = K_p N^{..} S^{..} (s/eps)^{..} as a monomial.
6. Integrality [code]: k = ceil(k*) in [k*, k* + 1) and the tail term decreases in k, so
   g(ceil k*) <= g(k*) + 3 N: the + 3 N of the statement.
``STATEMENT`` is the inequality composed-lemmas(ceil(k*)) <= right-hand side, a plain sympy relation over
``DOMAIN``. The prover decides it over the whole of ``DOMAIN`` (no variable truncated) through
``theorem_chain()``: right-hand side - left-hand side = sum of 8 terms factor * piece (head log <= Lambda
in y = eps/(C s); ln(b/a) >= 1 - a/b for the tail log; min(C, Y) <= C and <= Y; the ceiling step as
ceil(z) <= z + 1, ceil(z) >= z and the convexity of k^{-2/p}), each piece proved on its own 1-3 variable
domain (the two pieces that vanish on a diagonal a = b and the ceiling facts through the kernel's change
of variables u = a/b, t = ceil(z) - z), and the chain certificate re-checked by the kernel with no sympy:
each factor >= 0 and each substitution's range in balls, the sum equal to the statement by its exact
normal form (theory.prover.chain, theory.prover.kernel.chain);
``specbound theory`` reports the verdict (proved) with its boxes and seconds. The self-check
``statement_on_grid`` is a cheap mpmath cross-check on a grid, whose exact points are also the chain's
witness probes (ball arithmetic).

Where p <= 2 is used. Not by this statement (steps 1-6 hold for every p > 0), and not by Dudley (the
entropy exponent 2p/(p+2) is below 2 for every p >= 0). It is used by the sharper tail
||R_k||_F^2 = sum_{i>k} sigma_i^2 <= sigma_{k+1}^{2-p} sum_{i>k} sigma_i^p <= sigma_{k+1}^{2-p} S, i.e.
sigma_i^2 <= sigma_{k+1}^{2-p} sigma_i^p for sigma_i <= sigma_{k+1}, which holds iff 2 - p >= 0.

Endpoints (what exactly holds; each a self-check):
- p -> 0+ with S = rank r: the right-hand side tends to 3 N (r + 1) Lambda, the rank bound 3 N r Lambda
  (k = r, no tail) plus one rounding unit 3 N Lambda from the ceiling.
- p = 2, S = ||W||_F^2: the right-hand side is Lambda (24 sqrt 3 N^{3/2} ||W||_F s/eps + 3 N), of order
  1/eps. The Frobenius/Maurey bound (Maurey alone, k = 0) is 144 N ||W||_F^2 (s/eps)^2 ln(...), of order
  1/eps^2: the statement does NOT reduce to it, and neither dominates the other for all eps. What does
  hold: with the sharper tail (which needs p <= 2) the tail objective at p = 2 is 144 N S (s/eps)^2 for
  every k, so its k = 0 member is exactly the Frobenius/Maurey bound.

Provenance: reconstructed statement (Sakai & Imaizumi 2026, Thm 4.1, not read; Ledent et al. 2025 style
interpolation); the balance, the exponents, c_p, the log bounds, the ceiling step and the endpoint limits
are derived here by sympy; the inequality as a whole is proved by the prover (a chain certificate that the
kernel re-checks), as a statement about our reading of the theorem, not about the paper's text.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

import mpmath
import sympy as sp

from theory import _sympy_tools as tools
from theory import covering
from theory.lemma import Check, Lemma
from theory.provenance import Provenance, Tagged
from theory.prover.chain import Chain, Piece
from theory.prover.domain import Domain, parse_domain
from theory.prover.statement import Inequality, parse_statement
from theory.proxy import SUMMAND

p = covering.p
"""The Schatten index, positive (the p = 0 rank case is the limit p -> 0+)."""
k = sp.Symbol("k", positive=True)
A_head, B_tail = sp.symbols("A B", positive=True)
N, S, C, eps = covering.N, covering.S, covering.C, covering.eps
s = sp.Symbol("s", positive=True)
"""Input row-norm bound of the matrix (assembled bound: scale s_i = 2 K b_i gamma_i alpha_i / margin)."""
M = covering.M

SOURCE = (
    "Sakai & Imaizumi 2026, Thm 4.1 (reconstructed; not read); Ledent, Alves & Lei 2025 (interpolation idea)"
)

LOG_FACTOR = sp.log(2 * (8 * N * C * s / eps + 3) * M * N + 1)
"""Lambda = ln(2 (8 N C s/eps + 3) M N + 1): bounds both covering logs (step 4 of the module docstring)."""

DOMAIN: dict[sp.Symbol, sp.Interval] = {
    p: sp.Interval.Lopen(0, 2),
    eps: sp.Interval.open(0, sp.oo),
    N: sp.Interval(1, sp.oo),
    S: sp.Interval.open(0, sp.oo),
    s: sp.Interval.open(0, sp.oo),
    C: sp.Interval.open(0, sp.oo),
    M: sp.Interval(2, sp.oo),
}
"""The domain of every free symbol of ``STATEMENT`` (M is an integer >= 2 in the application)."""


def split_monomial(expr: sp.Expr, bases: tuple[sp.Symbol, ...]) -> tuple[sp.Expr, dict[sp.Symbol, sp.Expr]]:
    """Write a product of powers as coefficient * prod(base^exponent); exponents simplified one by one.

    >>> x, y = sp.symbols("x y", positive=True)
    >>> split_monomial(3 * (2 * x / y) ** p * x, (x, y))
    (3*2**p, {x: p + 1, y: -p})
    """
    expanded = sp.expand_power_base(sp.powdenest(expr, force=True), force=True)
    exponents: dict[sp.Symbol, sp.Expr] = {b: sp.Integer(0) for b in bases}
    coefficient: list[sp.Expr] = []
    for factor in sp.Mul.make_args(expanded):
        base, exponent = factor.as_base_exp()
        if base in exponents:
            exponents[base] += exponent
        else:
            coefficient.append(factor)
    return sp.simplify(sp.Mul(*coefficient)), {b: sp.simplify(e) for b, e in exponents.items()}


def tail_radius(index: sp.Expr, sharp: bool = False) -> sp.Expr:
    """Frobenius radius of the tail R_k: sqrt(N) min(C, (S/k)^{1/p}), or, ``sharp`` (needs p <= 2),
    sqrt(S^{2/p} k^{1-2/p}) from ||R_k||_F^2 <= sigma_{k+1}^{2-p} S <= (S/k)^{(2-p)/p} S."""
    if sharp:
        return sp.sqrt(S ** (2 / p) * index ** (1 - 2 / p))
    return sp.sqrt(N) * sp.Min(C, (S / index) ** (1 / p))


def head_entropy(index: sp.Expr = k) -> sp.Expr:
    """Step 2 at radius eps/2, inputs <= s, with d1 + d2 + 1 <= 3N and sqrt(k') <= sqrt(N) applied."""
    lemma = covering.parametric_entropy().subs({covering.eps: eps / 2, covering.b: s}, simultaneous=True)
    bounded = lemma.subs(covering.d1 + covering.d2 + 1, 3 * N).replace(
        lambda e: isinstance(e, sp.log), lambda e: e.subs(covering.k, N)
    )
    return bounded.subs(covering.k, index)


def tail_entropy(index: sp.Expr = k, sharp: bool = False) -> sp.Expr:
    """Step 3 (matrix Maurey) at radius eps/2, d2 <= N, inputs <= s, Frobenius radius ``tail_radius``."""
    values = {covering.d2: N, covering.a: tail_radius(index, sharp), covering.eps: eps / 2, covering.b: s}
    return covering.maurey_matrix_entropy().subs(values, simultaneous=True)


def composed_entropy(index: sp.Expr = k) -> sp.Expr:
    """Head + tail entropy at integer k: the covering lemmas composed (log N(eps) <= this, step 1-3)."""
    return head_entropy(index) + tail_entropy(index)


def _without_logs(expr: sp.Expr) -> sp.Expr:
    """``expr`` with every log replaced by 1 and min(C, x) by x (steps 4-5: Lambda factored out)."""
    no_logs = expr.replace(lambda e: isinstance(e, sp.log), lambda e: sp.Integer(1))
    return no_logs.replace(lambda e: isinstance(e, sp.Min), lambda e: e.args[-1] if C in e.args else e)


@functools.cache
def balance_objective() -> sp.Expr:
    """g(k) = the composed lemmas with Lambda factored out: 3 N k + 144 N^2 (S/k)^{2/p} (s/eps)^2."""
    return sp.expand(
        sp.expand_power_base(sp.powdenest(_without_logs(composed_entropy()), force=True), force=True)
    )


@dataclass(frozen=True)
class BalanceDerivation:
    """g(k) = A k + B k^{-2/p} read off the composed lemmas and minimised over k > 0 by sympy."""

    head_coefficient: sp.Expr
    tail_coefficient: sp.Expr
    objective: sp.Expr
    k_star: sp.Expr
    second_derivative_at_k_star: sp.Expr
    value: sp.Expr
    exponent_A: sp.Expr
    exponent_B: sp.Expr
    c_p: sp.Expr

    def closed_form(self, head: sp.Expr, tail: sp.Expr) -> sp.Expr:
        """c_p head^{exponent_A} tail^{exponent_B}: min_k (head k + tail k^{-2/p})."""
        return self.c_p * head**self.exponent_A * tail**self.exponent_B


@functools.cache
def derive_balance() -> BalanceDerivation:
    """Read A, B off g(k), solve d/dk (A k + B k^{-2/p}) = 0, substitute, read off exponents and c_p.

    >>> d = derive_balance()
    >>> d.exponent_A, d.exponent_B, d.head_coefficient
    (2/(p + 2), p/(p + 2), 3*N)
    """
    g = balance_objective()
    head = sp.simplify(g.coeff(k))
    tail = sp.simplify((g - head * k) * k ** (2 / p))
    if k in tail.free_symbols or k in head.free_symbols:
        raise ArithmeticError(f"the composed objective {g} is not A k + B k^(-2/p)")
    objective = A_head * k + B_tail * k ** (-2 / p)
    (k_star,) = sp.solve(sp.diff(objective, k), k)
    second = sp.simplify(sp.diff(objective, k, 2).subs(k, k_star))
    value = objective.subs(k, k_star)
    coefficients, exponent_sets = [], []
    for term in sp.Add.make_args(sp.expand(value)):
        coefficient, exponents = split_monomial(term, (A_head, B_tail))
        coefficients.append(coefficient)
        exponent_sets.append(exponents)
    first = exponent_sets[0]
    if any(any(sp.simplify(e[b] - first[b]) != 0 for b in first) for e in exponent_sets[1:]):
        raise ArithmeticError(f"the balanced value {value} is not a monomial in A and B")
    c_p = sp.simplify(sp.Add(*coefficients))
    return BalanceDerivation(head, tail, objective, k_star, second, value, first[A_head], first[B_tail], c_p)


@functools.cache
def balanced_term() -> sp.Expr:
    """min_{k > 0} g(k) = K_p N^{2(p+1)/(p+2)} S^{2/(p+2)} (s/eps)^{2p/(p+2)} as a monomial (derived)."""
    d = derive_balance()
    raw = d.closed_form(d.head_coefficient, d.tail_coefficient)
    coefficient, exponents = split_monomial(raw, (N, S, s, eps))
    return coefficient * sp.Mul(*(b**e for b, e in exponents.items()))


def rounding_term() -> sp.Expr:
    """A = 3N, the cost of rounding k* up to an integer (g(ceil k*) <= g(k*) + A)."""
    return derive_balance().head_coefficient


@functools.cache
def theorem_4_1() -> sp.Expr:
    """The right-hand side Lambda (K_p N^{..} S^{..} (s/eps)^{..} + 3 N) of the restated Theorem 4.1."""
    return LOG_FACTOR * (balanced_term() + rounding_term())


@functools.cache
def integer_k_star() -> sp.Expr:
    """ceil(k*) for the composed objective: the integer k at which the statement is proved."""
    d = derive_balance()
    return sp.ceiling(d.k_star.subs({A_head: d.head_coefficient, B_tail: d.tail_coefficient}))


@functools.cache
def statement() -> sp.Rel:
    """composed covering lemmas at k = ceil(k*) <= Lambda (balanced + 3N), over ``DOMAIN``."""
    return sp.Le(composed_entropy(integer_k_star()), theorem_4_1(), evaluate=False)


@functools.cache
def _balanced_split() -> tuple[sp.Expr, tuple[tuple[sp.Symbol, sp.Expr], ...]]:
    """The balanced term split into K_p and the exponents of N, S, s, eps (once a process: the lemma, its
    notes and its checks read both)."""
    coefficient, exponents = split_monomial(balanced_term(), (N, S, s, eps))
    return coefficient, tuple(exponents.items())


def theorem_exponents() -> dict[sp.Symbol, sp.Expr]:
    """The exponents of N, S, s and eps in the balanced term (read off, not typed)."""
    return dict(_balanced_split()[1])


def matrix_constant() -> sp.Expr:
    """K_p, the coefficient of the balanced term."""
    return _balanced_split()[0]


_K = TypeVar("_K")
_V = TypeVar("_V")

GRID_AXES: dict[sp.Symbol, tuple[str, ...]] = {
    p: ("1/10000", "1/100", "1/10", "1/2", "1", "3/2", "19/10", "2"),
    eps: ("1/1000000", "1/1000", "1/10", "1", "1000"),
    N: ("1", "3", "64", "768"),
    S: ("1/1000", "1", "40", "10000"),
    s: ("1/100", "1", "100"),
    C: ("1/100", "1", "30"),
    M: ("2", "100000"),
}
"""Exact grid values over ``DOMAIN``, corners of interest included (small p, small eps, N = 1, M = 2)."""


def _grid(axes: Sequence[Sequence[_V]], keys: Sequence[_K]) -> list[dict[_K, _V]]:
    """Every combination of one value per axis, keyed by ``keys`` (each axis value converted once)."""
    return [dict(zip(keys, values, strict=True)) for values in itertools.product(*axes)]


def probe_points() -> list[dict[str, Fraction]]:
    """The grid of ``GRID_AXES`` as exact rationals by variable name (the prover's witness probes)."""
    axes = [tuple(Fraction(v) for v in values) for values in GRID_AXES.values()]
    return _grid(axes, [str(x) for x in GRID_AXES])


def grid_points() -> list[dict[sp.Symbol, mpmath.mpf]]:
    """The same grid as mpmath numbers by symbol (the mpmath cross-check)."""
    axes = [
        tuple(mpmath.mpf(f.numerator) / f.denominator for f in (Fraction(v) for v in values))
        for values in GRID_AXES.values()
    ]
    return _grid(axes, list(GRID_AXES))


def grid_counterexample(relation: sp.Rel, points: list[dict[sp.Symbol, mpmath.mpf]]) -> dict | None:
    """The first grid point where ``relation`` (lhs <= rhs) fails in mpmath (50 digits), else None."""
    symbols = sorted(relation.free_symbols, key=str)
    lhs = sp.lambdify(symbols, relation.lhs, "mpmath")
    rhs = sp.lambdify(symbols, relation.rhs, "mpmath")
    with mpmath.workdps(50):
        for point in points:
            values = [point[x] for x in symbols]
            if not lhs(*values) <= rhs(*values):
                return {str(x): mpmath.nstr(v, 6) for x, v in point.items()}
    return None


def _interval_text(interval: sp.Interval) -> str:
    left = "(" if interval.left_open else "["
    right = ")" if interval.right_open else "]"
    return f"{left}{interval.start}, {interval.end}{right}"


def domain_text() -> str:
    """``DOMAIN`` in the prover's domain syntax ("p: (0, 2], epsilon: (0, oo), ...")."""
    return ", ".join(f"{x}: {_interval_text(interval)}" for x, interval in DOMAIN.items())


HEAD_LOG_DOMAIN = "y: (0, oo), N: [1, oo), M: [2, oo)"
"""Step 4's head-log inequality after the exact reduction y = eps / (C s) (C, s, eps enter only so)."""


@functools.cache
def head_log_reduced() -> sp.Expr:
    """Lambda - ln(18 C sqrt(N) s / eps) >= 0 in y = eps / (C s): the reduced gap, found by sympy
    (C = eps / (y s) substituted, logs combined); the chain re-checks the substitution as an identity."""
    y = sp.Symbol("y", positive=True)
    (head_log,) = head_entropy().atoms(sp.log)
    gap = (LOG_FACTOR - head_log).subs(C, eps / (y * s))
    combined = sp.simplify(sp.logcombine(sp.expand_log(gap, force=True), force=True))
    reduced = combined.replace(lambda e: isinstance(e, sp.log), lambda e: sp.log(sp.expand(e.args[0])))
    if not reduced.free_symbols <= {y, N, M}:
        raise ArithmeticError(f"the head-log gap {reduced} depends on more than eps / (C s), N and M")
    return reduced


def _rebound(expr: sp.Expr, symbols: dict[str, sp.Symbol]) -> sp.Expr:
    """expr with every free symbol replaced by the symbol of the same name in ``symbols``."""
    return expr.xreplace({x: symbols[x.name] for x in expr.free_symbols if x.name in symbols})


def _sub_statement(text: str, gap: sp.Expr, domain: str) -> tuple[Inequality, Domain]:
    parsed = parse_domain(domain)
    return Inequality(text, _rebound(gap, parsed.symbols()), False), parsed


@functools.cache
def theorem_chain() -> Chain:
    """Theorem 4.1's statement as a chain of pieces (the proof of the module docstring, steps 4-6):

    Lambda (g* + A) - A k L_h - T L_t
      = A k (Lambda - L_h)                                     head log <= Lambda (reduced to y = eps/(C s))
      + T (ln b - ln a - 1 + a/b)                              ln(b/a) >= 1 - a/b, a, b the tail log's and
      + T c (w/m) (C - m) / b + T c (w + 1 - ceil w) / b       Lambda's arguments: b - a = c (w/m)(C - m)
                                                               + c (w + 1 - ceil w), m = min(C, Y) <= C
      + Lambda (T/m^2)(Y + m)(Y - m)                           m <= Y = (S/k)^{1/p} (tail radius)
      + Lambda A (k* + 1 - ceil k*)                            the ceiling step, head part
      + Lambda B (f(k*) - f(k) - f'(k)(k* - k))                f(k) = k^{-2/p} convex (tail part)
      + Lambda B (-f'(k)) (ceil k* - k*)

    with k = ceil(k*), T L_t the tail lemma, A k L_h the head lemma, g* = g(k*) the balanced term; every
    quantity is read off the objects above (nothing retyped but the generic facts). The prover decides the
    pieces; the kernel re-checks them, the identity, the factors' signs and the substitutions' ranges
    (theory.prover.kernel.chain). ceil(z) <= z + 1 is stated over z >= 0: the tail's argument w is enclosed
    in [0, oo).
    """
    d = derive_balance()
    head_a, tail_b = d.head_coefficient, d.tail_coefficient
    k_int = integer_k_star()
    (k_real,) = k_int.args
    tail = tail_entropy(k_int)
    (tail_log,) = tail.atoms(sp.log)
    (minimum,) = tail.atoms(sp.Min)
    (radius,) = [arg for arg in minimum.args if arg != C]
    (rounded,) = [part for part in tail_log.atoms(sp.ceiling) if part.has(sp.Min)]
    (w,) = rounded.args
    weight = tail / tail_log
    lam_arg, tail_arg = LOG_FACTOR.args[0], tail_log.args[0]
    unit = sp.Dummy("u")
    per_unit = sp.diff(tail_arg.subs(rounded, unit), unit)
    f = d.objective.coeff(B_tail)
    slope = sp.diff(f, k)

    head_piece = _sub_statement("head log <= Lambda", head_log_reduced(), HEAD_LOG_DOMAIN)
    log_piece = _sub_statement(
        "ln(b/a) >= 1 - a/b", *_generic("log(b) - log(a) - 1 + a/b", "a: (0, oo), b: (0, oo)")
    )
    below_first = _generic("x - Min(x, y)", "x: (0, oo), y: (0, oo)")
    below_second = _generic("y - Min(x, y)", "x: (0, oo), y: (0, oo)")
    round_up = _generic("z + 1 - ceiling(z)", "z: [0, oo)")
    round_down = _generic("ceiling(z) - z", "z: (0, oo)")
    a_, b_ = sp.symbols("a b", positive=True)
    convex = f.subs(k, a_) - f.subs(k, b_) - slope.subs(k, b_) * (a_ - b_)
    convex_piece = _sub_statement(
        "f(a) - f(b) - f'(b)(a - b) >= 0", convex, "a: (0, oo), b: (0, oo), p: (0, 2]"
    )

    pieces = [
        Piece("head_log_below_lambda", head_a * k_int, *head_piece, {"y": eps / (C * s), "N": N, "M": M}),
        Piece("tail_log_tangent", weight, *log_piece, {"a": tail_arg, "b": lam_arg}),
        Piece(
            "tail_radius_below_C",
            weight * per_unit * sp.simplify(w / minimum) / lam_arg,
            *_sub_statement("Min(x, y) <= x", *below_first),
            {"x": C, "y": radius},
        ),
        Piece(
            "tail_log_rounding",
            weight * per_unit / lam_arg,
            *_sub_statement("ceiling(z) <= z + 1", *round_up),
            {"z": w},
        ),
        Piece(
            "tail_radius_below_schatten",
            LOG_FACTOR * weight / minimum**2 * (radius + minimum),
            *_sub_statement("Min(x, y) <= y", *below_second),
            {"x": C, "y": radius},
        ),
        Piece(
            "rounding_head",
            LOG_FACTOR * head_a,
            *_sub_statement("ceiling(z) <= z + 1", *round_up),
            {"z": k_real},
        ),
        Piece(
            "rounding_tail_convexity",
            LOG_FACTOR * tail_b,
            *convex_piece,
            {"a": k_real, "b": k_int, "p": p},
        ),
        Piece(
            "rounding_tail_step",
            LOG_FACTOR * tail_b * (-slope.subs(k, k_int)),
            *_sub_statement("ceiling(z) >= z", *round_down),
            {"z": k_real},
        ),
    ]
    domain = parse_domain(domain_text())
    symbols = domain.symbols()
    relation = statement()
    gap = _rebound(relation.rhs - relation.lhs, symbols)
    text = "composed lemmas at ceil(k*) <= Lambda (K_p N^(2(p+1)/(p+2)) S^(2/(p+2)) (s/eps)^(2p/(p+2)) + 3N)"
    rebound = tuple(
        Piece(
            piece.name,
            _rebound(piece.factor, symbols),
            piece.sub,
            piece.sub_domain,
            {name: _rebound(value, symbols) for name, value in piece.substitution.items()},
        )
        for piece in pieces
    )
    probes = tuple(probe_points()[::8])
    return Chain(Inequality(text, gap, False), domain, rebound, probes)


def _generic(gap_text: str, domain: str) -> tuple[sp.Expr, str]:
    """A standard fact as (gap, domain): parsed from text over the domain's symbols."""
    parsed = parse_domain(domain)
    return parse_statement(f"{gap_text} >= 0", parsed).inequalities[0].gap, domain


def _summand_squared() -> sp.Expr:
    return SUMMAND.expr.subs(SUMMAND.args[0], p) ** 2


def _check_objective_is_composed_lemmas() -> tuple[bool, object]:
    d = derive_balance()
    rebuilt = d.objective.subs({A_head: d.head_coefficient, B_tail: d.tail_coefficient})
    return tools.equal(rebuilt, balance_objective())


def _check_equals_proxy_shape() -> tuple[bool, object]:
    # The balanced term at eps = 1 is K_p times the exact proxy summand squared (same exponents).
    coefficient_derived, exponents_derived = split_monomial(balanced_term().subs(eps, 1), (N, S, s))
    coefficient_proxy, exponents_proxy = split_monomial(_summand_squared(), (N, S, s))
    decisions = [
        (f"exponent of {b}", tools.equal(exponents_derived[b], exponents_proxy[b])) for b in (N, S, s)
    ]
    decisions.append(("coefficient = K_p", tools.equal(coefficient_derived, matrix_constant())))
    decisions.append(("proxy coefficient 1", tools.equal(coefficient_proxy, sp.Integer(1))))
    return tools.all_of(decisions)


def _check_minimum() -> tuple[bool, object]:
    return tools.is_positive(derive_balance().second_derivative_at_k_star)


def _check_logs_below_lambda() -> tuple[bool, object]:
    # Tail log: 2 ceil(8 N sigma s/eps + 2) M N + 1 <= 2 (8 N C s/eps + 3) M N + 1 for sigma = C/(1+t) <= C
    # and ceil(y) <= y + 1. Head log: 18 s sqrt(N) C/eps <= 2 (8 N C s/eps) M N, M = 2 + m, sqrt N = 1 + v.
    t, m_, v, x_ = sp.symbols("t m v x", nonnegative=True)
    (tail_log,) = tail_entropy().atoms(sp.log)
    (head_log,) = head_entropy().atoms(sp.log)
    (lam_arg,) = LOG_FACTOR.args
    tail_arg = tail_log.args[0].subs(sp.Min(C, (S / k) ** (1 / p)), C / (1 + t))
    tail_arg = tail_arg.replace(lambda e: isinstance(e, sp.ceiling), lambda e: e.args[0] + 1)
    tail_slack = sp.factor(sp.simplify(lam_arg - tail_arg))
    values = {M: 2 + m_, N: (1 + v) ** 2, C: x_ * eps / s}
    head_slack = sp.expand(sp.powdenest((lam_arg - head_log.args[0]).subs(values), force=True))
    return tools.all_of(
        [
            ("tail log <= Lambda", tools.is_nonnegative(tail_slack)),
            ("head log <= Lambda", tools.is_nonnegative(head_slack)),
        ]
    )


def tail_slope() -> sp.Expr:
    """d/dk of the tail term B k^{-2/p} (sympy): negative for B, k > 0 and p in (0, 2], so rounding k* up
    never raises the tail (the self-check ceiling_step and the prover's ceiling_tail_decreasing use it)."""
    return sp.diff(B_tail * k ** (-2 / p), k)


def c_p_log_slope() -> sp.Expr:
    """d/dp log c_p for the derived c_p (sympy-simplified): positive on (0, 2), so c_p increases there (the
    self-check c_p_range and the prover's c_p_increasing use it)."""
    return sp.simplify(sp.diff(sp.expand_log(sp.log(derive_balance().c_p), force=True), p))


def _check_ceiling_step() -> tuple[bool, object]:
    # ceil(k*) = k* + theta, theta in [0, 1): the tail term decreases in k, the head grows by <= A theta.
    d = derive_balance()
    theta = sp.Symbol("theta", nonnegative=True)
    head_increase = sp.expand(A_head * (k + theta) - A_head * k)
    return tools.all_of(
        [
            ("tail decreasing in k", tools.sign_on_open_range(tail_slope(), p, positive=False)),
            ("head grows by A theta", tools.equal(head_increase, A_head * theta)),
            ("A = 3N", tools.equal(d.head_coefficient, 3 * N)),
        ]
    )


def _check_statement_on_grid() -> tuple[bool, object]:
    points = grid_points()[::8]
    found = grid_counterexample(statement(), points)
    return found is None, f"{len(points)} grid points, counterexample: {found}"


def _check_limit_zero() -> tuple[bool, object]:
    # S_p -> rank r as p -> 0+: the right-hand side tends to 3 N (r + 1) Lambda (rank bound + rounding).
    rank = sp.Symbol("r", positive=True)
    limit_value = sp.limit(balanced_term().subs(S, rank), p, 0, dir="+") + rounding_term()
    return tools.equal(limit_value * LOG_FACTOR, 3 * N * (rank + 1) * LOG_FACTOR)


def _check_p2_is_not_frobenius_maurey() -> tuple[bool, object]:
    # At p = 2 (S = ||W||_F^2) the balanced term is of order eps^{-1}; Maurey alone (k = 0, radius
    # ||W||_F, eps/2, d2 <= N) is of order eps^{-2}: the exponents differ, so no reduction.
    at_two = balanced_term().subs(p, 2)
    maurey = _without_logs(tail_entropy(sp.Integer(1), sharp=True).subs(p, 2))
    return tools.all_of(
        [
            (
                "balanced term at p = 2",
                tools.equal(at_two, 24 * sp.sqrt(3) * N ** sp.Rational(3, 2) * sp.sqrt(S) * s / eps),
            ),
            ("eps exponent at p = 2 is -1", tools.equal(tools.exponent_of(at_two, eps), -1)),
            ("Frobenius/Maurey eps exponent is -2", tools.equal(tools.exponent_of(maurey, eps), -2)),
        ]
    )


def sharp_tail_sides(sigma_next: sp.Expr, sigma_i: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """(sigma_i^2, sigma_{k+1}^{2-p} sigma_i^p): the sharper tail's termwise bound sigma_i^2 <= rhs for
    0 < sigma_i <= sigma_{k+1} (reconstructed), which holds iff p <= 2; the self-check and the prover's
    statement (theory.paper_proofs.inequalities, sharp_tail_termwise) are both built from it."""
    return sigma_i**2, sigma_next ** (2 - p) * sigma_i**p


def _check_sharp_tail_needs_p_le_2() -> tuple[bool, object]:
    # sigma_i^2 <= sigma_{k+1}^{2-p} sigma_i^p for sigma_i = sigma_{k+1}/(1+u): the log of the ratio is
    # (2 - p) ln(1 + u), >= 0 iff p <= 2 (p = 2 - q with q >= 0 here; at p = 3 it is negative).
    sigma, u = sp.symbols("sigma u", positive=True)
    q = sp.Symbol("q", nonnegative=True)
    lhs, rhs = sharp_tail_sides(sigma, sigma / (1 + u))
    ratio = rhs / lhs
    log_ratio = sp.expand_log(
        sp.log(sp.powsimp(sp.expand_power_base(ratio, force=True), force=True)), force=True
    )
    return tools.all_of(
        [
            ("p <= 2: log ratio >= 0", tools.is_nonnegative(sp.factor(log_ratio.subs(p, 2 - q)))),
            ("p = 3: log ratio < 0", tools.is_positive(-sp.factor(log_ratio.subs(p, 3)))),
        ]
    )


def _check_sharp_tail_at_two_is_frobenius_maurey() -> tuple[bool, object]:
    # With the sharper tail, at p = 2 the tail objective is k-free: its k = 0 member is Maurey on ||W||_F.
    sharp = _without_logs(tail_entropy(k, sharp=True)).subs(p, 2)
    frobenius = _without_logs(
        covering.maurey_matrix_entropy().subs(
            {covering.d2: N, covering.a: sp.sqrt(S), covering.eps: eps / 2, covering.b: s}, simultaneous=True
        )
    )
    return tools.all_of(
        [
            ("k-free at p = 2", (k not in sharp.free_symbols, sharp)),
            ("= Frobenius/Maurey", tools.equal(sharp, frobenius)),
        ]
    )


def _check_c_p_range() -> tuple[bool, object]:
    c_p = derive_balance().c_p
    low = tools.limit_equals(c_p, p, 0, sp.Integer(1))
    high = tools.equal(c_p.subs(p, 2), sp.Integer(2))
    increasing = tools.sign_on_open_range(c_p_log_slope(), p, positive=True)
    return tools.all_of([("c_0+ = 1", low), ("c_2 = 2", high), ("c_p increasing on (0,2)", increasing)])


def _check_entropy_exponent() -> tuple[bool, object]:
    q = -theorem_exponents()[eps]
    below_two = tools.sign_on_open_range(2 - q, p, positive=True)
    at_two = tools.equal(q.subs(p, 2), sp.Integer(1))
    return tools.all_of([("2 - q > 0 on (0,2)", below_two), ("q(2) = 1 < 2", at_two)])


def _check_exponent_monotonicity() -> tuple[bool, object]:
    exponents = theorem_exponents()
    return tools.all_of(
        [
            ("N exponent increasing", tools.sign_on_open_range(sp.diff(exponents[N], p), p, positive=True)),
            ("S exponent decreasing", tools.sign_on_open_range(sp.diff(exponents[S], p), p, positive=False)),
            ("s exponent increasing", tools.sign_on_open_range(sp.diff(exponents[s], p), p, positive=True)),
        ]
    )


def _check_positive_and_homogeneous() -> tuple[bool, object]:
    # W -> c W multiplies S by c^p; covering c W at radius eps is covering W at eps / c.
    c = sp.Symbol("c", positive=True)
    bound = balanced_term()
    scaled = bound.subs(S, S * c**p)
    return tools.all_of(
        [
            ("positive", tools.is_positive(bound)),
            ("homogeneous", tools.equal(scaled, bound.subs(eps, eps / c))),
        ]
    )


STATEMENT_CHECK = "statement_on_grid"


def __getattr__(name: str) -> sp.Rel:
    """STATEMENT (the relation ``statement()``) is built on first use (the balance takes about a second)."""
    if name == "STATEMENT":
        return statement()
    raise AttributeError(f"module 'theory.interpolation' has no attribute {name!r}")


@functools.cache
def lemma() -> Lemma:
    """Step 4: the interpolation covering bound, with its derivation as self-checks."""
    d = derive_balance()
    entropy = sp.Function("logN")(eps)
    return Lemma(
        step=4,
        name="interpolation_covering",
        title="Theorem 4.1: parametric interpolation covering bound, logs and constants explicit",
        statement=(
            sp.Le(entropy, theorem_4_1(), evaluate=False),
            statement(),
            sp.Eq(sp.Symbol("k^*"), d.k_star, evaluate=False),
        ),
        assumptions=(
            "W in R^{d1 x d2}, N = max(d1, d2) >= 1, spectral norm <= C, S >= sum_i sigma_i(W)^p, "
            "p in (0, 2] (the statement holds for every p > 0)",
            "M >= 2 input points with row norm <= s; metric max_i ||x_i (W - W')||; every radius eps > 0 "
            "(the assembled bound uses radius margin u / (2 K gamma alpha), which can exceed 1)",
            "head: covering.parametric_entropy at eps/2; tail: covering.maurey_matrix_entropy at eps/2 with "
            "Frobenius radius sqrt(N) min(C, (S/k)^{1/p}); k = ceil(k*)",
            "p = 0 (rank r): the rank bound 3 N r Lambda; the p -> 0+ limit is 3 N (r + 1) Lambda",
            "p = 2: of order 1/eps, not the Frobenius/Maurey 1/eps^2; the sharper tail (needs p <= 2) gives "
            "Frobenius/Maurey as its k = 0 member",
        ),
        tag=Tagged(
            Provenance.RECONSTRUCTED, SOURCE + "; balance, constants, logs and endpoints derived here"
        ),
        checks=(
            Check(
                "objective_is_composed_lemmas",
                "A k + B k^{-2/p} with A, B read off the composed covering lemmas equals them (logs -> 1)",
                _check_objective_is_composed_lemmas,
            ),
            Check("k_star_is_minimum", "g''(k*) > 0", _check_minimum),
            Check("logs_below_lambda", "both covering logs <= Lambda (M >= 2)", _check_logs_below_lambda),
            Check("ceiling_step", "g(ceil k*) <= g(k*) + 3N", _check_ceiling_step),
            Check(
                STATEMENT_CHECK,
                "cross-check: composed lemmas at ceil(k*) <= statement on a grid in mpmath (the prover "
                "decides it over DOMAIN: theory.paper_proofs.inequalities, theorem_4_1_statement)",
                _check_statement_on_grid,
            ),
            Check(
                "balance_has_proxy_shape",
                "balanced term at eps = 1 = K_p SUMMAND^2",
                _check_equals_proxy_shape,
            ),
            Check("limit_p_to_0_is_rank_bound", "p -> 0+, S = r: 3 N (r + 1) Lambda", _check_limit_zero),
            Check(
                "p_equals_2_is_not_frobenius_maurey",
                "at p = 2 the statement is of order 1/eps, Frobenius/Maurey 1/eps^2",
                _check_p2_is_not_frobenius_maurey,
            ),
            Check(
                "sharp_tail_needs_p_le_2",
                "sigma_i^2 <= sigma_{k+1}^{2-p} sigma_i^p iff p <= 2",
                _check_sharp_tail_needs_p_le_2,
            ),
            Check(
                "sharp_tail_at_2_is_frobenius_maurey",
                "sharper tail at p = 2 is k-free and equals Maurey on ||W||_F",
                _check_sharp_tail_at_two_is_frobenius_maurey,
            ),
            Check("c_p_range", "c_p rises from 1 (p -> 0+) to 2 (p = 2)", _check_c_p_range),
            Check("entropy_exponent_below_2", "2p/(p+2) <= 1 < 2 on (0, 2]", _check_entropy_exponent),
            Check(
                "exponent_monotonicity",
                "N, s exponents increase and S decreases on (0, 2)",
                _check_exponent_monotonicity,
            ),
            Check(
                "positive_homogeneous",
                "positive; scaling W by c = shrinking eps by c",
                _check_positive_and_homogeneous,
            ),
        ),
        notes=f"c_p = {d.c_p}; K_p = {matrix_constant()}; exponents of N, S, s, eps: {theorem_exponents()}",
        derived={"c_p": d.c_p, "k_star": d.k_star, "K_p": matrix_constant()},
    )
