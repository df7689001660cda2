"""The matrices of a layer (QK_h, Vt_h, M_in, M_out) and their exact spectra: one float64 SVD per matrix.

The backend is numpy's LAPACK (single-threaded, :mod:`numerics.spectra.blas`), or torch in float64 with
``--device`` (:mod:`numerics.spectra.torch_backend`); ``--fast-svd`` takes the Gram path of
:mod:`numerics.spectra.gram` where an a posteriori bound decides every quantity the bound needs.
"""
