"""theory: the mathematics of the spectrum-adaptive bound as sympy objects (no numpy, no torch)."""

from theory.errors import (
    CertificationFailed as CertificationFailed,
)
from theory.errors import (
    CheckpointError as CheckpointError,
)
from theory.errors import (
    InvalidArgument as InvalidArgument,
)
from theory.errors import (
    MissingDependency as MissingDependency,
)
from theory.errors import (
    SpecboundError as SpecboundError,
)
from theory.errors import (
    UnsupportedCheckpoint as UnsupportedCheckpoint,
)
from theory.formula import Formula as Formula
from theory.lemma import CheckResult as CheckResult
from theory.lemma import Lemma as Lemma
from theory.provenance import Provenance as Provenance
from theory.provenance import Tagged as Tagged
from theory.proxy import MatrixKind as MatrixKind
from theory.registry import all_lemmas as all_lemmas
from theory.registry import run_all_checks as run_all_checks
