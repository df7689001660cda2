"""The embedded checkpoints' aliases live in one table, numerics.loading.aliases.ALIASES.

No other module of the packages spells out a collection of them (a tuple, list, set or dict literal
naming two or more aliases), so adding or renaming an alias is one edit; the loader's error message and
the command line's help name exactly the table's aliases.
"""

from __future__ import annotations

import ast

import pytest

from numerics.loading.aliases import ALIASES, DEFAULT_MODELS
from tests.helpers.paths import ROOT
from tests.helpers.source_tree import PACKAGES, modules, parsed
from theory.errors import CheckpointError

HOME = ROOT / "numerics" / "loading" / "aliases.py"


def alias_collections(tree: ast.AST) -> list[int]:
    """Lines of the tuple/list/set/dict literals in a parsed module that name two or more aliases."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Tuple | ast.List | ast.Set | ast.Dict):
            items = node.keys if isinstance(node, ast.Dict) else node.elts
            named = {item.value for item in items if isinstance(item, ast.Constant) and item.value in ALIASES}
            if len(named) >= 2:
                lines.append(node.lineno)
    return lines


def test_no_module_but_the_table_lists_the_aliases():
    found = {
        path.relative_to(ROOT).as_posix(): alias_collections(parsed(path))
        for path in modules(*PACKAGES)
        if path != HOME
    }
    assert {path: lines for path, lines in found.items() if lines} == {}
    assert alias_collections(parsed(HOME))  # the detector sees the table itself
    assert alias_collections(ast.parse('MODELS = ("minilm-l6", "minilm-l3")')) == [1]


def test_the_defaults_are_the_table_s_aliases_the_default_model_first():
    assert tuple(ALIASES) == DEFAULT_MODELS and DEFAULT_MODELS[0] == "minilm-l6"


def test_the_loader_and_the_help_name_the_table_s_aliases(capsys):
    from numerics.loading import load_weights
    from paper_checks.cli import main

    with pytest.raises(CheckpointError) as caught:
        load_weights("no/such/checkpoint")
    assert str(caught.value).endswith(f"one of the aliases {', '.join(ALIASES)}")
    with pytest.raises(SystemExit):
        main(["bound", "--help"])
    assert f"an alias ({', '.join(ALIASES)})" in " ".join(capsys.readouterr().out.split())
