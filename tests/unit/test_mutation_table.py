"""benchmarks/mutation.py's mutants still apply: each mutant's original text stands exactly once in its file.

A mutant whose text a later change rewrote applies to nothing and would be reported as a failed mutant
only when the (13-minute) mutation run is made; this keeps the table in step with the code at every test run.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_mutant_text_stands_exactly_once_in_its_file():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import mutation
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    counts = {m.name: (ROOT / m.path).read_text().count(m.old) for m in mutation.MUTANTS}
    assert mutation.MUTANTS and {name: n for name, n in counts.items() if n != 1} == {}
