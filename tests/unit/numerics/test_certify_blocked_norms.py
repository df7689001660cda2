"""The dense (2,1)-norm certificate and its float32 test, taken in blocks of rows or columns: an entry in
the last block still counts, and the ball still holds the exact norm (mpmath at 50 digits)."""

from __future__ import annotations

import mpmath
import numpy as np
from flint import arb

from numerics.certify import norms
from numerics.certify.fast import norm_21_dense_fast
from tests.helpers.float_intervals import encloses, relative_width


def test_float32_test_sees_the_last_row_block(monkeypatch):
    monkeypatch.setattr(norms, "ROW_BLOCK_CELLS", 8)  # blocks of 2 rows of a 9 x 4 matrix
    values = np.ones((9, 4), dtype=np.float32).astype(np.float64)
    assert norms.is_float32_exact(values)
    values[8, 3] = 0.1  # not a float32 number
    assert not norms.is_float32_exact(values)
    assert norms.is_float32_exact(np.zeros((0, 4)))


def test_dense_norm_in_column_blocks_holds_the_exact_value(monkeypatch):
    # blocks of 2 columns of a 10 x 7 matrix
    monkeypatch.setattr("numerics.certify.fast.NORM_BLOCK_CELLS", 20)
    rng = np.random.default_rng(21)
    for values in (rng.standard_normal((10, 7)), rng.standard_normal((10, 7)).astype(np.float32)):
        bounds = norm_21_dense_fast(values.astype(np.float64))
        with mpmath.workdps(50):
            exact = sum(
                mpmath.sqrt(sum(mpmath.mpf(float(x)) ** 2 for x in column)) for column in values.T.tolist()
            )
            assert encloses(bounds, arb(mpmath.nstr(exact, 45)))
        assert relative_width(bounds) < 2e-13
