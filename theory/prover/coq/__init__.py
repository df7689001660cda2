"""Coq export of the prover's certificates: a Coq file per statement that ``coqc`` re-checks.

``export.export_certificate(data)`` prints the theorem (gap >= 0 over the domain, from the same tree the
kernel checks) and its proof box by box (``chain`` a chain certificate's, ``derivation`` a derivation's,
each step a lemma); ``coqc.check_files(files, jobs)`` runs ``coqc`` on them, several files per process,
and reads ``Print Assumptions``; ``files.export_files`` does both for the CLI, ``report.line`` prints
its record. The trusted
base of an accepted file is Coq's kernel with the axioms of its real numbers and of Interval's primitive
integers and floats. The package imports nothing itself (the exporter needs python-flint, the report not).
"""

__all__ = ["coqc", "files", "report"]
"""The modules other packages use (each imported by its full name; the package itself imports nothing); the
others (export, chain and the parts they print) serve files."""
