"""Small sympy helpers shared by the lemma modules: decisions that never return a silent None.

Each helper returns ``(verdict, witness)``: the verdict is a plain bool and the witness is the simplified
expression (or the counterexample, or the reason sympy could not decide, in which case the verdict is
False: "undecided" is reported as a failure, never as a pass).
"""

from __future__ import annotations

from collections.abc import Iterable

import sympy as sp

Decision = tuple[bool, str]

t_range = sp.Symbol("t", positive=True)
"""The auxiliary positive symbol of the range substitutions p = 2 t / (1 + t) (p in (0, 2))."""

P_OF_T = 2 * t_range / (1 + t_range)
"""p in (0, 2) written through t in (0, oo), so sympy's positivity assumptions decide signs on the range."""


def exponent_of(expr: sp.Expr, symbol: sp.Symbol) -> sp.Expr:
    """The exponent of ``symbol`` in a monomial-like ``expr``: symbol * d log(expr) / d symbol, simplified.

    >>> x, a = sp.symbols("x a", positive=True)
    >>> exponent_of(3 * x ** (a / (a + 1)), x)
    a/(a + 1)
    """
    return sp.simplify(symbol * sp.diff(sp.log(expr), symbol))


def is_zero(expr: sp.Expr) -> Decision:
    """Decide expr == 0 by simplification (and expansion of powers and logs); the witness is the residue."""
    residue = sp.simplify(expr)
    if residue != 0:
        residue = sp.simplify(
            sp.expand_power_base(sp.powsimp(sp.expand_log(residue, force=True), force=True))
        )
    return residue == 0, str(residue)


def equal(lhs: sp.Expr, rhs: sp.Expr) -> Decision:
    """Decide lhs == rhs symbolically (also through the ratio, for products of powers)."""
    verdict, witness = is_zero(lhs - rhs)
    if verdict:
        return True, f"{lhs} - ({rhs}) = 0"
    ratio = sp.simplify(sp.powsimp(sp.expand_power_base(lhs / rhs, force=True), force=True))
    if ratio == 1:
        return True, f"({lhs}) / ({rhs}) = 1"
    return False, f"difference {witness}; ratio {ratio}"


def is_positive(expr: sp.Expr) -> Decision:
    """Decide expr > 0 from the declared symbol domains; undecided counts as False, with the reason."""
    simplified = sp.simplify(expr)
    decided = simplified.is_positive
    if decided is None:
        return False, f"undecided: sympy cannot determine the sign of {simplified}"
    return bool(decided), str(simplified)


def is_nonnegative(expr: sp.Expr) -> Decision:
    """Decide expr >= 0 from the declared symbol domains; undecided counts as False, with the reason."""
    simplified = sp.simplify(expr)
    decided = simplified.is_nonnegative
    if decided is None:
        factored = sp.factor(simplified)
        decided = factored.is_nonnegative
    if decided is None:
        return False, f"undecided: sympy cannot determine the sign of {simplified}"
    return bool(decided), str(simplified)


def sign_on_open_range(expr: sp.Expr, p: sp.Symbol, positive: bool) -> Decision:
    """Decide the sign of ``expr(p)`` for all p in (0, 2) by substituting p = 2 t / (1 + t), t > 0.

    >>> q = sp.Symbol("q", nonnegative=True)
    >>> sign_on_open_range(sp.diff(q / (q + 2), q), q, positive=True)[0]
    True
    """
    on_range = sp.factor(sp.logcombine(sp.simplify(expr.subs(p, P_OF_T)), force=True))
    decided = on_range.is_positive if positive else on_range.is_negative
    if decided is None:
        return False, f"undecided on p = 2t/(1+t): {on_range}"
    return bool(decided), f"with p = 2t/(1+t), t > 0: {on_range}"


def all_of(decisions: Iterable[tuple[str, Decision]]) -> Decision:
    """Combine named decisions: True iff all are True; the witness lists each one."""
    parts = list(decisions)
    verdict = all(decision[0] for _, decision in parts)
    witness = "; ".join(f"{name}: {'ok' if ok else 'FAILS'} ({w})" for name, (ok, w) in parts)
    return verdict, witness


def limit_equals(
    expr: sp.Expr, symbol: sp.Symbol, point: object, expected: sp.Expr, direction: str = "+"
) -> Decision:
    """Decide lim_{symbol -> point} expr == expected; the witness is the computed limit."""
    value = sp.limit(expr, symbol, point, dir=direction)
    verdict, _ = equal(value, expected) if value.is_finite is not False else (False, "")
    return verdict, f"limit = {sp.simplify(value)}, expected {expected}"


def planted_false_statements() -> list[tuple[str, Decision]]:
    """Every decision helper applied to statements that are FALSE (each must come out False).

    Unequal expressions that agree at many points (x and x + (x-1)(x-2)...(x-9)/10^9 agree at x = 1..9),
    a sign change inside the range, a limit off by a little, one failing part among many. A helper that
    lies (answers True regardless) accepts one of these; :func:`helper_controls` then reports it, and the
    theory self-check run fails.
    """
    x = sp.Symbol("x", positive=True)
    p = sp.Symbol("p", nonnegative=True)
    near = x + sp.Mul(*(x - k for k in range(1, 10))) / 10**9
    many_true = [(f"part {k}", equal(x + k, k + x)) for k in range(5)]
    return [
        ("equal: x vs x + (x-1)...(x-9)/1e9", equal(x, near)),
        ("is_zero: (x-1)...(x-9)/1e9", is_zero(near - x)),
        ("is_positive: x - 1 changes sign at 1", is_positive(x - 1)),
        ("is_positive: -x is negative", is_positive(-x)),
        ("is_nonnegative: x - 1/1000 changes sign", is_nonnegative(x - sp.Rational(1, 1000))),
        ("is_nonnegative: -(x + 1) is negative", is_nonnegative(-(x + 1))),
        ("sign_on_open_range: p - 1 changes sign in (0, 2)", sign_on_open_range(p - 1, p, positive=True)),
        (
            "limit_equals: lim x->0+ of (1 + x)^(1/x) is not 2.718",
            limit_equals((1 + x) ** (1 / x), x, 0, 2.718),
        ),
        ("all_of: one failing part among six", all_of([*many_true, ("false part", equal(x, x + 1))])),
    ]


def helper_controls() -> list[tuple[str, bool, str]]:
    """(name, passed, witness) per planted false statement: passed iff the helper rejected it."""
    return [(name, not verdict, witness) for name, (verdict, witness) in planted_false_statements()]
