"""Derivations a user writes: a TOML file of variables, assumptions, definitions and a chain of steps
E0 = E1 <= E2 < ..., each step decided (identities by normal forms, inequalities by the prover over the
domain its assumptions cut out), with one certificate for the whole chain that the kernel re-checks.

For example, ``derive("docs/examples/log_below_quadratic.toml").status`` is ``"proved"`` (run from the
repository's root; tests/unit/theory/derive/test_derive.py runs it).

Modules: file_format (reading the file, every error naming file and line), decide (the steps' verdicts and
the certificate), instance and by_fact (a step as an instance of a fact under a substitution: its
conditions, and deciding them), facts (the lemmas and chain pieces a file may name, given by the caller:
``derive(path, budget, facts)``), check (the derivation checker, on the kernel's entry points), crossover
(where one expression of L stays below another) and tail (one kernel certificate for the half-line above
it). Provenance: derived (decided by the code).
"""

from __future__ import annotations

from theory.derive.check import (
    DERIVATION_FORMAT,
    DerivationCheck,
    InvalidDerivationCertificate,
    check_derivation,
)
from theory.derive.decide import DerivationResult, StepResult, derive
from theory.derive.facts import Facts
from theory.derive.file_format import MalformedDerivation

__all__ = [
    "DERIVATION_FORMAT",
    "DerivationCheck",
    "DerivationResult",
    "Facts",
    "InvalidDerivationCertificate",
    "MalformedDerivation",
    "StepResult",
    "check_derivation",
    "derive",
]
