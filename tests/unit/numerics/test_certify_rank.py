"""Certified rank intervals: exact rank and the authors' numerical rank."""

from __future__ import annotations

import numpy as np
from flint import arb

from numerics.certify.enclosure import SingularValueEnclosure, certify_dense
from numerics.certify.rank import RankInterval, certified_numerical_rank, certified_rank
from numerics.certify.thin import certify_product
from numerics.spectra.spectrum import numerical_rank
from tests.helpers.planted_matrices import planted


def test_planted_rank_deficient_matrix():
    values = [5.0, 2.0, 1.0, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    w = planted(16, 16, values, seed=11)
    enclosure = certify_dense(w)
    exact = certified_rank(enclosure)
    assert exact.lo == 4 and 4 in exact
    numerical = certified_numerical_rank(enclosure)
    assert numerical.decided and numerical.lo == 4
    assert numerical_rank(np.linalg.svd(w, compute_uv=False), 16) == numerical.lo


def test_thin_product_rank_counts_no_structural_zero():
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((20, 3)), rng.standard_normal((20, 3))
    enclosure = certify_product(a, b)
    assert str(certified_rank(enclosure)) == "3"
    assert str(certified_numerical_rank(enclosure)) == "3"


def test_value_straddling_the_tolerance_leaves_the_numerical_rank_undecided():
    # tol = 1e-10 * 3 * max(sigma_1, 1) = 6e-10 (1e-10 the float of the authors' code); ball 3 straddles it
    third = 1e-10 * 6
    enclosure = SingularValueEnclosure(
        3, 3, np.array([2, 1, third - 1e-12]), np.array([2, 1, third + 1e-12]), "hand"
    )
    assert certified_numerical_rank(enclosure) == RankInterval(2, 3)
    assert str(certified_numerical_rank(enclosure)) == "[2, 3]"
    assert certified_rank(enclosure) == RankInterval(3, 3)


def test_ball_containing_zero_counts_only_in_the_upper_end():
    enclosure = SingularValueEnclosure(2, 2, np.array([1.0, 0.0]), np.array([1.0, 1e-20]), "hand-made")
    assert certified_rank(enclosure) == RankInterval(1, 2)
    assert not certified_rank(enclosure).decided
    assert 1 in certified_rank(enclosure) and 3 not in certified_rank(enclosure)


def test_undecided_rank_gives_the_p0_summand_as_an_interval_over_the_possible_ranks():
    import numpy as np

    from numerics.bounds.schatten import schatten_power_sum
    from numerics.certify.certified import ArbSpectra, CertifiedMatrix
    from numerics.certify.interval_eval import interval_evaluate
    from numerics.spectra.matrices import NamedMatrix
    from theory.proxy import SUMMAND, MatrixKind

    third = 1e-10 * 6
    enclosure = SingularValueEnclosure(
        3, 3, np.array([2, 1, third - 1e-12]), np.array([2, 1, third + 1e-12]), "hand"
    )
    matrix = NamedMatrix(0, -1, MatrixKind.M_IN, np.eye(3))
    certified = CertifiedMatrix(
        matrix, enclosure, certified_numerical_rank(enclosure), RankInterval(3, 3), (3.0, 3.0)
    )
    rank_ball = schatten_power_sum(ArbSpectra(), certified, 0)
    assert rank_ball.contains(2) and rank_ball.contains(3) and not rank_ball.contains(4)
    summand = interval_evaluate(SUMMAND, p=0, S=rank_ball, s=5, N=6)
    assert summand.contains(arb(12).sqrt()) and summand.contains(arb(18).sqrt())  # sqrt(N r) for r = 2, 3
    assert not summand.contains(arb(19).sqrt())
