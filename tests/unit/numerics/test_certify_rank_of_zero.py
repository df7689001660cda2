"""A zero matrix's certified ranks are 0: the tolerance RANK_TOLERANCE * count * sigma_1 is exactly 0 when
sigma_1 is exactly 0, so an enclosure [0, 0] is not counted as possibly above it (a pruned head)."""

from __future__ import annotations

import numpy as np

from numerics.certify.enclosure import SingularValueEnclosure
from numerics.certify.rank import certified_numerical_rank, certified_rank


def _enclosure(lower: list[float], upper: list[float]) -> SingularValueEnclosure:
    return SingularValueEnclosure(4, 4, np.array(lower), np.array(upper), "test")


def test_exact_zeros_have_rank_0_both_ways():
    zeros = _enclosure([0.0] * 4, [0.0] * 4)
    assert (str(certified_rank(zeros)), str(certified_numerical_rank(zeros))) == ("0", "0")


def test_zeros_enclosed_loosely_stay_undecided():
    loose = _enclosure([0.0] * 4, [1e-20] * 4)
    assert str(certified_numerical_rank(loose)) == "[0, 4]"
