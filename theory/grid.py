"""The post hoc grid P_m = {0, 1/m, 2/m, ..., 2} as exact fractions (exact: the authors' ``bounds.py``).

Defined here once, without sympy, so the bound path can build it at run time; :func:`theory.proxy.grid`
gives the same points as sympy Rationals.
"""

from __future__ import annotations

import functools
from fractions import Fraction

from theory.errors import InvalidArgument


def grid_fractions(m: int) -> tuple[Fraction, ...]:
    """P_m = {0, 1/m, ..., 2} (2m + 1 points, exact, cached); InvalidArgument unless m is an integer >= 1.

    >>> [str(x) for x in grid_fractions(2)]
    ['0', '1/2', '1', '3/2', '2']
    """
    if not isinstance(m, int) or isinstance(m, bool) or m < 1:
        raise InvalidArgument(f"grid m={m!r} must be an integer >= 1; the grid is P_m = {{0, 1/m, ..., 2}}")
    return _grid(m)


@functools.cache
def _grid(m: int) -> tuple[Fraction, ...]:
    return tuple(Fraction(k, m) for k in range(2 * m + 1))
