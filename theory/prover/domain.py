"""The domain of a statement: one interval, half-line or set of integers per variable.

Syntax (one entry per variable, entries separated by commas)::

    x: [0, 10]            closed interval         p: (0, 2]          half-open
    t: (0, oo)            open half-line          y: real            the whole line
    z: >= 0               a half-line by bound    N: integer >= 1    integers from 1 on
    k: integer in [1, 8]  an integer range

Endpoints are exact rationals ("1/3", "0.25", "-2") or +-oo; an integer domain is a set of integers.
Each variable becomes a sympy symbol carrying what its domain implies (real, integer, positive,
nonnegative), so sympy simplifies with the right assumptions. Provenance: not applicable (parsing).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from theory.errors import InvalidArgument, UnknownName
from theory.prover.numbers import NumberOutOfRange, rational

if TYPE_CHECKING:
    import sympy as sp

Bound = Fraction | float
"""An endpoint: an exact rational, or -math.inf / math.inf."""


class MalformedDomain(InvalidArgument):
    """A --domain entry cannot be parsed, or describes an empty set."""


def parse_number(text: str, where: str) -> Bound:
    """An exact rational or +-oo from text such as "1/3", "0.25", "-oo"."""
    cleaned = text.strip().replace(" ", "")
    if cleaned in ("oo", "+oo", "inf", "+inf"):
        return math.inf
    if cleaned in ("-oo", "-inf"):
        return -math.inf
    try:
        return rational(cleaned, where)
    except InvalidArgument as error:
        message = str(error)
        if not isinstance(error, NumberOutOfRange):
            message = (
                f"{where}: endpoint {text.strip()!r} is not a rational number or oo "
                "(write e.g. 1/3, 0.25, -oo)"
            )
        raise MalformedDomain(message) from None


def format_bound(value: Bound) -> str:
    """The inverse of :func:`parse_number` ("3/2", "-oo")."""
    if isinstance(value, float):
        return "oo" if value > 0 else "-oo"
    return str(value)


@dataclass(frozen=True)
class VariableDomain:
    """One variable's set: [lower, upper] with open/closed ends, over the reals or the integers."""

    name: str
    lower: Bound
    upper: Bound
    lower_open: bool = False
    upper_open: bool = False
    integer: bool = False

    def __post_init__(self) -> None:
        if self.integer:
            if not math.isinf(self.lower):
                first = math.ceil(self.lower)
                first += 1 if (self.lower_open and first == self.lower) else 0
                object.__setattr__(self, "lower", Fraction(first))
            if not math.isinf(self.upper):
                last = math.floor(self.upper)
                last -= 1 if (self.upper_open and last == self.upper) else 0
                object.__setattr__(self, "upper", Fraction(last))
            object.__setattr__(self, "lower_open", math.isinf(self.lower))
            object.__setattr__(self, "upper_open", math.isinf(self.upper))
        else:
            object.__setattr__(self, "lower_open", self.lower_open or math.isinf(self.lower))
            object.__setattr__(self, "upper_open", self.upper_open or math.isinf(self.upper))
        empty = self.lower > self.upper or (self.lower == self.upper and (self.lower_open or self.upper_open))
        if empty:
            raise MalformedDomain(f"domain of {self.name} is empty: {self.describe()}")

    def describe(self) -> str:
        """The domain in the parser's syntax, e.g. "(0, 2]" or "integer in [1, oo)"."""
        left = "(" if self.lower_open else "["
        right = ")" if self.upper_open else "]"
        text = f"{left}{format_bound(self.lower)}, {format_bound(self.upper)}{right}"
        return f"integer in {text}" if self.integer else text

    def contains(self, value: Fraction) -> bool:
        """value lies in the set."""
        if self.integer and value.denominator != 1:
            return False
        above = value > self.lower or (value == self.lower and not self.lower_open)
        below = value < self.upper or (value == self.upper and not self.upper_open)
        return above and below

    def symbol(self) -> sp.Symbol:
        """The sympy symbol with the assumptions the set implies."""
        import sympy as sp

        return sp.Symbol(self.name, **self.assumptions())

    def assumptions(self) -> dict[str, bool]:
        """The assumptions the set implies, as sympy's keywords: real, integer, and the strongest of
        positive, nonnegative, negative, nonpositive that holds."""
        assumptions: dict[str, bool] = {"real": True}
        if self.integer:
            assumptions["integer"] = True
        if self.lower > 0 or (self.lower == 0 and self.lower_open):
            assumptions["positive"] = True
        elif self.lower >= 0:
            assumptions["nonnegative"] = True
        elif self.upper < 0 or (self.upper == 0 and self.upper_open):
            assumptions["negative"] = True
        elif self.upper <= 0:
            assumptions["nonpositive"] = True
        return assumptions

    def to_json(self) -> str:
        """The entry "name: set" of the domain syntax."""
        return f"{self.name}: {self.describe()}"


@dataclass(frozen=True)
class Domain:
    """The product of the variables' sets, in the order given."""

    variables: tuple[VariableDomain, ...]

    def __getitem__(self, name: str) -> VariableDomain:
        for variable in self.variables:
            if variable.name == name:
                return variable
        raise UnknownName(f"the domain has no variable {name!r}; its variables are {list(self.names)}")

    @property
    def names(self) -> tuple[str, ...]:
        """The variable names, in order."""
        return tuple(v.name for v in self.variables)

    def symbols(self) -> dict[str, sp.Symbol]:
        """name -> assumption-carrying sympy symbol."""
        return {v.name: v.symbol() for v in self.variables}

    def to_text(self) -> str:
        """The domain in the parser's syntax (parse_domain(d.to_text()) == d)."""
        return ", ".join(v.to_json() for v in self.variables)


_INTERVAL = re.compile(r"^([\[(])\s*([^,]+?)\s*,\s*([^,]+?)\s*([\])])$")
_COMPARISON = re.compile(r"^(>=|<=|>|<)\s*(.+)$")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _split_entries(text: str) -> list[str]:
    entries: list[str] = []
    current: list[str] = []
    depth = 0
    for char in text:
        if char in "[(":
            depth += 1
        elif char in "])":
            depth -= 1
        if char in ",;" and depth == 0:
            entries.append("".join(current))
            current = []
        else:
            current.append(char)
    entries.append("".join(current))
    return [e.strip() for e in entries if e.strip()]


def _parse_set(name: str, spec: str) -> VariableDomain:
    where = f"domain of {name}"
    integer = False
    if spec.startswith("integer"):
        integer = True
        spec = spec[len("integer") :].strip()
        if spec.startswith("in "):
            spec = spec[3:].strip()
    if spec in ("", "real"):
        if spec == "" and not integer:
            raise MalformedDomain(f"{where} is empty text; write e.g. '{name}: [0, 1]' or '{name}: real'")
        return VariableDomain(name, -math.inf, math.inf, integer=integer)
    interval = _INTERVAL.match(spec)
    if interval:
        left, low, high, right = interval.groups()
        return VariableDomain(
            name,
            parse_number(low, where),
            parse_number(high, where),
            lower_open=left == "(",
            upper_open=right == ")",
            integer=integer,
        )
    comparison = _COMPARISON.match(spec)
    if comparison:
        operator, value_text = comparison.groups()
        value = parse_number(value_text, where)
        if math.isinf(value):
            raise MalformedDomain(f"{where}: a bound {operator} {value_text.strip()} must be finite")
        if operator.startswith(">"):
            return VariableDomain(name, value, math.inf, lower_open=operator == ">", integer=integer)
        return VariableDomain(name, -math.inf, value, upper_open=operator == "<", integer=integer)
    raise MalformedDomain(
        f"{where}: cannot read {spec!r}; write an interval '[0, 10]', '(0, 2]', '(0, oo)', a bound '>= 1', "
        "'real', or prefix 'integer'"
    )


def parse_domain(text: str) -> Domain:
    """Parse "x: [0, 10], p: (0, 2], N: integer >= 1" (see the module docstring).

    >>> parse_domain("p: (0, 2], N: integer >= 1").to_text()
    'p: (0, 2], N: integer in [1, oo)'
    """
    variables: list[VariableDomain] = []
    for entry in _split_entries(text):
        if ":" not in entry:
            raise MalformedDomain(f"domain entry {entry!r} has no ':'; write 'name: set', e.g. 'x: [0, 1]'")
        name, spec = (part.strip() for part in entry.split(":", 1))
        if not _NAME.match(name):
            raise MalformedDomain(f"domain entry {entry!r}: {name!r} is not a variable name")
        if name in {v.name for v in variables}:
            raise MalformedDomain(f"variable {name} is given two domains")
        variables.append(_parse_set(name, spec))
    if not variables:
        raise MalformedDomain("the domain is empty; give at least one variable, e.g. 'x: [0, 1]'")
    return Domain(tuple(variables))
