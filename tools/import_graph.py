"""The import graph of specbound's packages and its cycles, read from the source with :mod:`ast` alone.

A node is a module of ``theory``, ``numerics`` or ``paper_checks``; an edge A -> B is any import of B
written anywhere in A (at module level, inside a function, or under ``TYPE_CHECKING``), since each of
them ties A's meaning to B's. ``from P import name`` is an edge to the module ``P.name`` when that is a
module, else to ``P``. A cycle is a strongly connected component of more than one module (Tarjan).

Usage: ``python tools/import_graph.py [--edges] [ROOT]`` prints one line per cycle (its modules, and
one closed path through them) and exits 1 when there is any; ``--edges`` also prints every edge.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Callable, Iterable, Mapping
from itertools import repeat
from pathlib import Path

PACKAGES = ("theory", "numerics", "paper_checks")


def module_files(root: Path) -> dict[str, Path]:
    """Every module of :data:`PACKAGES` under ``root``, by its dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _target(name: str, modules: Mapping[str, Path]) -> str | None:
    """The longest prefix of the dotted ``name`` that is one of ``modules`` (None outside them)."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in modules:
            return candidate
    return None


def _imported_names(
    tree: ast.AST, module: str, is_package: bool, modules: Mapping[str, Path]
) -> Iterable[str]:
    """The dotted name of everything the module ``module`` imports, relative imports resolved; ``from P
    import name`` names ``P.name`` when that is a module (importing a submodule is no edge to P)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".")
                anchor = anchor[: len(anchor) - node.level + (1 if is_package else 0)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                yield f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base


def parse(path: Path) -> ast.Module:
    """The module at ``path``, parsed."""
    return ast.parse(path.read_text(), filename=str(path))


def import_graph(root: Path, read: Callable[[Path], ast.Module] = parse) -> dict[str, set[str]]:
    """Module -> the other modules of the packages it imports (a package's ``from . import name`` of a
    name it defines itself is no edge); ``read`` parses a module's file (a caller holding the packages'
    trees already, as the test suite's scans do, passes its own)."""
    modules = module_files(root)
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        tree = read(path)
        names = _imported_names(tree, module, path.stem == "__init__", modules)
        graph[module] = {
            target for target in map(_target, names, repeat(modules)) if target not in (None, module)
        }
    return graph


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module, each sorted, the list sorted (Tarjan's
    algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph[successor]))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return sorted(found)


def closed_path(graph: Mapping[str, set[str]], component: list[str]) -> list[str]:
    """One shortest closed path through the first module of ``component`` inside it (breadth first)."""
    start, members = component[0], set(component)
    parents: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following: list[str] = []
        for node in frontier:
            for successor in sorted(graph[node] & members):
                if successor == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(parents[path[-1]])
                    return [*reversed(path), start]
                if successor not in parents:
                    parents[successor] = node
                    following.append(successor)
        frontier = following
    raise AssertionError(f"{component} is not strongly connected")  # cycles() returns only such


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--edges", action="store_true", help="also print every edge, one per line")
    arguments = parser.parse_args(argv)
    graph = import_graph(arguments.root)
    if arguments.edges:
        for module in sorted(graph):
            for target in sorted(graph[module]):
                print(f"{module} -> {target}")
    found = cycles(graph)
    edges = sum(len(targets) for targets in graph.values())
    print(f"{len(graph)} modules, {edges} import edges, {len(found)} cycles")
    for number, component in enumerate(found, 1):
        print(f"cycle {number} ({len(component)} modules): {' '.join(component)}")
        print(f"  path: {' -> '.join(closed_path(graph, component))}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
