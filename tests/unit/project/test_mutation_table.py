"""benchmarks/mutation.py's mutants still apply: each mutant's original text stands exactly once in its file,
and its test files (its own, or those covering its module) exist.

A mutant whose text a later change rewrote applies to nothing and would be reported as LINE NOT FOUND only
when the (long) mutation run is made; this keeps the table in step with the code at every test run.
"""

from __future__ import annotations

import sys

from tests.helpers.paths import ROOT


def _table():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import mutation
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    return mutation.MUTANTS


def test_every_mutant_text_stands_exactly_once_in_its_file():
    mutants = _table()
    counts = {m.name: (ROOT / m.path).read_text().count(m.old) for m in mutants}
    assert mutants and {name: n for name, n in counts.items() if n != 1} == {}


def test_every_mutant_has_test_files_that_exist_and_a_name_of_its_own():
    mutants = _table()
    assert len({m.name for m in mutants}) == len(mutants)
    missing = {m.name: t for m in mutants for t in m.test_files if not (ROOT / t.split("::")[0]).exists()}
    assert missing == {}
