"""The verifier's room: theory.prover and theory.derive import, of theory, only theory.prover, theory.derive,
theory.errors and theory._sympy_tools; the paper's content reaches them as parameters (theory.paper_proofs).
theory/recheck.py, the one entry that re-checks any certificate, keeps to the same rule.

Every module under theory/prover and theory/derive, and theory/recheck.py, is parsed (ast) and every import
in it is read: top-level, inside functions (lazy), under TYPE_CHECKING, relative, and
``importlib.import_module`` / ``__import__`` of a constant name. A planted source shows the scan catches
each kind.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.helpers.paths import ROOT
from tests.helpers.source_tree import modules, parsed

VERIFIER = ("theory/prover", "theory/derive")
ENTRY = "theory/recheck.py"
ALLOWED = ("theory.prover", "theory.derive", "theory.errors", "theory._sympy_tools")


def _package_of(path: Path) -> str:
    """The dotted package a module file sits in (theory/prover/coq/files.py -> theory.prover.coq)."""
    return ".".join(path.relative_to(ROOT).parent.parts)


def _imported(tree: ast.AST, package: str) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in ``tree``, a parsed module of ``package``; for
    ``from M import a, b`` each name as M.a, M.b (``from theory import interpolation`` imports a module)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, *([base] if base else [])])
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
        elif (
            isinstance(node, ast.Call)
            and (
                (isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
                or (isinstance(node.func, ast.Name) and node.func.id == "__import__")
            )
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.append((node.lineno, node.args[0].value))
    return found


def _violations(tree: ast.AST, package: str) -> list[tuple[int, str]]:
    """The imports of theory outside the verifier's allowed modules."""
    return [
        (line, name)
        for line, name in _imported(tree, package)
        if (name == "theory" or name.startswith("theory."))
        and not any(name == allowed or name.startswith(allowed + ".") for allowed in ALLOWED)
    ]


def test_the_prover_and_derive_import_nothing_of_the_paper():
    scanned = [*sorted(modules(*VERIFIER)), ROOT / ENTRY]
    assert len(scanned) > 40  # the scan reads the verifier's modules, not an empty folder
    offending = {
        str(path.relative_to(ROOT)): found
        for path in scanned
        if (found := _violations(parsed(path), _package_of(path)))
    }
    assert offending == {}


def test_the_scan_catches_a_planted_import_of_every_kind():
    planted = """
from __future__ import annotations
import importlib
from typing import TYPE_CHECKING

import theory.prover.box
from theory.errors import UnknownName
from theory._sympy_tools import equal
from theory.derive.facts import Facts
from . import search
from theory import interpolation

if TYPE_CHECKING:
    from theory.blueprint import nodes

def lazy():
    from theory.lipschitz import softmax_constant
    import theory.prover.numbers, theory.schatten
    from ...registry import all_lemmas
    from .kernel import verify
    return importlib.import_module("theory.assembled"), __import__("theory.prover.chain")
"""
    assert sorted(_violations(ast.parse(planted), "theory.prover.coq")) == [
        (11, "theory.interpolation"),
        (14, "theory.blueprint.nodes"),
        (17, "theory.lipschitz.softmax_constant"),
        (18, "theory.schatten"),
        (19, "theory.registry.all_lemmas"),
        (21, "theory.assembled"),
    ]
