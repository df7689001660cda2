"""A derivation file (TOML) read into plain records: variables, assumptions, definitions and the chain.

Format (docs/derive.md)::

    title = "ln(1 + x) <= x <= x + x^2 on [0, oo)"
    [variables]                       # every variable's set, in the prover's --domain syntax
    x = "[0, oo)"
    [assumptions]                     # named inequalities over the variables (a step may use them)
    small = "x <= 1"
    [definitions]                     # abbreviations, expanded wherever they appear (no cycles)
    q = "x + x^2"
    [[steps]]                         # E0: the first entry is an expression only
    expr = "log(1 + x)"
    [[steps]]                         # E_{i-1} relation E_i, optionally naming what it uses
    name = "log below its tangent"
    relation = "<="
    expr = "x"
    uses = ["small", "lemma:NAME", "file:earlier.toml"]
    [[steps]]                         # or: by a fact under a substitution (docs/derive.md)
    relation = "<="
    expr = "x + x^2 + 1"
    by = "lemma:NAME"                 # lemma:NAME, piece:NAME (Theorem 4.1's chain), file:PATH, an assumption
    substitution = { t = "x^2" }      # the fact's variable -> an expression of this file
    factor = "1"                      # the step's gap is factor * the fact's gap (factor >= 0, proved)

Every expression, relation and domain is read by the prover's safe language (:mod:`theory.prover.language`;
no code is evaluated). Every problem raises :class:`MalformedDerivation` with one line "FILE, line N:
problem". Provenance: not applicable (parsing).
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sympy as sp

from theory.errors import InvalidArgument
from theory.prover.domain import Domain, MalformedDomain, parse_domain
from theory.prover.language import (
    MalformedExpression,
    parse_expression,
    parse_inequalities,
    parse_typed_expression,
)
from theory.prover.safe_files import read_bytes

RELATIONS = ("=", "<=", "<", ">=", ">")
MAX_FILE_BYTES = 1_000_000
MAX_EXPANDED = 20_000
"""Nodes of a definition written out as a tree (:func:`tree_size`), as many as the characters of one
expression's text (MAX_TEXT): 14 levels of ``d_i = (d_{i-1} + 1)*(d_{i-1} + 2)`` in 461 bytes make
about 10^5 nodes (printing them alone took seconds), each level doubling."""
LEMMA_PREFIX, FILE_PREFIX, PIECE_PREFIX = "lemma:", "file:", "piece:"
STEP_KEYS = ("expr", "relation", "name", "uses", "by", "substitution", "factor", "multiplier")


class MalformedDerivation(InvalidArgument):
    """A derivation file that cannot be read: bad TOML, an unknown variable, lemma or assumption, a circular
    definition or reference, a malformed expression, relation or domain."""


@dataclass(frozen=True)
class Assumption:
    """gap >= 0 (> 0 when strict), named; ``text`` as written."""

    name: str
    text: str
    gap: sp.Expr
    strict: bool
    line: int


@dataclass(frozen=True)
class FactUse:
    """A step by a fact under a substitution: the step's gap is ``factor`` times the fact's gap with each
    of its variables replaced by ``substitution``'s expression (times ``multiplier``, when given, before
    the normal forms are compared)."""

    name: str
    substitution: dict[str, sp.Expr]
    factor: sp.Expr
    multiplier: sp.Expr | None


@dataclass(frozen=True)
class Step:
    """E_{i-1} relation E_i; ``uses`` names assumptions, ``lemma:NAME`` or ``file:PATH`` entries; ``by``
    a fact it is an instance of."""

    name: str
    relation: str
    lhs: sp.Expr
    rhs: sp.Expr
    text: str
    uses: tuple[str, ...]
    line: int
    by: FactUse | None = None


@dataclass(frozen=True)
class DerivationFile:
    """A read derivation: the domain, its named assumptions and the steps (definitions expanded)."""

    path: Path
    title: str
    domain: Domain
    assumptions: dict[str, Assumption]
    steps: tuple[Step, ...]

    def where(self, line: int) -> str:
        """'FILE, line N' for messages."""
        return f"{self.path}, line {line}"


class _Source:
    """The file's text, to name the line of a key or value in messages."""

    def __init__(self, path: Path, text: str) -> None:
        self.path, self.lines = path, text.splitlines()

    def line_of(self, *needles: str, after: int = 1) -> int:
        """The first line from ``after`` on holding every needle (``after`` when none does)."""
        for number, line in enumerate(self.lines[after - 1 :], start=after):
            if all(needle in line for needle in needles):
                return number
        return after

    def fail(self, line: int, problem: str) -> MalformedDerivation:
        return MalformedDerivation(f"{self.path}, line {line}: {problem}")


def _load(path: Path) -> tuple[_Source, dict[str, Any]]:
    raw = read_bytes(path, MAX_FILE_BYTES, error=MalformedDerivation, what="derivation file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise MalformedDerivation(f"{path}, line 1: not UTF-8 text (a derivation file is TOML)") from None
    source = _Source(path, text)
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise source.fail(1, "bad TOML: nested too deeply") from None
    except ValueError as error:  # TOMLDecodeError; an integer of more than 4300 digits
        if not isinstance(error, tomllib.TOMLDecodeError):
            raise source.fail(1, "bad TOML: a number of more than 4300 digits") from None
        found = re.search(r"line (\d+)", str(error))
        line = int(found.group(1)) if found else 1
        raise source.fail(line, f"bad TOML: {str(error).split(' (at')[0]}") from None
    for key, value in data.items():
        _plain_text(source, key, value, source.line_of(key))
    return source, data


WHITESPACE = frozenset("\t\n")
"""The control characters a string value may hold (an expression written over several lines)."""


def _plain_text(source: _Source, key: str, value: Any, line: int) -> None:
    """Every key (a name: printed, or quoted in messages) holds no control or format character, and every
    string value none but a tab or a newline (:func:`_printable`; the title and step names, printed on
    lines of their own, are held to the stricter rule); MalformedDerivation otherwise, under ``key``."""
    _printable(source, line, key, f"the key {key!r}")
    values = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for inner, item in values:
        _plain_text(source, inner if isinstance(inner, str) else key, item, line)
    if isinstance(value, str):
        _printable(
            source, line, value.translate(dict.fromkeys(map(ord, WHITESPACE))), f"the value of {key!r}"
        )


def _table(source: _Source, data: dict[str, Any], key: str) -> dict[str, str]:
    table = data.get(key, {})
    if not isinstance(table, dict):
        raise source.fail(source.line_of(key), f'[{key}] must be a table of name = "text" entries')
    for name, value in table.items():
        if not isinstance(value, str):
            raise source.fail(source.line_of(name), f"{key}.{name} must be a string")
    return table


def _domain(source: _Source, table: dict[str, str]) -> Domain:
    if not table:
        raise source.fail(source.line_of("[variables]"), "[variables] must declare at least one variable")
    variables = []
    for name, spec in table.items():
        try:
            (variable,) = parse_domain(f"{name}: {spec}").variables
        except (MalformedDomain, ValueError) as error:
            raise source.fail(source.line_of(name, spec), f"variable {name}: {error}") from None
        variables.append(variable)
    return Domain(tuple(variables))


def _definitions(source: _Source, table: dict[str, str], domain: Domain) -> dict[sp.Symbol, sp.Expr]:
    """name -> expression in the variables only (definitions expanded in dependency order)."""
    clash = set(table) & set(domain.names)
    if clash:
        name = sorted(clash)[0]
        raise source.fail(source.line_of(name), f"definition {name} has the name of a variable")
    placeholders = {name: sp.Symbol(name) for name in table}
    symbols = {**domain.symbols(), **placeholders}
    parsed = {}
    for name, text in table.items():
        line = source.line_of(name, text)
        parsed[name] = _expression(source, line, text, symbols, f"definition {name}")
    expanded: dict[str, sp.Expr] = {}

    def expand(name: str, path: tuple[str, ...]) -> sp.Expr:
        if name in path:
            cycle = " -> ".join((*path[path.index(name) :], name))
            raise source.fail(source.line_of(name, table[name]), f"circular definition: {cycle}")
        if name not in expanded:
            expr = parsed[name]
            inner = {
                placeholders[d]: expand(d, (*path, name))
                for d in table
                if placeholders[d] in expr.free_symbols
            }
            expanded[name] = expr.xreplace(inner)
            if tree_size(expanded[name], sizes) > MAX_EXPANDED:
                raise source.fail(
                    source.line_of(name, table[name]),
                    f"definition {name} expands to more than {MAX_EXPANDED} nodes (definitions inside "
                    "definitions grow exponentially); give an intermediate quantity a variable instead",
                )
        return expanded[name]

    sizes: dict[sp.Basic, int] = {}
    try:
        for name in table:
            expand(name, ())
    except RecursionError:
        raise source.fail(source.line_of("definitions"), "definitions nested too deeply") from None
    return {placeholders[name]: expanded[name] for name in table}


def tree_size(expr: sp.Basic, sizes: dict[sp.Basic, int]) -> int:
    """The number of nodes of ``expr`` written out as a tree (what printing, differentiating or
    deciding it walks), computed over its shared subexpressions once each (``sizes`` remembers them):
    linear in the expression's distinct nodes even when the tree is exponentially larger."""
    stack = [expr]
    while stack:
        node = stack[-1]
        pending = [arg for arg in node.args if arg not in sizes]
        if pending:
            stack.extend(pending)
            continue
        stack.pop()
        sizes[node] = 1 + sum(sizes[arg] for arg in node.args)
    return sizes[expr]


def _expression(source: _Source, line: int, text: str, symbols: dict[str, sp.Symbol], where: str) -> sp.Expr:
    try:
        return parse_expression(text, symbols, where)
    except MalformedExpression as error:
        message = str(error).replace("has no domain; add it to --domain", "is not declared in [variables]")
        raise source.fail(line, message) from None


def _assumptions(
    source: _Source,
    table: dict[str, str],
    symbols: dict[str, sp.Symbol],
    definitions: dict[sp.Symbol, sp.Expr],
) -> dict[str, Assumption]:
    found = {}
    for name, text in table.items():
        line = source.line_of(name, text)
        try:
            parts = parse_inequalities(text, symbols, f"assumption {name}")
        except MalformedExpression as error:
            raise source.fail(line, str(error)) from None
        if len(parts) != 1:
            raise source.fail(line, f"assumption {name} must be one inequality (name each one separately)")
        ((_, left, relation, right),) = parts
        gap = (right - left if relation.startswith("<") else left - right).xreplace(definitions)
        found[name] = Assumption(name, text, gap, relation in ("<", ">"), line)
    return found


def _steps(
    source: _Source,
    data: dict[str, Any],
    symbols: dict[str, sp.Symbol],
    definitions: dict[sp.Symbol, sp.Expr],
    assumptions: dict[str, Assumption],
) -> tuple[Step, ...]:
    entries = data.get("steps")
    if not isinstance(entries, list) or len(entries) < 2 or not all(isinstance(e, dict) for e in entries):
        raise source.fail(
            source.line_of("steps"), "give at least two [[steps]]: the start E0, then E0 relation E1"
        )
    starts = [n for n, line in enumerate(source.lines, start=1) if line.strip().startswith("[[steps]]")]
    steps: list[Step] = []
    previous: sp.Expr | None = None
    for index, entry in enumerate(entries):
        line = starts[index] if index < len(starts) else 1
        text = entry.get("expr")
        if not isinstance(text, str):
            raise source.fail(line, f'step {index} needs expr = "an expression"')
        line = source.line_of("expr", text, after=line)
        unknown = set(entry) - set(STEP_KEYS)
        if unknown:
            raise source.fail(
                line, f"step {index}: unknown key {sorted(unknown)[0]!r} ({', '.join(STEP_KEYS)})"
            )
        expr = _expression(source, line, text, symbols, f"step {index}").xreplace(definitions)
        relation, uses = entry.get("relation"), entry.get("uses", [])
        if previous is None:
            if relation is not None or uses or "by" in entry:
                raise source.fail(line, "the first step is the start E0: an expr only, no relation or uses")
            previous = expr
            continue
        if relation not in RELATIONS:
            raise source.fail(
                line, f"step {index}: relation must be one of {', '.join(RELATIONS)}, not {relation!r}"
            )
        if not isinstance(uses, list) or not all(isinstance(u, str) for u in uses):
            raise source.fail(line, f"step {index}: uses must be a list of names")
        for use in uses:
            if not use.startswith((LEMMA_PREFIX, FILE_PREFIX)) and use not in assumptions:
                known = ", ".join(assumptions) or "none"
                raise source.fail(line, f"step {index}: unknown assumption {use!r} (assumptions: {known})")
        name = _printable(source, line, str(entry.get("name", f"step {index}")), f"step {index}'s name")
        by = _fact_use(source, line, index, entry, symbols, definitions, assumptions)
        if by is not None and relation == "=":
            raise source.fail(
                line, f"step {index}: an identity (=) is decided by normal forms, not by a fact"
            )
        steps.append(Step(str(name), relation, previous, expr, text, tuple(uses), line, by))
        previous = expr
    directions = {step.relation[0] for step in steps if step.relation != "="}
    if len(directions) > 1:
        raise source.fail(starts[0] if starts else 1, "the steps mix <= and >=: a chain goes one way")
    return tuple(steps)


def _fact_use(
    source: _Source,
    line: int,
    index: int,
    entry: dict[str, Any],
    symbols: dict[str, sp.Symbol],
    definitions: dict[sp.Symbol, sp.Expr],
    assumptions: dict[str, Assumption],
) -> FactUse | None:
    """The step's ``by``, ``substitution``, ``factor`` and ``multiplier`` (None without ``by``)."""
    by = entry.get("by")
    if by is None:
        if set(entry) & {"substitution", "factor", "multiplier"}:
            raise source.fail(line, f'step {index}: substitution, factor and multiplier need by = "FACT"')
        return None
    prefixes = (LEMMA_PREFIX, FILE_PREFIX, PIECE_PREFIX)
    if not isinstance(by, str) or not (by.startswith(prefixes) or by in assumptions):
        known = ", ".join(assumptions) or "none"
        raise source.fail(
            line, f"step {index}: by must be lemma:NAME, piece:NAME, file:PATH or an assumption ({known})"
        )
    table = entry.get("substitution", {})
    if not isinstance(table, dict) or not all(isinstance(v, str) for v in table.values()):
        raise source.fail(line, f'step {index}: substitution must be a table {{ variable = "expression" }}')

    def read(text: str, where: str) -> sp.Expr:
        return _expression(source, line, text, symbols, f"step {index}'s {where}").xreplace(definitions)

    substitution = {str(name): read(text, f"substitution of {name}") for name, text in table.items()}
    texts = {key: entry.get(key, default) for key, default in (("factor", "1"), ("multiplier", None))}
    for key, text in texts.items():
        if text is not None and not isinstance(text, str):
            raise source.fail(line, f'step {index}: {key} must be a string "expression"')
    multiplier = texts["multiplier"]
    return FactUse(
        by,
        substitution,
        read(str(texts["factor"]), "factor"),
        None if multiplier is None else read(multiplier, "multiplier"),
    )


def _require_defined(
    source: _Source, data: dict[str, Any], domain: Domain, symbols: dict[str, sp.Symbol]
) -> None:
    """Every step's expression, as typed (definitions expanded as typed), is defined on the whole domain
    (:func:`theory.prover.definedness.check_defined`); else the file is refused naming the point. Applied
    to a file without assumptions (an assumption narrows where the chain is claimed)."""
    from theory.prover.definedness import UndefinedStatement, check_defined

    table = _table(source, data, "definitions")
    typed: dict[str, Any] = {}

    def expand(tree: Any) -> Any:
        if tree is None or not isinstance(tree, list):
            return tree
        if tree[0] == "var" and tree[1] in table:
            if tree[1] not in typed:
                typed[tree[1]] = expand(parse_typed_expression(table[tree[1]], symbols, tree[1]).typed)
            return typed[tree[1]]
        return [tree[0], *(expand(arg) if isinstance(arg, list) else arg for arg in tree[1:])]

    for index, entry in enumerate(data["steps"]):
        text = entry["expr"]
        line = source.line_of("expr", text)
        tree = expand(parse_typed_expression(text, symbols, f"step {index}").typed)
        if tree is None:
            raise source.fail(line, f"step {index}: a part has no typed tree; write the derivative out")
        try:
            check_defined(tree, domain, f"step {index} ({text.strip()[:60]!r})")
        except UndefinedStatement as error:
            raise source.fail(line, str(error)) from None


def read_derivation(path: Path) -> DerivationFile:
    """Read and check the structure of a derivation file (nothing is decided here)."""
    source, data = _load(path)
    unknown = set(data) - {"title", "variables", "assumptions", "definitions", "steps"}
    if unknown:
        key = sorted(unknown)[0]
        raise source.fail(
            source.line_of(key), f"unknown key {key!r} (title, variables, assumptions, definitions, steps)"
        )
    domain = _domain(source, _table(source, data, "variables"))
    definitions = _definitions(source, _table(source, data, "definitions"), domain)
    symbols = {**domain.symbols(), **{s.name: s for s in definitions}}
    assumptions = _assumptions(source, _table(source, data, "assumptions"), symbols, definitions)
    steps = _steps(source, data, symbols, definitions, assumptions)
    if not assumptions:
        _require_defined(source, data, domain, symbols)
    title = _printable(source, source.line_of("title"), str(data.get("title", path.stem)), "the title")
    return DerivationFile(path, title, domain, assumptions, steps)


def _printable(source: _Source, line: int, text: str, what: str) -> str:
    """``text`` if it holds no control or format character (an escape sequence, a carriage return, a
    bidirectional override: printed raw, they could clear the screen or fake a verdict line); else
    MalformedDerivation naming the first one."""
    for character in text:
        if unicodedata.category(character) in ("Cc", "Cf", "Zl", "Zp"):
            raise source.fail(
                line, f"{what} holds the control character U+{ord(character):04X}; names are printed text"
            )
    return text
