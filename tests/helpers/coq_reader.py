"""An independent reader of the Coq statements of theorem_3_1.v, for the fidelity tests.

It parses a lemma's statement (Coq's real-number notation: + - * /, prefix - and /, ^, application,
``fun x => e``, ``if Rle_dec a b then e else e``) and evaluates it with mpmath: ``rsum g k`` is
sum_{i<k} g(i), ``sum_f_R0 g N`` is sum_{i=0}^{N} g(i), ``RInt f a b`` is mpmath's quadrature,
``nprod C k`` the product of the lengths of C(0..k-1), ``Rpower a b`` is a^b, ``INR`` the identity.
Definitions of the file (``Definition ramp (margin t : R) : R := ...``) are read the same way.
Written for the tests, sharing no code with the exporter or with sympy's printers.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import mpmath as mp

TOKEN = re.compile(r"\s*(\d+|[A-Za-z_][A-Za-z0-9_'.]*|<=|=>|->|<|=|\+|-|\*|/|\^|\(|\)|:)")
RELATIONS = ("<=", "<", "=")

BUILTINS: dict[str, Any] = {
    "sqrt": mp.sqrt,
    "ln": mp.log,
    "exp": mp.exp,
    "Rabs": abs,
    "INR": lambda k: mp.mpf(k),
    "IZR": lambda k: mp.mpf(k),
    "Raux.Zceil": mp.ceil,
    "Rpower": lambda x, y: mp.power(x, y),
    "rsum": lambda g, k: mp.fsum(g(i) for i in range(int(k))),
    "sum_f_R0": lambda g, n: mp.fsum(g(i) for i in range(int(n) + 1)),
    "RInt": lambda g, a, b: mp.quad(g, [a, b]),
    "nprod": lambda lists, k: math.prod(len(lists(i)) for i in range(int(k))),
    "length": len,
}


def tokens(text: str) -> list[str]:
    """The tokens of ``text`` (a ValueError on anything outside the fragment)."""
    out, position = [], 0
    text = text.rstrip()
    while position < len(text):
        match = TOKEN.match(text, position)
        if match is None:
            raise ValueError(f"cannot read {text[position : position + 20]!r}")
        out.append(match.group(1))
        position = match.end()
    return out


class _Parser:
    def __init__(self, text: str) -> None:
        self.items = tokens(text)
        self.at = 0

    def peek(self) -> str | None:
        return self.items[self.at] if self.at < len(self.items) else None

    def take(self, expected: str | None = None) -> str:
        token = self.items[self.at]
        if expected is not None and token != expected:
            raise ValueError(f"expected {expected!r}, got {token!r}")
        self.at += 1
        return token

    def relation(self) -> tuple[str, Callable[..., Any], Callable[..., Any]]:
        left = self.sum()
        operator = self.take()
        if operator not in RELATIONS:
            raise ValueError(f"expected a relation, got {operator!r}")
        right = self.sum()
        if self.peek() is not None:
            raise ValueError(f"unread: {self.items[self.at :]}")
        return operator, left, right

    def sum(self) -> Callable[..., Any]:
        value = self.product()
        while self.peek() in ("+", "-"):
            operator, right, left = self.take(), self.product(), value
            value = (
                (lambda e, a=left, b=right: a(e) + b(e))
                if operator == "+"
                else (lambda e, a=left, b=right: a(e) - b(e))
            )
        return value

    def product(self) -> Callable[..., Any]:
        value = self.unary()
        while self.peek() in ("*", "/"):
            operator, right, left = self.take(), self.unary(), value
            value = (
                (lambda e, a=left, b=right: a(e) * b(e))
                if operator == "*"
                else (lambda e, a=left, b=right: mp.mpf(a(e)) / b(e))
            )
        return value

    def unary(self) -> Callable[..., Any]:
        if self.peek() == "-":
            self.take()
            inner = self.unary()
            return lambda e: -inner(e)
        if self.peek() == "/":
            self.take()
            inner = self.unary()
            return lambda e: 1 / mp.mpf(inner(e))
        return self.power()

    def power(self) -> Callable[..., Any]:
        base = self.application()
        if self.peek() == "^":
            self.take()
            exponent = self.unary()
            return lambda e: mp.power(base(e), int(exponent(e)))
        return base

    def application(self) -> Callable[..., Any]:
        head = self.atom()
        arguments = []
        while self.peek() is not None and self.peek() not in (
            *RELATIONS,
            "+",
            "-",
            "*",
            "/",
            "^",
            ")",
            "then",
            "else",
            "->",
            ":",
        ):
            arguments.append(self.atom())
        if not arguments:
            return head
        return lambda e: head(e)(*(argument(e) for argument in arguments))

    def atom(self) -> Callable[..., Any]:
        token = self.take()
        if token == "(":
            if self.peek() == "fun":
                self.take()
                name = self.take()
                self.take("=>")
                body = self.sum()
                self.take(")")
                return lambda e: lambda value: body({**e, name: value})
            inner = self.sum()
            self.take(")")
            return inner
        if token == "if":
            test = self.take()
            left, right = self.atom(), self.atom()
            self.take("then")
            yes = self.sum()
            self.take("else")
            no = self.sum()
            compare = {"Rle_dec": lambda x, y: x <= y, "Rlt_dec": lambda x, y: x < y}[test]
            return lambda e: yes(e) if compare(left(e), right(e)) else no(e)
        if token.isdigit():
            return lambda e: mp.mpf(token)
        return lambda e: e[token] if token in e else BUILTINS[token]


def _split_top(text: str, separator: str) -> list[str]:
    """``text`` split at each ``separator`` outside parentheses."""
    parts, depth, start, index = [], 0, 0, 0
    while index < len(text):
        char = text[index]
        depth += char == "("
        depth -= char == ")"
        if depth == 0 and text.startswith(separator, index):
            parts.append(text[start:index])
            start = index + len(separator)
            index = start
            continue
        index += 1
    parts.append(text[start:])
    return parts


def statement(text: str, name: str) -> str:
    """The statement of the Lemma/Theorem/Corollary ``name`` of ``text``: after its binders, up to the
    final period before ``Proof.``."""
    match = re.search(rf"(?:Lemma|Theorem|Corollary)\s+{re.escape(name)}\b(.*?)\.\s*\nProof\.", text, re.S)
    if match is None:
        raise ValueError(f"no lemma {name}")
    body = match.group(1)
    colon = _split_top(body, ":")
    return ":".join(colon[1:]).strip()


def hypothesis(text: str, name: str) -> str:
    """The statement of the Section's ``Hypothesis name : ... .``."""
    match = re.search(rf"^Hypothesis\s+{re.escape(name)}\s*:(.*?)\.\n", text, re.S | re.M)
    if match is None:
        raise ValueError(f"no hypothesis {name}")
    return match.group(1).strip()


def conclusion(text: str, name: str) -> tuple[str, Callable[..., Any], Callable[..., Any]]:
    """(relation, left, right) of the conclusion of lemma or hypothesis ``name`` (after its last top-level
    ``->``); the sides are functions of an environment {name: value}."""
    try:
        body = statement(text, name)
    except ValueError:
        body = hypothesis(text, name)
    last = _split_top(body, "->")[-1].strip()
    if last.startswith("exists "):  # exists L, (...) /\ claim: the claim
        last = ",".join(_split_top(last, ",")[1:])
        last = _split_top(last, "/\\")[-1]
    return _Parser(last).relation()


def conjuncts(text: str, name: str) -> list[tuple[str, Callable[..., Any], Callable[..., Any]]]:
    """Each (relation, left, right) of the conclusion of lemma ``name`` when it is a conjunction
    ``a < b /\\ c <= d`` (split at its top-level ``/\\``)."""
    last = _split_top(statement(text, name), "->")[-1].strip()
    return [_Parser(part).relation() for part in _split_top(last, "/\\")]


def definitions(text: str) -> dict[str, Any]:
    """Each ``Definition name (x y : R) : R := body.`` of ``text`` as a Python function of x, y."""
    found: dict[str, Any] = {}
    for match in re.finditer(r"Definition\s+(\w+)\s*\(([\w\s]+):\s*R\)\s*:\s*R\s*:=\s*(.*?)\.\n", text, re.S):
        name, parameters, body = match.group(1), match.group(2).split(), match.group(3)
        parsed = _Parser(body)
        expression = parsed.sum()

        def function(*values: Any, expression: Any = expression, parameters: Any = parameters) -> Any:
            return expression(dict(zip(parameters, values, strict=True)))

        found[name] = function
    return found


def side(expression: Callable[..., Any], environment: dict[str, Any]) -> Any:
    """A side of a conclusion evaluated in ``environment``."""
    return expression(environment)
