"""Each exported file carries only the preamble items it uses, with their dependency closure
(:func:`theory.prover.coq.preamble.preamble_for`): here coqc compiles every item of the preamble (with erf
and the premised cases' lemmas) with exactly its declared closure and nothing else, one ``Module`` per item
(a name of an earlier module is not visible unqualified, so an item that uses an undeclared name fails
with "The reference ... was not found"). The closure's lemmas are stated with ``Admitted`` (the item's own
proof is compiled in full, each once: a few CPU s in one coqc process); a closure with one dependency taken
out is refused. An Ltac's lemma names are looked up when the tactic runs, not when it is defined: those
are checked by the exported files that run it (tests/slow/test_coq_registry.py)."""

from __future__ import annotations

import pytest

from tests.helpers.coq_marks import NEEDS_COQC
from theory.prover.coq.coqc import check_file
from theory.prover.coq.preamble import Item, closure, items

pytestmark = [pytest.mark.coq, pytest.mark.slow, NEEDS_COQC]


def _stated(item: Item) -> str:
    """A lemma stated with ``Admitted`` (its statement alone); a tactic or definition as it is."""
    if not item.text.startswith("Lemma "):
        return item.text
    return item.text.split("\nProof.", 1)[0] + "\nAdmitted.\n"


def _module(k: int, part: Item, parts: list[Item], uses: frozenset[str]) -> str:
    """The item's module: the closure of ``uses`` (its declared dependencies, or fewer) stated, then the
    item itself in full."""
    needed = closure(set(uses), parts)
    stated = "".join(_stated(p) for p in parts if p.name in needed and p.name != part.name)
    return f"Module sb_item_{k}.\n{stated}{part.text}End sb_item_{k}.\n"


def test_every_item_compiles_with_exactly_its_declared_closure(tmp_path):
    head, parts = items(erf=True)
    assert len(parts) > 130  # the whole preamble: erf, the premised cases, the rules, the tactics
    path = tmp_path / "Closure.v"
    modules = [_module(k, part, parts, part.uses) for k, part in enumerate(parts)]
    path.write_text(head + "".join(modules), encoding="utf-8")
    verdict = check_file(path)
    assert verdict.status == "accepted", verdict.reason


@pytest.mark.parametrize(
    ("item", "dependency"),
    [
        ("sb_tail_increasing", "sb_step_increasing"),  # a rule proved from another rule
        ("sb_erf_bounds", "sb_gauss_below"),  # the Gaussian integral's chain
        ("sb_identity", "sb_side"),  # a tactic that calls another
        ("sb_int_IZR", "sb_int"),  # a lemma about a definition
    ],
)
def test_an_item_without_one_of_its_dependencies_is_refused(item, dependency, tmp_path):
    head, parts = items(erf=True)
    (index,) = [k for k, part in enumerate(parts) if part.name == item]
    assert dependency in parts[index].uses
    path = tmp_path / "Dropped.v"
    fewer = parts[index].uses - {dependency}
    path.write_text(head + _module(index, parts[index], parts, fewer), encoding="utf-8")
    verdict = check_file(path)
    assert verdict.status == "rejected"
    assert f"The reference {dependency} was not found" in verdict.reason
