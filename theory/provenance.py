"""Provenance tags: where each encoded statement comes from (docs/mathematics.md).

- ``exact``: a formula the authors' experiment code computes, or a claim of the paper's abstract;
- ``standard``: a published lemma, cited by paper and lemma number;
- ``reconstructed``: our best reading of a statement of the paper that we could not read;
- ``derived``: a consequence the toolkit itself proves symbolically or checks in interval arithmetic.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Provenance(StrEnum):
    """Where an encoded statement comes from; every lemma, expression and verdict carries one."""

    EXACT = "exact"
    STANDARD = "standard"
    RECONSTRUCTED = "reconstructed"
    DERIVED = "derived"


@dataclass(frozen=True)
class Tagged:
    """A provenance tag with its source (paper and lemma/equation, or file of the authors' code)."""

    provenance: Provenance
    source: str

    def __str__(self) -> str:
        return f"{self.provenance.value}: {self.source}"


AUTHORS_CODE = "manasakai/spectrum-adaptive-transformers @ 6653d94 (bounds.py, norms.py, extract.py)"
