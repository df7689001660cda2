"""Coq export of the prover's certificates: a Coq file per statement that ``coqc`` re-checks.

``export_certificate(data)`` prints the theorem (gap >= 0 over the domain, from the same tree the kernel
checks) and its proof box by box (:mod:`theory.prover.coq.export`); ``check_file(path)`` runs ``coqc`` on
it and reads ``Print Assumptions`` (:mod:`theory.prover.coq.coqc`). The trusted base of an accepted file
is Coq's kernel with the axioms of its real numbers and of Interval's primitive integers and floats.
"""

from __future__ import annotations

from theory.prover.coq.export import CoqExport, Hypothesis, export_certificate
from theory.prover.coq.terms import Untranslatable

__all__ = ["CoqExport", "Hypothesis", "Untranslatable", "export_certificate"]
