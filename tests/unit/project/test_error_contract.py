"""One error contract (theory.errors): an error a user can cause in a public function is a
:class:`~theory.errors.SpecboundError` whose message names the value given and what was expected, so one
``except SpecboundError`` catches every one of them; no package function raises a bare ValueError or
KeyError (an AST scan of every module of the three packages)."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.helpers.paths import ROOT
from tests.helpers.source_tree import PACKAGES, modules, parsed
from theory.errors import InvalidArgument, SpecboundError, UnknownName

BARE = ("ValueError", "KeyError")


def bare_raises(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, name) of every ``raise ValueError(...)`` / ``raise KeyError`` in a parsed module."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and node.exc is not None:
            raised = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            if isinstance(raised, ast.Name) and raised.id in BARE:
                yield node.lineno, raised.id


def test_the_scan_finds_a_planted_bare_raise() -> None:
    planted = "def f(x):\n    if x:\n        raise KeyError(x)\n    raise ValueError\n"
    assert sorted(bare_raises(ast.parse(planted))) == [(3, "KeyError"), (4, "ValueError")]
    assert list(bare_raises(ast.parse("def f(x):\n    raise InvalidArgument(f'x={x}')\n"))) == []


def test_no_package_function_raises_a_bare_value_or_key_error() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: raise {name}"
        for path in modules(*PACKAGES)
        for line, name in bare_raises(parsed(path))
    ]
    assert found == [], "raise a theory.errors class (InvalidArgument, UnknownName, ...) instead"


def _box() -> Any:
    from theory.prover.box import Box
    from theory.prover.domain import parse_domain

    return Box.of_domain(parse_domain("x: [0, 1]"))


def _calls() -> list[tuple[str, Callable[[], object], type[SpecboundError], tuple[str, ...]]]:
    """(what, the call, the error class, the words its message must hold: the value and the expected)."""
    from theory import regimes
    from theory.prover.domain import parse_domain
    from theory.prover.numbers import exact_number
    from theory.proxy import SUMMAND

    return [
        ("depth_law", lambda: regimes.depth_law("ours", "bounded"), UnknownName, ("'ours'", "ours_l1")),
        (
            "depth_law assumption",
            lambda: regimes.depth_law("ours_l1", "bounded"),
            UnknownName,
            ("'bounded'", "bounded_alpha"),
        ),
        ("width_law", lambda: regimes.width_law("flat", "edelman"), UnknownName, ("'edelman'", "ours_l2")),
        ("row", lambda: regimes.row("spiky", "ours_l1", "bounded_alpha"), UnknownName, ("'spiky'", "rank")),
        ("depth_bound", lambda: regimes.depth_bound("l3", "bounded_alpha", 1), UnknownName, ("'l3'", "ours")),
        ("Domain[name]", lambda: parse_domain("x: [0, 1]")["y"], UnknownName, ("'y'", "['x']")),
        ("Box.bounds", lambda: _box().bounds("y"), UnknownName, ("'y'", "['x']")),
        ("Formula.subs", lambda: SUMMAND.subs(zeta=1), InvalidArgument, ("zeta", "takes")),
        ("exact_number", lambda: exact_number("1.2.3", "--eps"), InvalidArgument, ("'1.2.3'", "--eps")),
    ]


@pytest.mark.parametrize("index", range(len(_calls())), ids=[what for what, *_ in _calls()])
def test_a_bad_name_or_value_raises_a_specbound_error_naming_it(index: int) -> None:
    _, call, error_class, words = _calls()[index]
    with pytest.raises(error_class) as raised:
        call()
    assert isinstance(raised.value, SpecboundError)
    message = str(raised.value)
    assert all(word in message for word in words), message
    assert not message.startswith(("'", '"')), "the message itself, not a quoted KeyError repr"


def test_an_unknown_lemma_is_named_with_the_known_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    from types import SimpleNamespace

    from theory import registry

    monkeypatch.setattr(registry, "all_lemmas", lambda: (SimpleNamespace(name="lemma_one"),))
    with pytest.raises(UnknownName, match=r"no lemma 'lemma_tw0'; known: \['lemma_one'\]"):
        registry.lemma_by_name("lemma_tw0")


def test_an_unknown_name_is_still_caught_as_a_key_error_and_a_bad_value_as_a_value_error() -> None:
    assert issubclass(UnknownName, KeyError)
    assert issubclass(InvalidArgument, ValueError)


def test_growth_undecided_is_a_specbound_error() -> None:
    from theory.growth import GrowthUndecided

    assert issubclass(GrowthUndecided, SpecboundError)
    assert issubclass(GrowthUndecided, ArithmeticError)
