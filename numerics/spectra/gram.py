"""Singular values from the eigenvalues of the smaller Gram matrix, kept only where a bound decides them.

For W (r x c), n = min(r, c), k = max(r, c), the nonzero singular values of W are the square roots of
the eigenvalues of the n x n Gram matrix G = W W^T (or W^T W): about 4x fewer flops than an SVD of a
768 x 3072 feed-forward matrix, but an absolute error in sigma_i^2 of order u ||W||^2, so the small
singular values lose their relative accuracy. This module therefore returns the Gram values only with a
bound showing that every quantity the bound needs is decided; otherwise None (the caller runs the SVD).

The bound on lambda_i = sigma_i^2 (standard, stated with its assumptions):

- forming G in floating point: |fl(G) - G| <= gamma_k |W| |W|^T entrywise, gamma_k = k u / (1 - k u),
  u = 2^-53, for any order of summation (Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd
  ed., eq. (3.13)); so ||fl(G) - G||_2 <= gamma_k || |W| ||_2^2 <= gamma_k ||W||_F^2;
- the symmetric eigensolver (LAPACK ``syevd`` through ``numpy.linalg.eigvalsh``) is backward stable: its
  eigenvalues are exact for fl(G) + E with ||E||_2 <= p(n) u ||fl(G)||_2 (LAPACK Users' Guide, 3rd ed.,
  section 4.7, with p(n) "a modestly growing function of n"); we take p(n) = n and ||fl(G)||_2 <=
  ||fl(G)||_F;
- Weyl's inequality (Horn and Johnson, *Matrix Analysis*, Thm 4.3.1) adds the two:
  |lambda_i - computed lambda_i| <= delta = gamma_k ||W||_F^2 + n u ||fl(G)||_F, evaluated with a 1%
  margin for the rounding of delta itself.

So sigma_i lies in [sqrt(lambda_i - delta), sqrt(lambda_i + delta)] (computed lambda_i). The values are
used only when every computed lambda_i > delta (no sigma_i may be 0: S_p sums sigma_i^p over every
positive value and sigma^p tends to 1 as p -> 0), when the numerical rank at the authors' threshold is the
same at both ends of every interval (and of the threshold, which moves with sigma_1), and when
(lambda_i + delta) / (lambda_i - delta) - 1 <= :data:`GRAM_RTOL` for every i: then for every p in
(0, 2], each sigma_i^p, hence S_p = sum_i sigma_i^p, is known to relative accuracy GRAM_RTOL, since
(hi_i / lo_i)^p <= (hi_i / lo_i)^2 = (lambda_i + delta) / (lambda_i - delta).

Provenance: standard (the three results above), with p(n) = n our choice of LAPACK's unspecified
constant: this is an a posteriori float bound under the usual backward-stability model, not a
certificate (``--certify`` is the rigorous path). The values differ from the SVD's in the last digits, so
the path is opt-in (``bound --fast-svd``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

UNIT_ROUNDOFF = 2.0**-53
GRAM_RTOL = 1e-8
"""Relative accuracy every S_p (p in (0, 2]) must be decided to: the table prints 6 digits."""
GRAM_MIN_SIZE = 64
"""Below this smaller dimension an SVD is cheap and the Gram path is not tried."""
MARGIN = 1.01


@dataclass(frozen=True)
class GramValues:
    """Singular values from the Gram eigenvalues, descending, with their bound."""

    singular_values: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    delta: float
    """The bound on |sigma_i^2 - computed lambda_i| (module docstring)."""


def gram_eigenvalue_bound(dense: np.ndarray, gram: np.ndarray) -> float:
    """delta = (gamma_k ||W||_F^2 + n u ||fl(G)||_F) * 1.01 (module docstring), k the inner length."""
    n, k = min(dense.shape), max(dense.shape)
    gamma_k = k * UNIT_ROUNDOFF / (1 - k * UNIT_ROUNDOFF)
    frobenius_squared = float(np.einsum("ij,ij->", dense, dense))
    return MARGIN * (gamma_k * frobenius_squared + n * UNIT_ROUNDOFF * float(np.linalg.norm(gram)))


def gram_can_decide(n: int, k: int) -> bool:
    """False when no n x k matrix can pass the S_p test, so the Gram matrix is not even formed.

    The test needs 2 delta / (lambda_n - delta) <= GRAM_RTOL, so lambda_n >= 2 delta / GRAM_RTOL >
    2 gamma_k ||W||_F^2 / GRAM_RTOL; but lambda_n <= mean lambda_i = ||W||_F^2 / n. Hence it can pass only
    if 2 gamma_k n < GRAM_RTOL (e.g. not for LLaMA-7B's 4096 x 22016 M_in; yes for BERT-base's 768 x 3072).

    >>> gram_can_decide(768, 3072), gram_can_decide(4096, 22016)
    (True, False)
    """
    gamma_k = k * UNIT_ROUNDOFF / (1 - k * UNIT_ROUNDOFF)
    return 2 * gamma_k * n < GRAM_RTOL


def gram_values(dense: np.ndarray, rank_threshold: float, count: int) -> GramValues | None:
    """The singular values of ``dense`` from its Gram matrix, or None when the bound leaves any undecided.

    ``rank_threshold`` t and ``count`` give the numerical-rank rule sigma_i > t max(count, 1)
    max(sigma_1, 1) (:func:`numerics.spectra.spectrum.numerical_rank`); it must be decided at both ends of
    every interval.
    """
    if min(dense.shape) < GRAM_MIN_SIZE or not gram_can_decide(min(dense.shape), max(dense.shape)):
        return None
    gram = dense @ dense.T if dense.shape[0] <= dense.shape[1] else dense.T @ dense
    eigenvalues = np.linalg.eigvalsh(gram)[::-1]
    delta = gram_eigenvalue_bound(dense, gram)
    if not np.isfinite(delta) or eigenvalues[-1] <= delta:
        return None
    lower, upper = np.sqrt(eigenvalues - delta), np.sqrt(eigenvalues + delta)
    if float(np.max((eigenvalues + delta) / (eigenvalues - delta))) - 1 > GRAM_RTOL:
        return None
    scale = rank_threshold * max(count, 1)
    threshold_low, threshold_high = scale * max(lower[0], 1.0), scale * max(upper[0], 1.0)
    if np.any((upper > threshold_low) & (lower <= threshold_high)):
        return None  # some sigma_i may lie on either side of the rank threshold
    return GramValues(np.sqrt(eigenvalues), lower, upper, delta)
