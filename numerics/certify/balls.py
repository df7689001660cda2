"""Ball-arithmetic building blocks (python-flint ``arb``): exact input, rigorous norms, outward output.

Every function here returns arb balls that contain the exact real number they name; the inputs are
float64 arrays, which are exact binary rationals (a float32 weight upcast to float64 is exact, so the
float64 array *is* the stored weight). Precision: :data:`PRECISION` bits; a ball's radius accounts
for every rounding (Johansson, "Arb: efficient arbitrary-precision midpoint-radius interval
arithmetic", IEEE Trans. Computers 66 (2017); provenance ``standard``).
"""

from __future__ import annotations

import math
import sys
from contextlib import AbstractContextManager
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np

from theory.errors import CertificationFailed, require

if TYPE_CHECKING:
    from flint import arb, arb_mat

PRECISION = 128
"""Working precision in bits of every certificate (products of two float64 numbers need 106 bits)."""


def flint() -> ModuleType:
    """python-flint, imported through the one optional-import guard (:func:`theory.errors.require`): a
    missing package is a :class:`~theory.errors.MissingDependency` naming it and the ``certify`` extra.

    Once imported it is taken from ``sys.modules`` directly (a certificate asks for it tens of thousands
    of times; the guard's module search cost more than the ball arithmetic of some callers)."""
    imported = sys.modules.get("flint")
    return imported if imported is not None else require("flint", purpose="certified intervals")


def arb_type() -> type[arb]:
    """python-flint's ball type ``arb`` (through :func:`flint`), for every certified function."""
    return flint().arb


def arb_mat_type() -> type[arb_mat]:
    """python-flint's ball-matrix type ``arb_mat`` (through :func:`flint`)."""
    return flint().arb_mat


def flint_context() -> AbstractContextManager[object]:
    """A context manager setting python-flint's working precision to :data:`PRECISION` bits."""
    return flint().ctx.workprec(PRECISION)


def arb_matrix(array: np.ndarray) -> arb_mat:
    """The float64 matrix ``array`` as an exact arb matrix (every entry a ball of radius 0).

    A Python float converts to arb exactly, so no rounding happens; non-finite entries are refused.

    >>> import numpy as np
    >>> with flint_context():
    ...     m = arb_matrix(np.array([[0.1, 2.0]]))
    >>> m[0, 0].rad() == 0 and float(m[0, 0].mid()) == 0.1
    True
    """
    arb_mat = arb_mat_type()

    values = np.asarray(array, dtype=np.float64)
    if values.ndim != 2 or not np.isfinite(values).all():
        raise CertificationFailed(
            f"a certificate needs a finite 2-d float64 matrix; got shape {values.shape} "
            f"with {int(values.size - np.count_nonzero(np.isfinite(values)))} non-finite entries"
        )
    return arb_mat(values.tolist()) if values.size else arb_mat(*values.shape)


def diagonal(values: np.ndarray) -> arb_mat:
    """diag(values) as an exact k x k arb matrix."""
    arb, arb_mat = arb_type(), arb_mat_type()

    k = len(values)
    out = arb_mat(k, k)
    for i, v in enumerate(np.asarray(values, dtype=np.float64).tolist()):
        out[i, i] = arb(v)
    return out


def sum_of_squares(matrix: arb_mat) -> arb:
    """A ball containing sum_ij M_ij^2 for every matrix M inside the ball matrix, clipped at 0."""
    arb = arb_type()

    total = arb(0)
    for x in matrix.entries():
        total += x * x
    return total.nonnegative_part()


def frobenius_norm(matrix: arb_mat) -> arb:
    """A ball containing ||M||_F, an upper bound of the spectral norm ||M||_2 (standard: Horn & Johnson,
    Matrix Analysis, 2nd ed., §5.6, ||M||_2 <= ||M||_F)."""
    return sum_of_squares(matrix).sqrt()


def orthogonality_defect(q: arb_mat) -> arb:
    """A ball containing ||Q^T Q - I||_F >= ||Q^T Q - I||_2 for the exact (float64) columns of Q.

    If f = ||Q^T Q - I||_2 < 1, every eigenvalue of Q^T Q lies in [1 - f, 1 + f] (Weyl's eigenvalue
    inequality, Horn & Johnson, Matrix Analysis, 2nd ed., Thm 4.3.1), so every singular value of Q
    lies in [sqrt(1 - f), sqrt(1 + f)] and Q has full column rank (standard).
    """
    gram = q.transpose() * q
    for i in range(gram.nrows()):
        gram[i, i] -= 1
    return frobenius_norm(gram)


def interval(lower: arb, upper: arb) -> arb:
    """The smallest ball (up to the radius' 30-bit rounding) containing both balls."""
    return lower.union(upper)


def outward(x: arb) -> tuple[float, float]:
    """Floats (lo, hi) with lo <= x <= hi for every point of the ball: the endpoints rounded outward.

    >>> from flint import arb
    >>> lo, hi = outward(arb(1) / 3)
    >>> lo <= 1 / 3 <= hi and hi - lo < 1e-15
    True
    """
    arb = arb_type()

    if not x.is_finite():
        raise CertificationFailed(f"the enclosure {x.str(5)} is not finite; it cannot be reported as floats")
    lo_ball, hi_ball = x.lower(), x.upper()
    lo, hi = float(lo_ball.mid()), float(hi_ball.mid())
    while not arb(lo) <= lo_ball:
        lo = math.nextafter(lo, -math.inf)
    while not arb(hi) >= hi_ball:
        hi = math.nextafter(hi, math.inf)
    return lo, hi
