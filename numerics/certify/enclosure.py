"""Rigorous enclosures of the singular values of a matrix from a float64 SVD and an a-posteriori certificate.

The certificate (provenance ``standard``; every step is a textbook inequality, evaluated in arb):

Let W be the exact matrix (m x n; a float64 array is an exact binary rational matrix, a ball matrix
stands for every matrix inside it) and U (m x k), s (k), V^T (k x n) any float64 arrays, e.g. LAPACK's
SVD. Compute rigorously (in ball arithmetic here, by float error bounds in
:mod:`numerics.certify.fast`)

- e >= ||W - U diag(s) V^T||_F >= ||W - U diag(s) V^T||_2 (Horn & Johnson, Matrix Analysis, 2nd ed., §5.6);
- f_u >= ||U^T U - I||_F >= ||U^T U - I||_2 and f_v >= ||V^T V - I||_2; both must be < 1.

1. By Weyl's eigenvalue inequality (Horn & Johnson, Matrix Analysis, 2nd ed., Thm 4.3.1) the singular
   values of U lie in [sqrt(1 - f_u), sqrt(1 + f_u)] (U has full column rank), likewise for V.
2. Multiplicative perturbation (Horn & Johnson, Topics in Matrix Analysis, Thm 3.3.16(d):
   sigma_{i+j-1}(AB) <= sigma_i(A) sigma_j(B); with j = 1 it bounds sigma_i(AB) above by ||A|| sigma_i(B),
   and applied to U^+ (U S V^T) = S V^T it bounds it below by sigma_min(U) sigma_i(S V^T); see also
   Eisenstat & Ipsen, "Relative perturbation techniques for singular value problems", SIAM J. Numer.
   Anal. 32 (1995), for multiplicative perturbations D1 A D2): with s_(i) the i-th largest |s_j|,
   s_(i) sqrt((1 - f_u)(1 - f_v)) <= sigma_i(U diag(s) V^T) <= s_(i) sqrt((1 + f_u)(1 + f_v)).
3. Weyl's inequality for singular values (Horn & Johnson, Topics in Matrix Analysis, Thm 3.3.16,
   additive part: sigma_{i+j-1}(A + B) <= sigma_i(A) + sigma_j(B)) gives
   |sigma_i(W) - sigma_i(U diag(s) V^T)| <= ||W - U diag(s) V^T||_2 <= e.

Hence sigma_i(W) lies in [s_(i) sqrt((1-f_u)(1-f_v)) - e, s_(i) sqrt((1+f_u)(1+f_v)) + e] (clipped at 0)
for i <= k, and in [0, e] for k < i <= min(m, n). The certificate is valid for *any* U, s, V: a poor or
corrupted decomposition gives a correct but wider enclosure; it fails (CertificationFailed) only when
f_u or f_v >= 1, where step 1 gives no lower bound, or when an input is not finite.

These last steps are evaluated in floats with every operation stepped outward
(:func:`scaled_and_widened`, :mod:`numerics.certify.directed`), so every certificate ends as float
intervals [lo_i, hi_i] (:class:`SingularValueEnclosure`), whichever way e, f_u and f_v were bounded.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from numerics.certify.balls import (
    arb_matrix,
    arb_type,
    diagonal,
    flint_context,
    frobenius_norm,
    orthogonality_defect,
    outward,
)
from numerics.certify.directed import (
    down,
    down_array,
    product_down,
    product_up,
    product_up_array,
    sqrt_up,
    sum_up_array,
    up,
)
from theory.errors import CertificationFailed

if TYPE_CHECKING:
    from flint import arb, arb_mat


@dataclass(frozen=True, eq=False)
class SingularValueEnclosure:
    """Float intervals containing the singular values sigma_1 >= sigma_2 >= ... of a rows x cols matrix.

    ``lower[i] <= sigma_{i+1} <= upper[i]`` (float64 arrays, 0 <= lower <= upper); singular values beyond
    ``len(lower)`` (up to min(rows, cols)) are exactly 0 (a structural fact, e.g. rank(A B^T) <= d_h for
    thin factors). ``method`` says how the certificate was obtained. Floats, not balls, so that the
    layers' certificates need no ball library; :attr:`balls` gives them as arb balls (exactly).
    """

    rows: int
    cols: int
    lower: np.ndarray
    upper: np.ndarray
    method: str

    @property
    def balls(self) -> tuple[arb, ...]:
        """The intervals as arb balls (``balls[i]`` contains sigma_{i+1}; each float converts exactly)."""
        arb = arb_type()

        return tuple(
            arb(lo).union(arb(hi)) for lo, hi in zip(self.lower.tolist(), self.upper.tolist(), strict=True)
        )

    @property
    def spectral_norm(self) -> arb:
        """A ball containing ||W||_2 = sigma_1 (0 for an empty list)."""
        arb = arb_type()

        return arb(float(self.lower[0])).union(arb(float(self.upper[0]))) if len(self.lower) else arb(0)

    @property
    def structural_zeros(self) -> int:
        """How many singular values are known to be exactly 0 without enclosing them."""
        return min(self.rows, self.cols) - len(self.lower)

    def max_relative_width(self) -> float:
        """max_i (hi_i - lo_i) / hi_i over the nonzero enclosures (a float for reporting only)."""
        nonzero = self.upper != 0
        widths = (self.upper[nonzero] - self.lower[nonzero]) / self.upper[nonzero]
        return float(widths.max()) if widths.size else 0.0


def scaled_and_widened(
    lower: np.ndarray, upper: np.ndarray, f_left: float, f_right: float, residual: float
) -> tuple[np.ndarray, np.ndarray]:
    """Enclosures [lo_i, hi_i] of sigma_i(W) from enclosures lower[i] <= sigma_i(Y) <= upper[i] (floats >= 0)
    when W' = X Y Z with ||X^T X - I||_2 <= f_left, ||Z Z^T - I||_2 <= f_right and ||W - W'||_2 <= residual.

    Steps 1-3 of the module docstring: [v_lo sqrt((1-f_l)(1-f_r)) - e, v_hi sqrt((1+f_l)(1+f_r)) + e],
    clipped at 0, each operation stepped outward (:mod:`numerics.certify.directed`). Raises
    CertificationFailed when f_left or f_right is not below 1.

    >>> lo, hi = scaled_and_widened(np.array([2.0]), np.array([2.0]), 0.0, 0.0, 0.5)
    >>> float(lo[0]) <= 1.5 and 2.5 <= float(hi[0]) < 2.5 + 1e-14
    True
    """
    for name, f in (("left", f_left), ("right", f_right)):
        if not (np.isfinite(f) and f < 1):
            raise CertificationFailed(
                f"the {name} factor's orthogonality defect ||Q^T Q - I|| <= {f:.5g} is not below 1; "
                "the factor may be rank deficient, so no lower bound on the singular values follows "
                "(recompute the decomposition in float64)"
            )
    if not (np.isfinite(residual) and residual >= 0):
        raise CertificationFailed(f"the residual bound {residual:.5g} is not a finite nonnegative number")
    shrink = down(math.sqrt(product_down(down(1 - f_left), down(1 - f_right))))
    grow = sqrt_up(product_up(up(1 + f_left), up(1 + f_right)))
    with np.errstate(under="ignore"):
        low = down_array(down_array(np.asarray(lower, dtype=np.float64) * shrink) - residual)
    # by the zero rules an exactly zero value with a zero residual stays 0 (an exact rank decided)
    high = sum_up_array(product_up_array(np.asarray(upper, dtype=np.float64), grow), residual)
    return np.maximum(low, 0.0), high


def sorted_decomposition(
    shape: tuple[int, int], u: np.ndarray, s: np.ndarray, vt: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(U, |s|, V^T) checked against ``shape`` (finite, k <= min(m, n)) and reordered to |s| descending.

    A negative s_j flips column j of U (exact), so U diag(s) V^T is unchanged.
    """
    m, n = shape
    k = len(s)
    if u.shape != (m, k) or vt.shape != (k, n) or k > min(m, n):
        raise CertificationFailed(
            f"decomposition shapes U {u.shape}, s ({k},), V^T {vt.shape} do not fit a {m} x {n} matrix"
        )
    if not (np.isfinite(u).all() and np.isfinite(s).all() and np.isfinite(vt).all()):
        raise CertificationFailed(
            "the float64 decomposition has NaN or infinite entries; nothing can be certified"
        )
    order = np.argsort(-np.abs(s), kind="stable")
    signs = np.where(s[order] < 0, -1.0, 1.0)
    return u[:, order] * signs, np.abs(s)[order], vt[order]


def certify_svd(
    target: arb_mat, u: np.ndarray, s: np.ndarray, vt: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Float enclosures (lower, upper) of all min(m, n) singular values of every matrix in the ball matrix
    ``target`` (m x n), certified from float64 arrays u (m x k), s (k,), vt (k x n) by steps 1-3 of the
    module docstring (e, f_u, f_v in arb, rounded up to floats).

    Call inside :func:`numerics.certify.balls.flint_context`.
    """
    m, n = target.nrows(), target.ncols()
    u_sorted, s_sorted, vt_sorted = sorted_decomposition((m, n), u, s, vt)
    k = len(s_sorted)
    left, right = arb_matrix(u_sorted), arb_matrix(vt_sorted)
    # U diag(s) V^T, with the diagonal multiplied into whichever factor is k x k (the cheaper side).
    approx = (left * diagonal(s_sorted)) * right if m == k else left * (diagonal(s_sorted) * right)
    residual = frobenius_norm(target - approx)
    f_u, f_v = orthogonality_defect(left), orthogonality_defect(right.transpose())
    core = np.concatenate([s_sorted, np.zeros(min(m, n) - k)])
    return scaled_and_widened(core, core, *(outward(x)[1] for x in (f_u, f_v, residual)))


def certify_dense(
    matrix: np.ndarray, decomposition: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
) -> SingularValueEnclosure:
    """Certified enclosures of every singular value of the exact float64 ``matrix``.

    ``decomposition`` (U, s, V^T) defaults to numpy's thin float64 SVD; any other (even a wrong one)
    gives a valid, possibly wider, enclosure.

    >>> import numpy as np
    >>> enc = certify_dense(np.diag([3.0, 1.0]))
    >>> [b.contains(v) for b, v in zip(enc.balls, (3, 1))]
    [True, True]
    """
    values = np.asarray(matrix, dtype=np.float64)
    if values.ndim != 2 or 0 in values.shape:
        raise CertificationFailed(f"certify_dense needs a nonempty 2-d matrix; got shape {values.shape}")
    if decomposition is None:
        if not np.isfinite(values).all():
            raise CertificationFailed(
                "the matrix has NaN or infinite entries; its singular values are undefined"
            )
        decomposition = np.linalg.svd(values, full_matrices=False)
    u, s, vt = (np.asarray(x, dtype=np.float64) for x in decomposition)
    with flint_context():
        lower, upper = certify_svd(arb_matrix(values), u, s, vt)
    return SingularValueEnclosure(
        values.shape[0], values.shape[1], lower, upper, "float64 SVD + Weyl/multiplicative certificate in arb"
    )
