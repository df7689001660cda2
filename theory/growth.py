"""Growth classes: the asymptotic order e^{rate x} x^{power} (ln x)^{log_power} of an expression as x -> oo.

A proof procedure over the expression tree (the rules of asymptotics for eventually positive functions):

- a constant (free of x) has class (0, 0, 0); x has (0, 1, 0);
- a product adds the classes of its factors; f^c (c free of x) multiplies the class by c;
- c^{a x + b} and exp(a x + b) have rate a ln c (resp. a);
- a sum has the class of its largest term, which must be the unique largest and eventually positive
  (smaller terms may be negative: e^{qx} - 1 has the class of e^{qx});
- ln f is ~ rate x when f grows exponentially, ~ power ln x when f grows polynomially, and a constant
  when f tends to a constant > 1 (decided by sympy);
- a sum whose largest terms cancel is rewritten, then classified: expanded (sympy's ``expand``: (L+1)^2 - L^2
  is 2L + 1), else, with P and Q the sums of its terms of positive and of negative constant sign, as
  (P^2 - Q^2) / (P + Q), P^2 - Q^2 expanded (standard: P - Q = (P^2 - Q^2)/(P + Q) where P + Q > 0;
  taken only when it removes a fractional power, so sqrt(L^2 + L) - L = L / (sqrt(L^2 + L) + L));
- ceiling(f) and floor(f) have the class of f when f -> oo (f - 1 < floor(f) <= f <= ceiling(f) < f + 1);
  c^(k ceiling(g)) and c^(k floor(g)) (c > 0 and k free of x) the class of exp(k g ln c), within the factor
  c^|k| of it;
  |f| the class of f.

Classes are compared lexicographically (rate, then power, then log power); every comparison of two
symbolic exponents is decided by sympy from the symbols' assumptions (the Schatten index p in (0, 2) is
written p = 2t/(1+t), t > 0), and an undecided comparison raises :class:`GrowthUndecided`: the procedure
never guesses. Provenance: derived (a decision procedure run by the code).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import sympy as sp

from theory import _sympy_tools as tools
from theory.errors import SpecboundError


class GrowthUndecided(SpecboundError, ArithmeticError):
    """The procedure met an expression or a comparison it cannot decide."""


@dataclass(frozen=True)
class Growth:
    """e^{rate x} x^{power} (ln x)^{log_power}: the asymptotic class of a positive function of x."""

    rate: sp.Expr
    power: sp.Expr
    log_power: sp.Expr
    log_log_power: sp.Expr = sp.S.Zero

    @property
    def parts(self) -> tuple[sp.Expr, sp.Expr, sp.Expr, sp.Expr]:
        """(rate, power, log_power, log_log_power), compared in this order."""
        return (self.rate, self.power, self.log_power, self.log_log_power)

    def __add__(self, other: Growth) -> Growth:
        return Growth(*(a + b for a, b in zip(self.parts, other.parts, strict=True)))

    def scaled(self, factor: sp.Expr) -> Growth:
        """The class of f^factor."""
        return Growth(*(a * factor for a in self.parts))

    def simplified(self) -> Growth:
        """Every component simplified."""
        return Growth(*(sp.simplify(c) for c in self.parts))

    def subs(self, *args: object) -> Growth:
        """Every component with a substitution applied (e.g. a value of p)."""
        return Growth(*(sp.simplify(c.subs(*args)) for c in self.parts))

    def text(self, variable: str = "L", rate_unit: str = "") -> str:
        """e.g. ``exp(p/(p+2) L ln ell) L^(1/2) (ln L)^(1/2)``."""
        parts = []
        if self.rate != 0:
            parts.append(f"exp(({self.rate}) {variable}{rate_unit})")
        if self.power != 0 or not parts:
            parts.append(f"{variable}^({self.power})")
        if self.log_power != 0:
            parts.append(f"(ln {variable})^({self.log_power})")
        if self.log_log_power != 0:
            parts.append(f"(ln ln {variable})^({self.log_log_power})")
        return " ".join(parts)


CONSTANT = Growth(sp.Integer(0), sp.Integer(0), sp.Integer(0))


def sign(value: sp.Expr, substitutions: dict[sp.Symbol, sp.Expr] | None = None) -> int:
    """-1, 0 or +1 for the sign of ``value`` (after the range substitutions); raises when undecided.

    Products are decided factor by factor, ln X - ln Y (X, Y > 1) by the sign of X - Y, a two-term sum
    a - b of positive parts by the sign of ln a - ln b (so e^u - 1 is decided by u), a rational function by
    its factored form (sympy's ``factor``), and what is left by its ``simplify``-ed form. The sign depends on
    the expression and the substitutions alone, so each (value, substitutions) is decided once a process (a
    law's terms recur across laws)."""
    pairs = tuple(sorted((substitutions or {}).items(), key=lambda pair: sp.default_sort_key(pair[0])))
    return _decided_sign(sp.sympify(value), pairs)


@functools.lru_cache(maxsize=4096)
def _decided_sign(value: sp.Expr, substitutions: tuple[tuple[sp.Symbol, sp.Expr], ...]) -> int:
    value = value.subs(dict(substitutions))
    decided = _sign_of(value)
    if decided is not None:
        return decided
    decided = _sign_of_rational(value)
    if decided is not None:
        return decided
    mapped = sp.factor(sp.simplify(value))
    decided = _sign_of(mapped)
    if decided is None:
        raise GrowthUndecided(f"sign of {mapped} is undecided")
    return decided


def _sign_of(value: sp.Expr) -> int | None:
    if value == 0:
        return 0
    if value.is_positive:
        return 1
    if value.is_negative:
        return -1
    if isinstance(value, sp.Mul):
        signs = [_sign_of(factor) for factor in value.args]
        if None in signs:
            return None
        product = 1
        for factor_sign in signs:
            product *= factor_sign  # type: ignore[operator]
        return product
    if isinstance(value, sp.Pow):
        base_sign = _sign_of(value.base)
        if base_sign == 1:
            return 1
        if base_sign is not None and value.exp.is_integer:
            return base_sign ** int(value.exp) if base_sign else None
        return None
    if isinstance(value, sp.Add) and len(value.args) == 2:
        first, second = value.args
        if _sign_of(first) == 1 and _sign_of(second) == -1:
            first, second = second, first
        if _sign_of(first) == -1 and _sign_of(second) == 1:
            if isinstance(second, sp.log) and isinstance(-first, sp.log):
                # ln X - ln Y with ln X, ln Y > 0 (so X, Y > 1): ln increases, so the sign is that of X - Y
                decided = _sign_of(second.args[0] - (-first).args[0])
                if decided is not None:
                    return decided
            decided = _sign_of_rational(value)
            if decided is not None:
                return decided
            logs = sp.expand_log(sp.log(second), force=True) - sp.expand_log(sp.log(-first), force=True)
            # the expanded logs as they are first (they decide 70 of the regimes' 72 such sums), simplified
            # only when their sign is not read off them
            decided = _sign_of(logs)
            return decided if decided is not None else _sign_of(sp.factor(sp.simplify(logs)))
    return None


def _sign_of_rational(value: sp.Expr) -> int | None:
    """The sign of a rational function of its symbols read off its factored form (sympy's ``factor``: one
    fraction, numerator and denominator factored), or None for another expression or an undecided sign;
    an equality, so cheaper than ``simplify`` and as sound."""
    if not value.is_rational_function():
        return None
    factored = sp.factor(value)
    return None if factored == value else _sign_of(factored)


def compare(a: Growth, b: Growth, substitutions: dict[sp.Symbol, sp.Expr] | None = None) -> int:
    """Lexicographic comparison of two classes: -1, 0 or +1."""
    for x, y in zip(a.parts, b.parts, strict=True):
        decided = sign(x - y, substitutions)
        if decided:
            return decided
    return 0


def growth(expr: sp.Expr, x: sp.Symbol, substitutions: dict[sp.Symbol, sp.Expr] | None = None) -> Growth:
    """The growth class of ``expr`` as ``x`` -> oo (see the module docstring for the rules), simplified;
    GrowthUndecided for one term whose constant factor is not positive (-L is not a positive function)."""
    expr = sp.sympify(expr)
    if _eventually_positive(expr, x, substitutions) is None:
        raise GrowthUndecided(f"{expr} is not eventually positive: classes are of positive functions")
    return _growth(expr, x, substitutions).simplified()


def _growth(expr: sp.Expr, x: sp.Symbol, substitutions: dict[sp.Symbol, sp.Expr] | None) -> Growth:
    if x not in expr.free_symbols:
        if expr.is_positive or expr.is_negative:
            return CONSTANT
        if sign(expr, substitutions) == 0:
            raise GrowthUndecided(f"a zero factor {expr} has no growth class")
        return CONSTANT
    if expr == x:
        return Growth(sp.Integer(0), sp.Integer(1), sp.Integer(0))
    if isinstance(expr, sp.Mul):
        total = CONSTANT
        for factor in expr.args:
            total = total + _growth(factor, x, substitutions)
        return total
    if isinstance(expr, sp.Add):
        try:
            return _dominant_term(expr, x, substitutions)
        except GrowthUndecided:
            rewritten = _cancelled(expr, x, substitutions)
            if rewritten is None:
                raise
            return _growth(rewritten, x, substitutions)
    if isinstance(expr, sp.exp):
        return _exponential(expr.args[0], sp.Integer(1), x)
    if isinstance(expr, sp.Pow):
        base, exponent = expr.as_base_exp()
        if x not in exponent.free_symbols:
            return _growth(base, x, substitutions).scaled(exponent)
        factor, rounded = exponent.as_independent(x, as_Add=False)
        if x not in base.free_symbols and isinstance(rounded, (sp.ceiling, sp.floor)):
            # c^g <= c^ceiling(g) < c^(g + 1) = c c^g (reversed for c < 1; floor alike): c^g's class
            return _growth(sp.exp(rounded.args[0] * factor * sp.log(base)), x, substitutions)
        if x not in base.free_symbols:
            return _exponential(exponent, sp.log(base), x)
    if isinstance(expr, sp.log):
        return _logarithm(expr.args[0], x, substitutions)
    if isinstance(expr, sp.Piecewise):
        return _growth(_branch(expr, substitutions), x, substitutions)
    if isinstance(expr, (sp.ceiling, sp.floor, sp.Abs)):
        inner = _growth(expr.args[0], x, substitutions)
        if compare(inner, CONSTANT, substitutions) <= 0:
            raise GrowthUndecided(f"{expr}: the argument does not tend to infinity")
        return inner
    raise GrowthUndecided(f"no growth rule for {expr}")


def _branch(expr: sp.Piecewise, substitutions: dict[sp.Symbol, sp.Expr] | None) -> sp.Expr:
    """The branch of a Piecewise that applies: conditions Eq(a, b) are decided by the sign of a - b."""
    for value, condition in expr.args:
        if condition is sp.true:
            return value
        if isinstance(condition, sp.Eq):
            if _equal_sides(condition.lhs, condition.rhs, substitutions):
                return value
            continue
        raise GrowthUndecided(f"cannot decide the condition {condition} of {expr}")
    raise GrowthUndecided(f"no branch of {expr} applies")


def _equal_sides(lhs: sp.Expr, rhs: sp.Expr, substitutions: dict[sp.Symbol, sp.Expr] | None) -> bool:
    """lhs == rhs decided by the sign of the difference, or of the difference of logs (positive sides)."""
    try:
        return sign(lhs - rhs, substitutions) == 0
    except GrowthUndecided:
        if not (lhs.is_positive and rhs.is_positive):
            raise
        logs = sp.expand_log(sp.log(lhs), force=True) - sp.expand_log(sp.log(rhs), force=True)
        return sign(logs, substitutions) == 0


def _exponential(exponent: sp.Expr, log_base: sp.Expr, x: sp.Symbol) -> Growth:
    slope = sp.diff(exponent, x)
    if x in slope.free_symbols:
        raise GrowthUndecided(f"exponent {exponent} is not linear in {x}")
    return Growth(sp.simplify(slope * log_base), sp.Integer(0), sp.Integer(0))


def _dominant_term(expr: sp.Add, x: sp.Symbol, substitutions: dict[sp.Symbol, sp.Expr] | None) -> Growth:
    terms = [(term, _growth(term, x, substitutions)) for term in expr.args]
    best = terms[0][1]
    for _, cls in terms[1:]:
        if compare(cls, best, substitutions) > 0:
            best = cls
    for term, cls in terms:
        if compare(cls, best, substitutions) == 0 and _constant_sign(term, x, substitutions) <= 0:
            raise GrowthUndecided(f"the leading term {term} of {expr} is not eventually positive")
    return best


def _fractional_powers(expr: sp.Expr) -> int:
    """How many powers with a non-integer exponent the expression holds."""
    return sum(1 for e in sp.preorder_traversal(expr) if isinstance(e, sp.Pow) and not e.exp.is_integer)


def _cancelled(expr: sp.Add, x: sp.Symbol, substitutions: dict[sp.Symbol, sp.Expr] | None) -> sp.Expr | None:
    """The sum rewritten so that its cancelling leading terms are gone (module docstring), or None."""
    expanded = sp.expand(expr)
    if expanded != expr:
        return _eventually_positive(expanded, x, substitutions)
    signs = [(term, _constant_sign(term, x, substitutions)) for term in expr.args]
    positive = sp.Add(*(t for t, sign_ in signs if sign_ > 0))
    negative = -sp.Add(*(t for t, sign_ in signs if sign_ < 0))
    if positive == 0 or negative == 0 or any(sign_ == 0 for _, sign_ in signs):
        return None
    numerator = sp.expand(positive**2 - negative**2)
    if numerator == 0 or _fractional_powers(numerator) >= _fractional_powers(expr):
        return None
    return _eventually_positive(numerator, x, substitutions) and numerator / (positive + negative)


def _eventually_positive(
    expr: sp.Expr, x: sp.Symbol, substitutions: dict[sp.Symbol, sp.Expr] | None
) -> sp.Expr | None:
    """The expression, or None when it is one term whose constant factor is not positive (a sum's leading
    terms are checked by :func:`_dominant_term`)."""
    if expr == 0 or (not isinstance(expr, sp.Add) and _constant_sign(expr, x, substitutions) <= 0):
        return None
    return expr


def _constant_sign(term: sp.Expr, x: sp.Symbol, substitutions: dict[sp.Symbol, sp.Expr] | None) -> int:
    """The sign of the x-free factor of a term (the x-dependent factors are positive for large x)."""
    constant, _ = term.as_independent(x, as_Add=False)
    return sign(constant, substitutions)


def _logarithm(argument: sp.Expr, x: sp.Symbol, substitutions: dict[sp.Symbol, sp.Expr] | None) -> Growth:
    inner = _growth(argument, x, substitutions)
    if sign(inner.rate, substitutions) > 0:
        return Growth(sp.Integer(0), sp.Integer(1), sp.Integer(0))
    if sign(inner.rate, substitutions) == 0 and sign(inner.power, substitutions) > 0:
        return Growth(sp.Integer(0), sp.Integer(0), sp.Integer(1))
    if inner.rate == 0 and inner.power == 0 and sign(inner.log_power, substitutions) > 0:
        return Growth(sp.Integer(0), sp.Integer(0), sp.Integer(0), sp.Integer(1))
    if compare(inner, CONSTANT, substitutions) == 0:
        limit = sp.limit(argument, x, sp.oo)
        if tools.is_positive(limit - 1)[0]:
            return CONSTANT
    raise GrowthUndecided(f"ln({argument}) has no growth class here (argument class {inner})")


_TWO = sp.Integer(2)


def range_substitution(
    p: sp.Symbol, low: sp.Expr = sp.S.Zero, high: sp.Expr = _TWO, t: sp.Symbol = tools.t_range
) -> dict[sp.Symbol, sp.Expr]:
    """p -> low + (high - low) t/(1+t), t > 0: signs on p in (low, high) become decidable."""
    return {p: low + (high - low) * t / (1 + t)}


BOUNDED = "bounded"
"""The --assume word for a positive constant (a parameter that does not grow with the variable)."""


@dataclass(frozen=True)
class GrowthQuestion:
    """A user's expression of one variable with its parameters' assumptions, read by the safe language."""

    text: str
    expr: sp.Expr
    variable: sp.Symbol
    substitutions: dict[sp.Symbol, sp.Expr]

    def growth(self) -> Growth:
        """The class of the expression as the variable -> oo (GrowthUndecided when the rules cannot)."""
        return growth(self.expr, self.variable, self.substitutions)


def read_question(text: str, variable: str, assumptions: tuple[str, ...] = ()) -> GrowthQuestion:
    """Parse ``text`` with ``variable`` (positive, tending to oo) and the parameters of ``assumptions``:
    "alpha: bounded" (a positive constant) or "p: (0, 2)" in the --domain syntax (a parameter in that set;
    a bounded open range is written p = low + (high - low) t/(1 + t), t > 0, so signs on it are decidable).
    Every other name is an error (InvalidArgument naming it)."""
    from theory.errors import InvalidArgument
    from theory.prover.domain import MalformedDomain, parse_domain
    from theory.prover.language import MalformedExpression, parse_expression

    if not variable.isidentifier():
        raise InvalidArgument(f"--in {variable!r} is not a variable name")
    symbols = {variable: sp.Symbol(variable, real=True, positive=True)}  # as the --domain language makes it
    substitutions: dict[sp.Symbol, sp.Expr] = {}
    for entry in assumptions:
        name, _, spec = entry.partition(":")
        name, spec = name.strip(), spec.strip()
        if not name.isidentifier() or name == variable or name in symbols:
            raise InvalidArgument(f"--assume {entry!r}: give 'name: bounded' or 'name: SET', once per name")
        if spec == BOUNDED:
            symbols[name] = sp.Symbol(name, real=True, positive=True)
            continue
        try:
            (domain,) = parse_domain(f"{name}: {spec}").variables
        except (MalformedDomain, ValueError) as error:
            raise InvalidArgument(f"--assume {entry!r}: {error}") from None
        symbols[name] = domain.symbol()
        finite = not (math.isinf(domain.lower) or math.isinf(domain.upper))
        if finite and not domain.integer:
            low, high = (sp.Rational(str(e)) for e in (domain.lower, domain.upper))
            t = sp.Symbol(f"t_{name}", positive=True)
            substitutions.update(range_substitution(symbols[name], low, high, t))
    try:
        expr = parse_expression(text, symbols, "the expression")
    except MalformedExpression as error:
        message = str(error).replace(
            "add it to --domain", "declare it with --assume 'NAME: bounded' (or a set)"
        )
        raise InvalidArgument(message) from None
    return GrowthQuestion(text, expr, symbols[variable], substitutions)
