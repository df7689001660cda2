"""Certified singular values of a thin product M = A B^T (A: N x d, B: N' x d) through its small core.

Provenance ``standard`` (the steps of :mod:`numerics.certify.enclosure` applied twice), with the QR
factorisation itself certified rather than trusted:

1. float64 QR: A ~ Q_A R_A, B ~ Q_B R_B (numpy/LAPACK Householder). In arb, with exact inputs:
   E_A = A - Q_A R_A, E_B = B - Q_B R_B, and f_A >= ||Q_A^T Q_A - I||_2, f_B >= ||Q_B^T Q_B - I||_2
   (Frobenius bounds).
2. Residual of the factorised product: M - Q_A (R_A R_B^T) Q_B^T = E_A B^T + (A - E_A) E_B^T, so
   ||M - Q_A C Q_B^T||_2 <= ||E_A||_F ||B||_F + (||A||_F + ||E_A||_F) ||E_B||_F =: e (triangle inequality
   and ||XY||_F <= ||X||_F ||Y||_F, Horn & Johnson, Matrix Analysis, 2nd ed., §5.6).
3. The core C = R_A R_B^T (d x d) is formed in arb (a ball matrix containing the exact product) and
   its singular values are enclosed by :func:`numerics.certify.enclosure.certify_svd` from the float64
   SVD of its midpoint.
4. sigma_i(Q_A C Q_B^T) is within the factors sqrt((1 -+ f_A)(1 -+ f_B)) of sigma_i(C) (multiplicative
   bound, Horn & Johnson, Topics in Matrix Analysis, Thm 3.3.16(d)), and sigma_i(M) within e of that
   (Weyl, Thm 3.3.16, additive part), for i <= d.
5. rank(A B^T) <= d, so sigma_i(M) = 0 exactly for i > d (structural, no enclosure needed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from numerics.certify.balls import arb_matrix, flint_context, frobenius_norm, orthogonality_defect, outward
from numerics.certify.enclosure import SingularValueEnclosure, certify_svd, scaled_and_widened
from theory.errors import CertificationFailed

if TYPE_CHECKING:
    from flint import arb, arb_mat


Factorization = tuple[np.ndarray, np.ndarray]
"""A float64 (Q, R) with A ~ Q R; any pair of the right shapes is a valid input of the certificate."""


def _certified_qr(factor: np.ndarray, qr: Factorization) -> tuple[arb_mat, arb_mat, arb, arb]:
    """(A, R, ball of ||A - QR||_F, ball of ||Q^T Q - I||_F) for the float64 pair ``qr``, in arb."""
    q, r = (np.asarray(x, dtype=np.float64) for x in qr)
    if q.shape != factor.shape or r.shape != (factor.shape[1], factor.shape[1]):
        raise CertificationFailed(
            f"QR factors of shapes {q.shape}, {r.shape} do not fit a {factor.shape} factor"
        )
    a_ball, q_ball, r_ball = arb_matrix(factor), arb_matrix(q), arb_matrix(r)
    return a_ball, r_ball, frobenius_norm(a_ball - q_ball * r_ball), orthogonality_defect(q_ball)


def checked_factors(left: np.ndarray, right: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The thin factors as float64 arrays, checked: N x d and N' x d, 1 <= d <= min(N, N'), finite."""
    a, b = (np.asarray(x, dtype=np.float64) for x in (left, right))
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[1]:
        raise CertificationFailed(f"thin factors must be N x d and N' x d; got {a.shape} and {b.shape}")
    d = a.shape[1]
    if not 1 <= d <= min(a.shape[0], b.shape[0]):
        raise CertificationFailed(
            f"factors {a.shape} and {b.shape} are not thin (need 1 <= d <= rows); certify the dense product"
        )
    for name, x in (("left", a), ("right", b)):
        if not np.isfinite(x).all():
            raise CertificationFailed(
                f"the {name} factor has NaN or infinite entries; nothing can be certified"
            )
    return a, b


def certify_product(
    left: np.ndarray,
    right: np.ndarray,
    factorizations: tuple[Factorization, Factorization] | None = None,
) -> SingularValueEnclosure:
    """Certified enclosures of the singular values of M = left @ right.T, never forming M.

    ``left`` is N x d and ``right`` N' x d with d <= min(N, N') (the thin factors of a per-head product).
    ``factorizations`` ((Q_A, R_A), (Q_B, R_B)) default to numpy's reduced QR; precomputed ones (e.g.
    from one stacked ``np.linalg.qr`` over all heads, see :func:`batched_qr`) are certified the same way.

    >>> import numpy as np
    >>> a = np.array([[2.0, 0.0], [0.0, 1.0], [0.0, 0.0]])
    >>> enc = certify_product(a, a)   # M = diag(4, 1, 0)
    >>> [b.contains(v) for b, v in zip(enc.balls, (4, 1))], enc.structural_zeros
    ([True, True], 1)
    """
    a, b = checked_factors(left, right)
    qr_a, qr_b = factorizations if factorizations is not None else (np.linalg.qr(a), np.linalg.qr(b))
    with flint_context():
        a_ball, r_a, e_a, f_a = _certified_qr(a, qr_a)
        b_ball, r_b, e_b, f_b = _certified_qr(b, qr_b)
        core = r_a * r_b.transpose()
        core_mid = np.array([[float(x.mid()) for x in row] for row in core.tolist()], dtype=np.float64)
        core_lower, core_upper = certify_svd(core, *np.linalg.svd(core_mid))
        residual = e_a * frobenius_norm(b_ball) + (frobenius_norm(a_ball) + e_a) * e_b
        lower, upper = scaled_and_widened(
            core_lower, core_upper, *(outward(x)[1] for x in (f_a, f_b, residual))
        )
    return SingularValueEnclosure(
        a.shape[0],
        b.shape[0],
        lower,
        upper,
        "float64 QR + core SVD, QR and SVD certified in arb (Weyl/multiplicative)",
    )


def batched_qr(factors: list[np.ndarray]) -> list[Factorization]:
    """Reduced float64 QR of every factor, one stacked LAPACK call per distinct shape (fewer calls: the
    per-call threading overhead of small QRs dominates on a loaded machine). Not certified by itself:
    :func:`certify_product` certifies whatever it is given.

    >>> import numpy as np
    >>> [(q.shape, r.shape) for q, r in batched_qr([np.eye(3)[:, :2], np.ones((4, 1))])]
    [((3, 2), (2, 2)), ((4, 1), (1, 1))]
    """
    out: list[Factorization | None] = [None] * len(factors)
    by_shape: dict[tuple[int, ...], list[int]] = {}
    for index, factor in enumerate(factors):
        by_shape.setdefault(factor.shape, []).append(index)
    for indices in by_shape.values():
        q, r = np.linalg.qr(np.stack([np.asarray(factors[i], dtype=np.float64) for i in indices]))
        for position, index in enumerate(indices):
            out[index] = (q[position], r[position])
    return [x for x in out if x is not None]
