"""The rank of a matrix as a certified interval [r_lo, r_hi] from enclosures of its singular values.

- Exact rank (standard: rank = number of nonzero singular values): r_lo counts the enclosures that
  exclude 0, r_hi those that may contain a nonzero value; structural zeros count for neither.
- Numerical rank as in the authors' code (exact, docs: notation;
  ``numerics.spectra.spectrum.numerical_rank``):
  #{sigma_i > tol}, tol = 1e-10 * max(count, 1) * max(sigma_1, 1). With sigma_1 and every sigma_i
  enclosed, r_lo counts the sigma_i certainly above every possible tol and r_hi those possibly above.
When r_lo = r_hi the rank is decided; otherwise every rank in between is possible and the p = 0
summand sqrt(N rank) is reported as the interval over them. The tolerances are bounded in floats, each
product stepped outward (:mod:`numerics.certify.directed`); the enclosures are float intervals.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numerics.certify.directed import product_down, product_up
from numerics.certify.enclosure import SingularValueEnclosure
from numerics.spectra.spectrum import RANK_TOLERANCE


@dataclass(frozen=True)
class RankInterval:
    """Integers lo <= hi with the rank in [lo, hi] (certified)."""

    lo: int
    hi: int

    @property
    def decided(self) -> bool:
        """True when the interval is a single rank."""
        return self.lo == self.hi

    def __contains__(self, rank: object) -> bool:
        return isinstance(rank, int) and self.lo <= rank <= self.hi

    def __str__(self) -> str:
        return str(self.lo) if self.decided else f"[{self.lo}, {self.hi}]"


def certified_rank(enclosure: SingularValueEnclosure) -> RankInterval:
    """The exact rank of the matrix as an interval (enclosures excluding 0 vs those that may be nonzero).

    >>> import numpy as np
    >>> from numerics.certify.enclosure import certify_dense
    >>> str(certified_rank(certify_dense(np.diag([2.0, 1.0, 0.0]))))  # the float SVD is exact here
    '2'
    """
    return RankInterval(
        int(np.count_nonzero(enclosure.lower > 0)), int(np.count_nonzero(enclosure.upper > 0))
    )


def certified_numerical_rank(enclosure: SingularValueEnclosure) -> RankInterval:
    """The authors' numerical rank #{sigma_i > 1e-10 * max(count, 1) * max(sigma_1, 1)} as an interval,
    count = min(rows, cols) (zeros included, as :func:`numerics.spectra.spectrum.numerical_rank`); where
    that rank may be 0, the scale-invariant #{sigma_i > 1e-10 * max(count, 1) * sigma_1} of a matrix below
    the floor (as there) joins the interval.

    >>> import numpy as np
    >>> from numerics.certify.enclosure import certify_dense
    >>> str(certified_numerical_rank(certify_dense(np.diag([2.0, 1.0, 0.0]))))
    '2'
    """
    count = max(min(enclosure.rows, enclosure.cols), 1)
    top = (float(enclosure.lower[0]), float(enclosure.upper[0])) if len(enclosure.lower) else (0.0, 0.0)
    floor = _count_above(enclosure, count, (max(top[0], 1.0), max(top[1], 1.0)))
    if floor.lo > 0:
        return floor
    relative = _count_above(enclosure, count, top)
    if floor.hi == 0:
        return relative
    return RankInterval(min(1, relative.lo), max(floor.hi, relative.hi))


def _count_above(enclosure: SingularValueEnclosure, count: int, scale: tuple[float, float]) -> RankInterval:
    """[#{sigma_i certainly > t}, #{sigma_i possibly > t}] for t = RANK_TOLERANCE * count * x, x anywhere
    in [scale[0], scale[1]] (RANK_TOLERANCE the float, exactly): t lies in [t_lo, t_hi], bounded by
    stepped products (:func:`~numerics.certify.directed.product_down`, :func:`~.product_up`; a product by an
    exact 0 is exactly 0: a zero matrix keeps rank 0), so lo_i > t_hi is certain and hi_i > t_lo possible."""
    low = product_down(RANK_TOLERANCE, count, scale[0])
    high = product_up(RANK_TOLERANCE, count, scale[1])
    return RankInterval(
        int(np.count_nonzero(enclosure.lower > high)), int(np.count_nonzero(enclosure.upper > low))
    )
