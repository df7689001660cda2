"""The prover's expression language: one safe parser for statements, domains, certificates and tests.

Text is read by a small tokenizer and a recursive-descent parser with two back ends: :class:`Symbolic`
builds sympy objects with sympy's constructors (never ``eval``, ``sympify`` or ``parse_expr`` of the text),
and :class:`theory.prover.monomials.Monomials` builds, without sympy, the data tree sympy's constructors
would give a side written with numbers, variables, + - * / and integer powers (``None`` for anything else,
which is then read by the sympy back end). The same expressions are written to and read from certificates as
*data trees* (:func:`to_tree`, :func:`from_tree`). sympy is imported when the sympy back end or a tree
function first needs it.

Grammar (``^`` and ``**`` are powers, right-associative and binding tighter than a leading minus)::

    statement  := inequality (("and" | "&") inequality)*
    inequality := expr ("<=" | "<" | ">=" | ">") expr
    expr       := term (("+" | "-") term)*          term  := unary (("*" | "/") unary)*
    unary      := ("-" | "+") unary | power          power := atom (("^" | "**") unary)?
    atom       := number | name | function "(" expr ("," expr)* ")" | "(" expr ")"
                | "Piecewise" "(" "(" expr "," condition ")" ("," "(" expr "," condition ")")* ")"
    condition  := conjunction ("|" conjunction)*     conjunction := comparison ("&" comparison)*
    comparison := "True" | expr relation expr

Numbers are exact: ``1.13`` is 113/100, ``1e-6`` is 1/1000000. Names are the domain's variables, the
constants ``pi`` and ``E`` (``e`` too unless a variable is called e), and the functions of
:data:`FUNCTIONS`; ``sign`` and ``Heaviside`` are refused by name (they jump at 0: no enclosure of them
at a closed end is sound without the value there, and the prover does not guess it). Sizes are bounded
(:data:`MAX_TEXT`, :data:`MAX_DEPTH`, :data:`MAX_DIGITS`, :data:`MAX_BITS`): anything larger, or
anything else, raises :class:`MalformedExpression` with one line naming it.

A tree is nested JSON lists ``[op, arg, ...]``: ``["num", "p/q"]``, ``["var", name]``, ``["const", "pi" |
"e"]``, ``["add", ...]``, ``["mul", ...]``, ``["pow", base, exponent]``, ``[f, arg]`` for f in exp log erf
erfc atan tanh abs floor ceiling, ``["max", ...]``, ``["min", ...]``, ``["piecewise", [value, condition],
...]`` with conditions ``["le" | "lt", a, b]``, ``["and", ...]``, ``["or", ...]``, ``["true"]``.
Provenance: not applicable (parsing).
"""

from __future__ import annotations

import functools
import importlib
import math
import re
from collections.abc import Callable, Collection, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from theory.errors import InvalidArgument
from theory.prover.numbers import MAX_DIGITS, NumberOutOfRange, exact_number


class _Lazy:
    """A stand-in for a module imported on its first attribute access: this module names sympy at its top
    and imports it only when a function that uses it runs (``prove`` on a statement the polynomial back
    end reads imports no sympy)."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attribute: str) -> Any:
        return getattr(importlib.import_module(self._name), attribute)


if TYPE_CHECKING:
    import sympy as sp
else:
    sp = _Lazy("sympy")

MAX_TEXT = 20000
"""Characters of one expression, statement or domain text."""
MAX_DEPTH = 100
"""Nesting depth of parentheses, operators and trees. Each level of the parser takes about six Python
frames and sympy's constructors recurse over the tree again, so the depth stays well below Python's
recursion limit (1000): 199 nested parentheses or 142 nested exp( overflowed it at a limit of 200."""
MAX_BITS = 4000
"""Bits of an exact rational the parser builds (a power of numbers is refused before it is computed)."""


class MalformedExpression(InvalidArgument):
    """Text or a tree outside the language (unknown name, bad syntax, a size limit exceeded)."""


def normal_cdf(x: sp.Expr) -> sp.Expr:
    """Phi(x) = (1 + erf(x / sqrt 2)) / 2, the standard normal distribution function."""
    return (1 + sp.erf(x / sp.sqrt(2))) / 2


def normal_density(x: sp.Expr) -> sp.Expr:
    """phi(x) = exp(-x^2 / 2) / sqrt(2 pi), the standard normal density."""
    return sp.exp(-(x**2) / 2) / sp.sqrt(2 * sp.pi)


def _unary(name: str) -> Callable[..., sp.Expr]:
    """sympy's function ``name`` of one argument (looked up when it is applied)."""
    return lambda argument: getattr(sp, name)(argument)


def _extremum(name: str, args: tuple[sp.Expr, ...]) -> sp.Expr:
    """Max or Min of the arguments; left unevaluated when sympy cannot order two of them (a constant
    such as atan(2) + atan(1/2) - pi/2, exactly 0, that sympy cannot compare with 0): the kernel
    encloses it instead."""
    kind = getattr(sp, name)
    try:
        return kind(*args)
    except ValueError:
        return kind(*args, evaluate=False)


FUNCTIONS: dict[str, tuple[int, Callable[..., sp.Expr]]] = {
    "exp": (1, _unary("exp")),
    "log": (1, _unary("log")),
    "ln": (1, _unary("log")),
    "log2": (1, lambda argument: sp.log(argument) / sp.log(2)),
    "sqrt": (1, _unary("sqrt")),
    "erf": (1, _unary("erf")),
    "erfc": (1, _unary("erfc")),
    "atan": (1, _unary("atan")),
    "tanh": (1, _unary("tanh")),
    "Abs": (1, _unary("Abs")),
    "abs": (1, _unary("Abs")),
    "floor": (1, _unary("floor")),
    "ceiling": (1, _unary("ceiling")),
    "Phi": (1, normal_cdf),
    "phi": (1, normal_density),
    "Max": (-2, lambda *args: _extremum("Max", args)),
    "Min": (-2, lambda *args: _extremum("Min", args)),
}
"""name -> (arity, builder); arity -2 means two or more arguments. ``diff(f, x)`` and ``Piecewise`` are
parsed separately."""
REFUSED = {
    "sign": "sign jumps at 0",
    "Heaviside": "Heaviside jumps at 0",
}
_TOKEN = re.compile(
    r"\s*(?:(?P<number>\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)"
    r"|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<op>\*\*|<=|>=|[-+*/^(),<>&|]))"
)
_RELATIONS = ("<=", "<", ">=", ">")


def _rational(value: Fraction) -> sp.Rational:
    return sp.Rational(value.numerator, value.denominator)


def _guard(expr: sp.Expr, where: str) -> sp.Expr:
    """Refuse non-finite results (1/0, oo) and rationals beyond MAX_BITS."""
    if expr.has(sp.zoo, sp.nan, sp.oo, -sp.oo) or not isinstance(expr, sp.Expr):
        raise MalformedExpression(f"{where}: the expression is not a finite real expression ({expr})")
    for number in expr.atoms(sp.Rational):
        if max(abs(number.p), number.q).bit_length() > MAX_BITS:
            raise MalformedExpression(f"{where}: a number has more than {MAX_BITS} bits")
    return expr


def _power(base: sp.Expr, exponent: sp.Expr, where: str) -> sp.Expr:
    """base ** exponent, refusing a power of numbers too large to compute."""
    if isinstance(base, sp.Rational) and isinstance(exponent, sp.Integer):
        size = max(abs(base.p), base.q).bit_length()
        if size * abs(int(exponent)) > MAX_BITS:
            raise MalformedExpression(f"{where}: {base}^{exponent} is too large (more than {MAX_BITS} bits)")
    elif isinstance(exponent, sp.Rational) and abs(exponent.p).bit_length() > 64:
        raise MalformedExpression(f"{where}: the exponent {exponent} is too large")
    return _guard(sp.Pow(base, exponent), where)


class Parsed(NamedTuple):
    """An expression as sympy made it (``expr``, simplified by sympy's constructors: ``x/x`` is 1) and its
    *typed tree* (``typed``): the data tree of the text exactly as written, each ``a/b`` as a * b^-1, ``-a``
    as -1 * a, ``sqrt(a)`` as a^(1/2), ``Phi``/``phi`` by their formulas; only arithmetic of numbers is
    folded (``1/2`` is the number 1/2). The typed tree is what the text means: its definedness is decided on
    it (:mod:`theory.prover.definedness`). ``typed`` is None where no tree can say it (a derivative sympy
    leaves unevaluated)."""

    expr: Any
    typed: Any


_MINUS_ONE = ["num", "-1"]


def _typed(op: str, *args: Any) -> Any:
    """The typed tree [op, *args], arithmetic of numbers folded (a power of numbers only for an integer
    exponent, of a nonzero base when negative, within MAX_BITS); None when an argument has no tree."""
    if any(arg is None or (op == "piecewise" and None in arg) for arg in args):
        return None
    if all(arg[0] == "num" for arg in args) and op in ("add", "mul", "pow"):
        values = [Fraction(arg[1]) for arg in args]
        if op == "add":
            return ["num", rational_text(sum(values, Fraction(0)))]
        if op == "mul":
            return ["num", rational_text(math.prod(values, start=Fraction(1)))]
        base, exponent = values
        size = max(abs(base.numerator), base.denominator).bit_length() * abs(exponent.numerator)
        if exponent.denominator == 1 and (base != 0 or exponent >= 0) and size <= MAX_BITS:
            return ["num", rational_text(base ** int(exponent))]
    return [op, *args]


def _typed_phi_cdf(a: Any) -> Any:
    """Phi(a) = (1 + erf(a * 2^(-1/2))) / 2."""
    return _typed(
        "mul",
        ["num", "1/2"],
        _typed("add", ["num", "1"], _typed("erf", _typed("mul", a, ["pow", ["num", "2"], ["num", "-1/2"]]))),
    )


def _typed_phi_density(a: Any) -> Any:
    """phi(a) = exp(-a^2 / 2) * (2 pi)^(-1/2)."""
    return _typed(
        "mul",
        _typed("exp", _typed("mul", ["num", "-1/2"], _typed("pow", a, ["num", "2"]))),
        ["pow", ["mul", ["num", "2"], ["const", "pi"]], ["num", "-1/2"]],
    )


def _typed_unary(op: str) -> Callable[[Any], Any]:
    return lambda argument: _typed(op, argument)


_TYPED_FUNCTIONS: dict[str, Callable[..., Any]] = {
    **{
        name: _typed_unary(name) for name in ("exp", "log", "erf", "erfc", "atan", "tanh", "floor", "ceiling")
    },
    "ln": _typed_unary("log"),
    "log2": lambda argument: _typed(
        "mul", _typed("log", argument), ["pow", ["log", ["num", "2"]], _MINUS_ONE]
    ),
    "sqrt": lambda argument: _typed("pow", argument, ["num", "1/2"]),
    "Abs": _typed_unary("abs"),
    "abs": _typed_unary("abs"),
    "Phi": _typed_phi_cdf,
    "phi": _typed_phi_density,
    "Max": lambda *arguments: _typed("max", *arguments),
    "Min": lambda *arguments: _typed("min", *arguments),
}
"""name -> the typed tree of ``name(arguments...)`` (the same names as :data:`FUNCTIONS`)."""


def _typed_derivative(derivative: sp.Expr, function: Any) -> Any:
    """The typed tree of diff(f, x): f' + 0 * f, so that f (as typed) must be defined where its derivative
    is asked, and the derivative (sympy's, of the expression sympy made of f, equal to f near every point
    where the typed f is defined) must be defined there too; None when the derivative has no tree."""
    try:
        tree = to_tree(derivative)
    except MalformedExpression:
        return None
    return None if function is None else ["add", tree, ["mul", ["num", "0"], function]]


class Builder(Protocol):
    """A back end of the parser: what each construct of the grammar builds from its parts' expressions.
    An expression is whatever the back end makes (a sympy object, a polynomial); ``None`` means "this back
    end cannot say it", and every construct with a ``None`` part is ``None`` too."""

    names: Collection[str]
    """The variables of the domain."""

    def number(self, value: Fraction) -> Any: ...
    def variable(self, name: str) -> Any: ...
    def constant(self, name: str) -> Any: ...
    def add(self, a: Any, b: Any) -> Any: ...
    def negate(self, a: Any) -> Any: ...
    def multiply(self, a: Any, b: Any) -> Any: ...
    def reciprocal(self, a: Any) -> Any: ...
    def power(self, base: Any, exponent: Any) -> Any: ...
    def function(self, name: str, arguments: list[Any]) -> Any: ...
    def derivative(self, function: Parsed, variable: Parsed) -> Parsed: ...
    def piecewise(self, pieces: list[tuple[Any, Any]]) -> Any: ...
    def true(self) -> Any: ...
    def relation(self, left: Any, relation: str, right: Any) -> Any: ...
    def join(self, operator: str, a: Any, b: Any) -> Any: ...


class Symbolic:
    """The sympy back end: each construct as sympy's constructors make it, over the variables ``symbols``
    (name -> symbol); a non-finite result (1/0, oo), a division by 0 and a number beyond MAX_BITS are
    :class:`MalformedExpression`."""

    def __init__(self, symbols: Mapping[str, sp.Symbol], where: str) -> None:
        self.symbols = symbols
        self.names: Collection[str] = symbols.keys()
        self.where = where

    def number(self, value: Fraction) -> Any:
        return _rational(value)

    def variable(self, name: str) -> Any:
        return self.symbols[name]

    def constant(self, name: str) -> Any:
        return sp.pi if name == "pi" else sp.E

    def add(self, a: Any, b: Any) -> Any:
        return _guard(a + b, self.where)

    def negate(self, a: Any) -> Any:
        return -a

    def multiply(self, a: Any, b: Any) -> Any:
        return _guard(a * b, self.where)

    def reciprocal(self, a: Any) -> Any:
        if a == 0:
            raise MalformedExpression(f"{self.where}: division by 0")
        return 1 / a

    def power(self, base: Any, exponent: Any) -> Any:
        return _power(base, exponent, self.where)

    def function(self, name: str, arguments: list[Any]) -> Any:
        return _guard(FUNCTIONS[name][1](*arguments), self.where)

    def derivative(self, function: Parsed, variable: Parsed) -> Parsed:
        if not (isinstance(variable.expr, sp.Symbol) and variable.expr.name in self.symbols):
            raise MalformedExpression(f"{self.where}: diff(f, x) needs a variable x of the domain")
        derivative = _guard(sp.diff(function.expr, variable.expr), self.where)
        return Parsed(derivative, _typed_derivative(derivative, function.typed))

    def piecewise(self, pieces: list[tuple[Any, Any]]) -> Any:
        try:
            built = sp.Piecewise(*pieces)
        except RecursionError:  # sympy (1.14)'s Piecewise.eval re-enters itself on some conditions
            raise MalformedExpression(
                f"{self.where}: sympy cannot build this Piecewise (its simplification of the conditions "
                "recurses without end); write the conditions with fewer terms or in another order"
            ) from None
        return _guard(built, self.where)

    def true(self) -> Any:
        return sp.true

    def relation(self, left: Any, relation: str, right: Any) -> Any:
        return {"<=": sp.Le, "<": sp.Lt, ">=": sp.Ge, ">": sp.Gt}[relation](left, right)

    def join(self, operator: str, a: Any, b: Any) -> Any:
        return sp.And(a, b) if operator == "&" else sp.Or(a, b)


def _built(build: Callable[..., Any], *parts: Any) -> Any:
    """``build(*parts)``, or None when a part is None (its back end could not say it)."""
    return None if any(part is None for part in parts) else build(*parts)


class _Parser:
    """Recursive descent over the token list (see the module docstring for the grammar), each construct
    built by the back end ``builder`` and as its typed tree."""

    def __init__(self, text: str, builder: Builder, where: str) -> None:
        if len(text) > MAX_TEXT:
            raise MalformedExpression(f"{where}: the text has more than {MAX_TEXT} characters")
        self.where = where
        self.builder = builder
        self.tokens: list[tuple[str, str]] = []
        self.spans: list[tuple[int, int]] = []
        self.text = text
        position = 0
        stripped = text.rstrip()
        while position < len(stripped):
            match = _TOKEN.match(stripped, position)
            if match is None or match.end() == position:
                here = stripped[position : position + 10].strip()
                raise MalformedExpression(f"{where}: cannot parse {text.strip()!r} at {here!r}")
            kind = match.lastgroup
            assert kind is not None
            self.tokens.append((kind, match.group(kind)))
            self.spans.append(match.span(kind))
            position = match.end()
        self.index = 0
        self.depth = 0

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def take(self, value: str | None = None) -> tuple[str, str]:
        token = self.peek()
        if token is None or (value is not None and token[1] != value):
            found = "the end" if token is None else repr(token[1])
            raise MalformedExpression(f"{self.where}: cannot parse: expected {value or 'more'} at {found}")
        self.index += 1
        return token

    def at(self, *values: str) -> bool:
        token = self.peek()
        return token is not None and token[0] == "op" and token[1] in values

    def at_word(self, word: str) -> bool:
        token = self.peek()
        return token is not None and token == ("name", word)

    def nested(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise MalformedExpression(f"{self.where}: nesting deeper than {MAX_DEPTH}")

    def negated(self, operand: Parsed) -> Parsed:
        return Parsed(_built(self.builder.negate, operand.expr), _typed("mul", _MINUS_ONE, operand.typed))

    def expression(self) -> Parsed:
        self.nested()
        result = self.term()
        while self.at("+", "-"):
            operator = self.take()[1]
            right = self.term()
            if operator == "-":
                right = self.negated(right)
            result = Parsed(
                _built(self.builder.add, result.expr, right.expr), _typed("add", result.typed, right.typed)
            )
        self.depth -= 1
        return result

    def term(self) -> Parsed:
        result = self.unary()
        while self.at("*", "/"):
            operator = self.take()[1]
            right = self.unary()
            if operator == "/":
                right = Parsed(
                    _built(self.builder.reciprocal, right.expr), _typed("pow", right.typed, _MINUS_ONE)
                )
            result = Parsed(
                _built(self.builder.multiply, result.expr, right.expr),
                _typed("mul", result.typed, right.typed),
            )
        return result

    def unary(self) -> Parsed:
        if self.at("-", "+"):
            self.nested()
            operator = self.take()[1]
            operand = self.unary()
            self.depth -= 1
            return operand if operator == "+" else self.negated(operand)
        return self.power()

    def power(self) -> Parsed:
        base = self.atom()
        if self.at("^", "**"):
            self.take()
            self.nested()
            exponent = self.unary()
            self.depth -= 1
            return Parsed(
                _built(self.builder.power, base.expr, exponent.expr),
                _typed("pow", base.typed, exponent.typed),
            )
        return base

    def arguments(self) -> list[Parsed]:
        self.take("(")
        values = [self.expression()]
        while self.at(","):
            self.take()
            values.append(self.expression())
        self.take(")")
        return values

    def atom(self) -> Parsed:
        kind, value = self.take()
        if kind == "number":
            try:
                number = exact_number(value, self.where)
            except NumberOutOfRange as error:
                raise MalformedExpression(str(error)) from None
            return Parsed(self.builder.number(number), ["num", rational_text(number)])
        if kind == "op":
            if value != "(":
                raise MalformedExpression(f"{self.where}: cannot parse: unexpected {value!r}")
            inner = self.expression()
            self.take(")")
            return inner
        return self.named(value)

    def named(self, name: str) -> Parsed:
        if name in self.builder.names:
            if self.at("("):
                raise MalformedExpression(f"{self.where}: the variable {name} is not a function")
            return Parsed(self.builder.variable(name), ["var", name])
        if name in REFUSED:
            raise MalformedExpression(
                f"{self.where}: {name} is refused ({REFUSED[name]}; write Piecewise((a, x < 0), (b, True)) "
                "with the value at 0 said)"
            )
        if name == "pi":
            return Parsed(self.builder.constant("pi"), ["const", "pi"])
        if name in ("E", "e"):
            return Parsed(self.builder.constant("e"), ["const", "e"])
        if name == "diff":
            arguments = self.arguments()
            if len(arguments) != 2:
                raise MalformedExpression(
                    f"{self.where}: diff takes two arguments, diff(f, x) (nest diff for a higher derivative)"
                )
            return self.builder.derivative(*arguments)
        if name == "Piecewise":
            return self.piecewise()
        if name not in FUNCTIONS and not self.at("("):
            raise MalformedExpression(f"{self.where}: variable {name} has no domain; add it to --domain")
        if name not in FUNCTIONS:
            known = ", ".join(sorted(self.builder.names)) or "none"
            raise MalformedExpression(
                f"{self.where}: unknown name {name!r} (variables: {known}; functions: "
                f"{', '.join(FUNCTIONS)}, diff, Piecewise; constants: pi, E)"
            )
        arity = FUNCTIONS[name][0]
        values = self.arguments()
        if (arity >= 0 and len(values) != arity) or (arity < 0 and len(values) < -arity):
            raise MalformedExpression(f"{self.where}: {name} takes {abs(arity)} argument(s)")
        arguments = [value.expr for value in values]
        expr = None if None in arguments else self.builder.function(name, arguments)
        return Parsed(expr, _TYPED_FUNCTIONS[name](*(value.typed for value in values)))

    def piecewise(self) -> Parsed:
        self.take("(")
        pieces = []
        while True:
            self.take("(")
            value = self.expression()
            self.take(",")
            pieces.append((value, self.condition()))
            self.take(")")
            if not self.at(","):
                break
            self.take()
        self.take(")")
        parts = [(value.expr, condition.expr) for value, condition in pieces]
        expr = None if any(None in part for part in parts) else self.builder.piecewise(parts)
        return Parsed(
            expr, _typed("piecewise", *([value.typed, condition.typed] for value, condition in pieces))
        )

    def condition(self) -> Parsed:
        """A condition: ``|`` joins conjunctions, ``&`` binds tighter (as in Python and sympy)."""
        return self.joined("|", self.conjunction)

    def conjunction(self) -> Parsed:
        return self.joined("&", self.comparison)

    def joined(self, operator: str, operand: Callable[[], Parsed]) -> Parsed:
        result = operand()
        while self.at(operator):
            self.take()
            other = operand()
            joined = _built(lambda a, b: self.builder.join(operator, a, b), result.expr, other.expr)
            result = Parsed(joined, _typed("and" if operator == "&" else "or", result.typed, other.typed))
        return result

    def comparison(self) -> Parsed:
        self.nested()
        if self.at_word("True"):
            self.take()
            result = Parsed(self.builder.true(), ["true"])
        else:
            left = self.expression()
            relation = self.take()[1]
            if relation not in _RELATIONS:
                raise MalformedExpression(f"{self.where}: a Piecewise condition needs one of <=, <, >=, >")
            right = self.expression()
            low, high = (left, right) if relation.startswith("<") else (right, left)
            tree = _typed("le" if relation in ("<=", ">=") else "lt", low.typed, high.typed)
            expr = _built(lambda a, b: self.builder.relation(a, relation, b), left.expr, right.expr)
            result = Parsed(expr, tree)
        self.depth -= 1
        return result

    def inequality(self) -> tuple[Parsed, str, Parsed]:
        left = self.expression()
        if not self.at(*_RELATIONS):
            found = self.peek()
            raise MalformedExpression(
                f"{self.where}: expected one of <=, <, >=, > "
                f"{'at the end' if found is None else f'at {found[1]!r}'} (one relation per inequality)"
            )
        relation = self.take()[1]
        right = self.expression()
        if self.at(*_RELATIONS):
            raise MalformedExpression(
                f"{self.where}: two relations in one inequality; write one of <=, <, >=, > per inequality "
                "(join several with 'and')"
            )
        return left, relation, right

    def done(self) -> None:
        if self.peek() is not None:
            raise MalformedExpression(f"{self.where}: cannot parse: unexpected {self.peek()[1]!r}")  # type: ignore[index]


def parse_expression(text: str, symbols: Mapping[str, sp.Symbol], where: str = "expression") -> sp.Expr:
    """The sympy expression of ``text`` (see :func:`parse_typed_expression`)."""
    return parse_typed_expression(text, symbols, where).expr


def parse_typed_expression(text: str, symbols: Mapping[str, sp.Symbol], where: str = "expression") -> Parsed:
    """The sympy expression of ``text`` over the variables ``symbols`` (name -> symbol), with its typed tree.

    >>> x = sp.Symbol("x")
    >>> parse_typed_expression("2^-x + 1.5", {"x": x}).expr
    3/2 + 2**(-x)
    """
    if not text.strip():
        raise MalformedExpression(f"{where}: the expression is empty")
    parser = _Parser(text, Symbolic(symbols, where), where)
    expr = parser.expression()
    parser.done()
    return expr


def parse_inequalities(
    text: str, symbols: Mapping[str, sp.Symbol], where: str = "statement"
) -> list[tuple[str, sp.Expr, str, sp.Expr]]:
    """The (text, lhs, relation, rhs) of each inequality of "lhs <= rhs and lhs2 < rhs2" (relations inside
    a Piecewise belong to its conditions)."""
    return [
        (piece, left.expr, relation, right.expr)
        for piece, left, relation, right in parse_typed_inequalities(text, symbols, where)
    ]


def parse_typed_inequalities(
    text: str, symbols: Mapping[str, sp.Symbol], where: str = "statement"
) -> list[tuple[str, Parsed, str, Parsed]]:
    """:func:`parse_inequalities` with each side's typed tree."""
    return read_inequalities(text, Symbolic(symbols, where), where)


def read_inequalities(
    text: str, builder: Builder, where: str = "statement"
) -> list[tuple[str, Parsed, str, Parsed]]:
    """The (text, lhs, relation, rhs) of each inequality of the statement, each side built by the back end
    ``builder`` (its ``expr``, None where that back end cannot say it) and as its typed tree."""
    if not text.strip():
        raise MalformedExpression(f"{where}: the statement is empty; write e.g. 'log(1 + x) <= x'")
    parser = _Parser(text, builder, where)
    parts = []
    while True:
        first = parser.index
        left, relation, right = parser.inequality()
        piece = text[parser.spans[first][0] : parser.spans[parser.index - 1][1]]
        parts.append((piece, left, relation, right))
        if not (parser.at("&") or parser.at_word("and")):
            break
        parser.take()
    parser.done()
    return parts


# --- trees: expressions as data ---

_UNARY_FUNCTIONS = {
    "exp": "exp",
    "log": "log",
    "erf": "erf",
    "erfc": "erfc",
    "atan": "atan",
    "tanh": "tanh",
    "Abs": "abs",
    "floor": "floor",
    "ceiling": "ceiling",
}
"""sympy's function of one argument -> its tree node."""


@functools.cache
def _unary_trees() -> dict[type, str]:
    """sympy's class of each function of :data:`_UNARY_FUNCTIONS` -> its tree node."""
    return {getattr(sp, name): op for name, op in _UNARY_FUNCTIONS.items()}


def rational_text(value: Fraction | sp.Rational) -> str:
    """ "p/q" (or "p") of an exact rational."""
    return str(Fraction(int(value.numerator), int(value.denominator)))


def to_tree(expr: sp.Basic) -> list[Any]:
    """The data tree of a sympy expression (see the module docstring); MalformedExpression for a part
    outside the language."""
    if isinstance(expr, sp.Symbol):
        return ["var", expr.name]
    if isinstance(expr, sp.Rational):
        return ["num", rational_text(expr)]
    if isinstance(expr, sp.Float):
        return ["num", rational_text(sp.Rational(expr))]
    if expr is sp.pi:
        return ["const", "pi"]
    if expr is sp.E:
        return ["const", "e"]
    if expr is sp.true:
        return ["true"]
    if isinstance(expr, sp.Add):
        return ["add", *(to_tree(a) for a in expr.args)]
    if isinstance(expr, sp.Mul):
        return ["mul", *(to_tree(a) for a in expr.args)]
    if isinstance(expr, sp.Pow):
        if expr.base is sp.E:
            return ["exp", to_tree(expr.exp)]
        return ["pow", to_tree(expr.base), to_tree(expr.exp)]
    if isinstance(expr, (sp.Max, sp.Min)):
        return ["max" if isinstance(expr, sp.Max) else "min", *(to_tree(a) for a in expr.args)]
    if type(expr) in _unary_trees() and len(expr.args) == 1:
        return [_unary_trees()[type(expr)], to_tree(expr.args[0])]
    if isinstance(expr, sp.Piecewise):
        return ["piecewise", *([to_tree(value), to_tree(condition)] for value, condition in expr.args)]
    if isinstance(expr, (sp.Lt, sp.Le)):
        return ["le" if isinstance(expr, sp.Le) else "lt", to_tree(expr.lhs), to_tree(expr.rhs)]
    if isinstance(expr, (sp.Gt, sp.Ge)):
        return ["lt" if isinstance(expr, sp.Gt) else "le", to_tree(expr.rhs), to_tree(expr.lhs)]
    if isinstance(expr, (sp.And, sp.Or)):
        return ["and" if isinstance(expr, sp.And) else "or", *(to_tree(a) for a in expr.args)]
    raise MalformedExpression(
        f"{type(expr).__name__} (in {expr}) is outside the prover's language (no data tree for it)"
    )


_FROM_UNARY = {op: name for name, op in _UNARY_FUNCTIONS.items()}
"""A tree node of one argument -> sympy's function."""


def from_tree(tree: Any, symbols: Mapping[str, sp.Symbol], where: str = "tree", depth: int = 0) -> sp.Basic:
    """The sympy expression of a data tree, its variables bound to ``symbols`` (never to a tree's own
    assumptions); MalformedExpression for anything else."""
    if depth > MAX_DEPTH:
        raise MalformedExpression(f"{where}: the tree is deeper than {MAX_DEPTH}")
    if not (isinstance(tree, list) and tree and isinstance(tree[0], str)):
        raise MalformedExpression(f"{where}: {str(tree)[:60]!r} is not a tree [op, args...]")
    op, args = tree[0], tree[1:]

    def sub(item: Any) -> Any:
        return from_tree(item, symbols, where, depth + 1)

    if op == "num" and len(args) == 1 and isinstance(args[0], str):
        try:
            value = Fraction(args[0]) if "/" in args[0] or args[0].lstrip("-").isdigit() else None
        except (ValueError, ZeroDivisionError):
            value = None
        if value is None or len(args[0]) > MAX_DIGITS * 2:
            raise MalformedExpression(f"{where}: {args[0][:40]!r} is not a rational 'p/q'")
        return _rational(value)
    if op == "var" and len(args) == 1:
        if args[0] not in symbols:
            raise MalformedExpression(f"{where}: variable {args[0]!r} is not in the domain")
        return symbols[args[0]]
    if op == "const" and args in (["pi"], ["e"]):
        return sp.pi if args[0] == "pi" else sp.E
    if op == "true" and not args:
        return sp.true
    if op in ("add", "mul", "max", "min", "and", "or") and args:
        parts = [sub(a) for a in args]
        build = {"add": sp.Add, "mul": sp.Mul, "max": sp.Max, "min": sp.Min, "and": sp.And, "or": sp.Or}[op]
        return _guard(build(*parts), where) if op not in ("and", "or") else build(*parts)
    if op == "pow" and len(args) == 2:
        return _power(sub(args[0]), sub(args[1]), where)
    if op in _FROM_UNARY and len(args) == 1:
        return _guard(getattr(sp, _FROM_UNARY[op])(sub(args[0])), where)
    if op in ("le", "lt") and len(args) == 2:
        return (sp.Le if op == "le" else sp.Lt)(sub(args[0]), sub(args[1]))
    if op == "piecewise" and args and all(isinstance(a, list) and len(a) == 2 for a in args):
        return _guard(sp.Piecewise(*((sub(v), sub(c)) for v, c in args)), where)
    raise MalformedExpression(f"{where}: unknown tree node {op!r} with {len(args)} argument(s)")
