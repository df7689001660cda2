"""docs/architecture.md is a true map: its table of commands is the list ``specbound --help`` prints, each
row naming the command's module, and its layout names every subpackage of the three packages."""

from __future__ import annotations

import argparse
import re

from paper_checks.cli import build_parser
from tests.helpers.paths import ROOT

DOC = ROOT / "docs" / "architecture.md"
PACKAGES = ("theory", "numerics", "paper_checks")


def documented_commands(text: str) -> dict[str, str]:
    """command -> module of the rows of the "## Commands" table (| `name` | `commands/name.py` | ...)."""
    section = text.split("\n## Commands\n", 1)[1].split("\n## ", 1)[0]
    return dict(re.findall(r"^\| `([a-z-]+)` \| `(commands/[a-z_]+\.py)` \|", section, flags=re.MULTILINE))


def help_commands() -> set[str]:
    """The commands ``specbound --help`` lists (its subparsers' choices)."""
    parser = build_parser()
    (commands,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    listed = set(commands.choices)
    help_text = parser.format_help()
    assert all(re.search(rf"^\s+{name}\b", help_text, flags=re.MULTILINE) for name in listed)
    return listed


def test_the_table_reads_a_planted_row_and_only_rows() -> None:
    text = (
        "# A\n\n## Commands\n\n| command | module |\n| --- | --- |\n| `x` | `commands/x.py` | y |\n"
        "\n## B\n| `z` | `commands/z.py` | w |\n"
    )
    assert documented_commands(text) == {"x": "commands/x.py"}


def test_the_doc_names_every_command_of_the_help_and_its_module() -> None:
    documented = documented_commands(DOC.read_text(encoding="utf-8"))
    assert set(documented) == help_commands()
    for name, module in documented.items():
        assert module == f"commands/{name}.py"
        assert (ROOT / "paper_checks" / module).is_file()


def test_the_layout_names_every_subpackage() -> None:
    text = DOC.read_text(encoding="utf-8")
    layout = text.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
    folders = {
        init.parent.relative_to(ROOT)
        for package in PACKAGES
        for init in (ROOT / package).rglob("__init__.py")
        if init.parent != ROOT / package
    }
    missing = [str(folder) for folder in sorted(folders) if f" {folder.name}/ " not in layout]
    assert missing == []
