"""The matrices of a layer (QK_h, Vt_h, M_in, M_out) and their exact spectra: one float64 SVD per matrix.

The backend is numpy's LAPACK (single-threaded, :mod:`numerics.spectra.blas`), or torch in float64 with
``--device`` (:mod:`numerics.spectra.torch_backend`); numpy's takes matrices of order >= 2048 through the
two-stage bidiagonalisation and wide-block QR of :mod:`numerics.spectra.two_stage`; ``--fast-svd`` takes
the Gram path of :mod:`numerics.spectra.gram` where an a posteriori bound decides every quantity the bound
needs, and ``--certify`` the points of a dense matrix's certified enclosures where they decide it
(:data:`~numerics.spectra.spectrum.GivenValues`). :mod:`numerics.spectra.model` is the spectra stage: a
model's matrices and their spectra as one record (:class:`~numerics.spectra.model.ModelSpectra`), a
checkpoint read one layer at a time.
"""

__all__ = ["blas", "gram", "matrices", "model", "spectrum", "torch_backend"]
"""The modules other packages use (each imported by its full name; the package itself imports nothing); the
LAPACK backend, two_stage and top_singular serve spectrum and torch_backend only."""
