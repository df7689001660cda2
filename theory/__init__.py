"""theory: the mathematics of the spectrum-adaptive bound as sympy objects (no numpy, no torch)."""

from theory.errors import (
    CertificationFailed as CertificationFailed,
    CheckpointError as CheckpointError,
    InvalidArgument as InvalidArgument,
    MissingDependency as MissingDependency,
    SpecboundError as SpecboundError,
    UnsupportedCheckpoint as UnsupportedCheckpoint,
)
from theory.formula import Formula as Formula
from theory.provenance import Provenance as Provenance, Tagged as Tagged
from theory.proxy import MatrixKind as MatrixKind
from theory.lemma import CheckResult as CheckResult, Lemma as Lemma
from theory.registry import all_lemmas as all_lemmas, run_all_checks as run_all_checks
