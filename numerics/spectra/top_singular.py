"""sigma_1 of a square factor as an upper bound, without an SVD: a Lanczos estimate, certified by Cholesky.

For a triangular factor R (n x n, the spectra's R of a matrix block: sigma(R) = sigma(block)), sigma_1(R)^2
is the largest eigenvalue of A = R R^T. Steps (provenance ``standard`` for each cited fact):

1. A = fl(R R^T), one BLAS product; |A - R R^T| <= gamma_n |R| |R|^T entrywise, so
   ||A - R R^T||_2 <= gamma_n ||R||_F^2 (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed.,
   §3.5; gamma_k = k u / (1 - k u), u = 2^-53).
2. theta = the largest Ritz value of a Lanczos run on A with full reorthogonalisation from a fixed random
   start (Golub & Van Loan, Matrix Computations, 4th ed., §10.1): theta <= lambda_max(A) up to rounding, and
   for the spectra of trained or random weights it is within 1e-12 of it after about 100 steps.
3. mu = theta (1 + 2^-24) + 2^-40 ||R||_F^2, M = fl(mu I - A) (lower triangle). If the float Cholesky
   factorisation M = L L^T runs to completion, L L^T = M + dM with |dM| <= gamma_{n+1} |L| |L|^T
   (Higham, Thm 10.5), so M + dM is positive semidefinite and lambda_max(A) <= mu + ||dM||_2 + the
   rounding of the diagonal of M, with ||dM||_2 <= gamma_{n+1} ||L||_F^2 and
   ||L||_F^2 = trace(M + dM) <= trace(M) / (1 - gamma_{n+1}). Only the factorisation's success is used, so
   it runs in place (LAPACK's dpotrf of numpy's OpenBLAS; numpy's cholesky, which copies, otherwise).

Hence sigma_1(R)^2 <= mu + gamma_{n+1} ||L||_F^2 + u (mu + max_i A_ii) + gamma_n ||R||_F^2, each term doubled
for the rounding of the bound's own evaluation (a few operations, far below the factor 2); the returned
value is its square root rounded up. It exceeds the exact sigma_1 by at most about 2^-25 relative (from
mu) when the Lanczos estimate converged. When the Cholesky factorisation fails (theta below
lambda_max(A) / (1 + 2^-24): not converged), the caller's SVD gives the value instead (None here).

Cost for n = 4096: one product (2 n^3 flops at BLAS-3 speed), about 100 matrix-vector products and one
Cholesky (n^3 / 3), against the values-only SVD's 8/3 n^3 flops, half of them at BLAS-2 speed.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from numerics.spectra.blas import lapack_routine

UNIT_ROUNDOFF = 2.0**-53
SHIFT = 2.0**-24
"""Relative shift of mu above the Lanczos estimate (the certificate's slack)."""
LANCZOS_STEPS = 160
"""At most this many Lanczos steps (fewer when the Ritz residual is below 2^-40 theta)."""
MIN_SIZE = 512
"""Below this order the SVD of the factor is cheap; :func:`top_singular_upper` is for larger ones."""


def _gamma(k: int) -> float:
    return k * UNIT_ROUNDOFF / (1 - k * UNIT_ROUNDOFF)


def lanczos_top_eigenvalue(a: np.ndarray, steps: int = LANCZOS_STEPS) -> float:
    """The largest Ritz value of ``steps`` (at most) Lanczos steps on the symmetric ``a``, with full
    reorthogonalisation (twice per step), from the fixed start of ``default_rng(0)``; it stops early once
    the Ritz residual estimate beta_j |y_j| of the top pair is below 2^-40 of the Ritz value."""
    n = a.shape[0]
    steps = min(steps, n)
    basis = np.empty((steps, n))
    start = np.random.default_rng(0).standard_normal(n)
    basis[0] = start / np.linalg.norm(start)
    alphas: list[float] = []
    betas: list[float] = []
    top = 0.0
    for j in range(steps):
        w = a @ basis[j]
        alphas.append(float(basis[j] @ w))
        for _ in range(2):
            w -= basis[: j + 1].T @ (basis[: j + 1] @ w)
        beta = float(np.linalg.norm(w))
        if (j + 1) % 16 == 0 or j + 1 == steps or beta == 0.0:
            values, vectors = np.linalg.eigh(_tridiagonal(alphas, betas))
            top = float(values[-1])
            if beta * abs(vectors[-1, -1]) <= 2.0**-40 * abs(top) or j + 1 == steps or beta == 0.0:
                return top
        betas.append(beta)
        basis[j + 1] = w / beta
    return top


def _tridiagonal(alphas: list[float], betas: list[float]) -> np.ndarray:
    k = len(alphas)
    t = np.diag(np.asarray(alphas))
    if k > 1:
        off = np.asarray(betas[: k - 1])
        t += np.diag(off, 1) + np.diag(off, -1)
    return t


def _potrf() -> Any | None:
    """LAPACK's dpotrf (64-bit integers) of the OpenBLAS numpy bundles, or None."""
    return lapack_routine("dpotrf")


def cholesky_succeeds(matrix: np.ndarray) -> bool:
    """Whether the float Cholesky factorisation of the symmetric ``matrix`` runs to completion (all pivots
    positive). In place through LAPACK's dpotrf when numpy's OpenBLAS exports it (``matrix``, a C-ordered
    symmetric array, is then overwritten: no copy of the n x n array), else numpy's cholesky (two copies)."""
    potrf = _potrf()
    if potrf is None or not matrix.flags.c_contiguous or matrix.dtype != np.float64:
        try:
            np.linalg.cholesky(matrix)
        except np.linalg.LinAlgError:
            return False
        return True
    import ctypes

    n, info = ctypes.c_int64(matrix.shape[0]), ctypes.c_int64(0)
    # column-major view of a C-ordered symmetric matrix is the matrix itself; "L" factors one triangle
    potrf(
        ctypes.c_char_p(b"L"),
        ctypes.byref(n),
        matrix.ctypes.data_as(ctypes.POINTER(ctypes.c_double)),
        ctypes.byref(n),
        ctypes.byref(info),
        ctypes.c_size_t(1),
    )
    return info.value == 0


def _gram(factor: np.ndarray) -> np.ndarray:
    """fl(R R^T) as a full symmetric array: by LAPACK's dlauum for an upper triangular, C-ordered square R
    (the spectra's factors; n^3 / 3 flops, both operands being triangular) when numpy's OpenBLAS exports
    it, else numpy's product (its syrk, n^3 flops). Either sums each entry's at most n products in some
    order, so the bound of step 1 (module docstring) holds for both."""
    lauum = lapack_routine("dlauum")
    square = factor.shape[0] == factor.shape[1] and factor.flags.c_contiguous
    if lauum is None or not square or factor.dtype != np.float64 or np.any(np.tril(factor, -1)):
        with np.errstate(under="ignore"):
            return factor @ factor.T
    import ctypes

    gram = factor.copy()
    n, info = ctypes.c_int64(factor.shape[0]), ctypes.c_int64(0)
    # column-major, the buffer is L = R^T (lower triangular); "L" overwrites it with L^T L = R R^T, whose
    # lower triangle (column-major) is the upper one read C-ordered; the other triangle stays R's zeros
    with np.errstate(under="ignore"):
        lauum(ctypes.c_char_p(b"L"), ctypes.byref(n), ctypes.c_void_p(gram.ctypes.data), ctypes.byref(n),
              ctypes.byref(info), ctypes.c_size_t(1))  # fmt: skip
        if info.value != 0:
            raise RuntimeError(f"LAPACK dlauum refused argument {-info.value}")
        gram += np.triu(gram, 1).T
    return gram


def top_singular_upper(factor: np.ndarray) -> float | None:
    """An upper bound of sigma_1(``factor``) (a float64 matrix of finite entries, scaled so that
    ||factor||_F^2 is finite), within about 2^-25 relative of it; None when the Cholesky certificate
    fails (module docstring, with R the factor or its transpose, whichever has fewer rows)."""
    if factor.shape[0] > factor.shape[1]:
        factor = factor.T
    n = factor.shape[0]
    frobenius_squared = float(np.einsum("ij,ij->", factor, factor))
    if frobenius_squared == 0.0:
        return 0.0
    gram = _gram(factor)
    theta = max(lanczos_top_eigenvalue(gram), 0.0)
    mu = theta * (1 + SHIFT) + 2.0**-40 * frobenius_squared
    largest_diagonal = float(np.max(np.diagonal(gram)))
    np.negative(gram, out=gram)
    gram[np.diag_indices(n)] += mu
    trace = float(np.trace(gram))
    if not cholesky_succeeds(gram):
        return None
    del gram
    # ||L||_F^2 = trace(L L^T) = trace(M + dM) <= trace(M) + gamma_{n+1} ||L||_F^2 (|dM| <= gamma |L||L^T|)
    cholesky_squared = trace / (1 - _gamma(n + 1))
    bound = mu + 2 * (
        _gamma(n + 1) * cholesky_squared
        + UNIT_ROUNDOFF * (mu + largest_diagonal)
        + _gamma(factor.shape[1]) * frobenius_squared
    )
    return math.sqrt(bound) * (1 + 4 * UNIT_ROUNDOFF)
