"""theory: the mathematics of the spectrum-adaptive bound as sympy objects (no numpy, no torch).

The public names are imported on first use (PEP 562): importing a sympy-free submodule
(:mod:`theory.errors`, :mod:`theory.kinds`, :mod:`theory.grid`) does not import sympy, so
``specbound bound`` starts without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from theory.prover.lazy_exports import lazy_getattr
from theory.version import installed_version

if TYPE_CHECKING:
    from theory.errors import CertificationFailed as CertificationFailed
    from theory.errors import CheckpointError as CheckpointError
    from theory.errors import InvalidArgument as InvalidArgument
    from theory.errors import MissingDependency as MissingDependency
    from theory.errors import SpecboundError as SpecboundError
    from theory.errors import UnknownName as UnknownName
    from theory.errors import UnsupportedCheckpoint as UnsupportedCheckpoint
    from theory.formula import Formula as Formula
    from theory.kinds import MatrixKind as MatrixKind
    from theory.lemma import CheckResult as CheckResult
    from theory.lemma import Lemma as Lemma
    from theory.provenance import Provenance as Provenance
    from theory.provenance import Tagged as Tagged
    from theory.registry import all_lemmas as all_lemmas
    from theory.registry import run_all_checks as run_all_checks

_HOME = {
    "CertificationFailed": "theory.errors",
    "CheckpointError": "theory.errors",
    "InvalidArgument": "theory.errors",
    "MissingDependency": "theory.errors",
    "SpecboundError": "theory.errors",
    "UnknownName": "theory.errors",
    "UnsupportedCheckpoint": "theory.errors",
    "Formula": "theory.formula",
    "MatrixKind": "theory.kinds",
    "CheckResult": "theory.lemma",
    "Lemma": "theory.lemma",
    "Provenance": "theory.provenance",
    "Tagged": "theory.provenance",
    "all_lemmas": "theory.registry",
    "run_all_checks": "theory.registry",
}

__all__ = sorted(_HOME)


__getattr__ = lazy_getattr(__name__, _HOME, installed_version)
