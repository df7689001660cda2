"""The named facts a derivation may use besides its own assumptions and the files it references.

A step names them ``lemma:NAME`` (an entry of ``lemmas``: a registered inequality, decided by
:func:`theory.prover.lemma_inequalities.decide`) and ``piece:NAME`` (a piece of ``chain``, called
``chain_name`` in messages). The caller supplies them (:func:`theory.derive.derive`'s ``facts``): derive
itself knows no lemma and no chain; the paper's facts are the caller's to pass (``specbound derive`` passes
them). Both are built on first use: a derivation that names none costs nothing.
Provenance: not applicable (a record of what a derivation may cite).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from theory.prover.chain import Chain
    from theory.prover.lemma_inequalities import LemmaInequality


def _none() -> tuple[LemmaInequality, ...]:
    return ()


@dataclass(frozen=True)
class Facts:
    """What ``lemma:NAME`` and ``piece:NAME`` name: the registered inequalities (``lemmas``, called on first
    use) and the chain whose pieces a step may use (``chain``; None: no chain)."""

    lemmas: Callable[[], Iterable[LemmaInequality]] = _none
    chain: Callable[[], Chain] | None = None
    chain_name: str = "the chain"


NO_FACTS = Facts()
"""No lemma and no chain: a derivation may use its own assumptions and files only."""
