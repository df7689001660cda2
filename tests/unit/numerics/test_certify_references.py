"""certify's enclosures on hand-computed cases: a shell contains the whole ball (not its midpoint), ranks
count every singular value a ball may hold, an SVD's enclosure holds for a wrong decomposition (defects of
both factors and the whole residual), post hoc ties go to the smallest p with every point that may attain
the minimum, and a comparison of overlapping balls is undecided (each kills a mutant of
benchmarks/mutants.py)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from types import SimpleNamespace

import mpmath
import numpy as np
import pytest

pytest.importorskip("flint", reason="certify needs python-flint")

from flint import arb

from numerics.certify.assembled import ArbAssembledArithmetic, certified_shell
from numerics.certify.balls import arb_matrix
from numerics.certify.enclosure import certify_dense, certify_svd, scaled_and_widened
from numerics.certify.interval_eval import ArbArithmetic
from numerics.certify.rank import _count_above, certified_rank
from theory.assembled import SCHATTEN_SHELL, SCHATTEN_SHELL_INDEX


def test_a_shell_contains_every_point_of_the_ball_from_a_low_first_guess():
    # the ball [3, 5]: 2^2 = 4 holds its midpoint but not 5; the smallest dyadic shell is 2^3
    low_index = dataclasses.replace(SCHATTEN_SHELL_INDEX, expr=SCHATTEN_SHELL_INDEX.expr - 5)
    j, rounded = certified_shell(low_index, SCHATTEN_SHELL, arb(4, 1))
    assert j == 3 and rounded >= 5


def test_a_ball_reaching_zero_is_not_taken_for_a_pruned_head():
    j, rounded = certified_shell(SCHATTEN_SHELL_INDEX, SCHATTEN_SHELL, arb("1.5", "1.5"))
    assert j == 2 and rounded >= 3  # [0, 3]: shell 2^2


def test_the_exact_rank_counts_a_tiny_nonzero_singular_value():
    assert str(certified_rank(certify_dense(np.diag([1.0, 1e-13])))) == "2"


def test_a_ball_straddling_the_tolerance_may_be_above_it():
    # sigma_2 in [0.9e-10, 1.1e-10] straddles t = 1e-10 (the float RANK_TOLERANCE times count 1 times 1)
    enclosure = SimpleNamespace(lower=np.array([1.0, 0.9e-10]), upper=np.array([1.0, 1.1e-10]))
    counted = _count_above(enclosure, 1, (1.0, 1.0))
    assert (counted.lo, counted.hi) == (1, 2)
    # t in [1e-10, 3e-10] (scale 1 to 3): a value at 2e-10 may be above it, one at 4e-10 certainly is
    enclosure = SimpleNamespace(lower=np.array([4e-10, 2e-10]), upper=np.array([4e-10, 2e-10]))
    counted = _count_above(enclosure, 1, (1.0, 3.0))
    assert (counted.lo, counted.hi) == (1, 2)


def test_scaling_and_widening_by_hand():
    two = np.array([2.0])
    low, high = scaled_and_widened(two, two, 0.0, 0.0, 0.5)  # [1.5, 2.5]
    assert 1.49 < low[0] <= 1.5 and 2.5 <= high[0] < 2.51
    f_left, f_right = 0.1, 0.2  # the floats nearest 0.1 and 0.2, exactly
    low, high = scaled_and_widened(two, two, f_left, f_right, 0.0)
    with mpmath.workdps(50):
        exact_low = 2 * mpmath.sqrt((1 - mpmath.mpf(f_left)) * (1 - mpmath.mpf(f_right)))
        exact_high = 2 * mpmath.sqrt((1 + mpmath.mpf(f_left)) * (1 + mpmath.mpf(f_right)))
        assert mpmath.mpf(float(low[0])) <= exact_low and exact_high <= mpmath.mpf(float(high[0]))
        assert exact_high + mpmath.mpf("1e-14") > mpmath.mpf(float(high[0]))


def test_a_wrong_decomposition_still_gives_an_enclosure_of_the_true_values():
    # diag(3, 1) from U = I, s = (3.5, 1) and V^T with a first row of length 3/3.5 (not orthonormal: only
    # V's defect brings 3.5 down to 3)
    vt = np.array([[3 / 3.5, 0.0], [0.0, 1.0]])
    low, high = certify_svd(arb_matrix(np.diag([3.0, 1.0])), np.eye(2), np.array([3.5, 1.0]), vt)
    assert low[0] <= 3 <= high[0] and low[1] <= 1 <= high[1]
    # diag(3.2, 1) from the decomposition of diag(3, 1): only the residual 0.2 brings 3 up to 3.2
    low, high = certify_svd(arb_matrix(np.diag([3.2, 1.0])), np.eye(2), np.array([3.0, 1.0]), np.eye(2))
    assert low[0] <= 3.2 <= high[0] and low[1] <= 1 <= high[1]


def test_post_hoc_ties_go_to_the_smallest_p_with_every_possible_minimiser():
    options = [(Fraction(0), 0, arb(1)), (Fraction(1, 2), 0, arb(1)), (Fraction(1), 0, arb("1.5", "0.6"))]
    best, candidates = ArbAssembledArithmetic().least(options)
    assert best[0] == 0 and candidates == (Fraction(0), Fraction(1, 2), Fraction(1))


def test_overlapping_balls_are_not_ordered():
    assert ArbArithmetic().less(arb(1, 1), arb("1.5")) is None
    assert ArbArithmetic().less(arb(1), arb(2)) is True


def test_the_readouts_schatten_sum_at_p_0_is_its_rank_1():
    # the class's worst read-out e_1 (norm 1, rank 1): S_0 = 1, S_1 = ||w|| = 1; w = (3, 4): S_0 = 1, S_1 = 5
    from numerics.bounds.assembled import readout
    from numerics.certify.assembled import certified_schatten, certify_readout

    worst = certify_readout(readout(None, 4))
    assert certified_schatten(worst, Fraction(0)).contains(1) and certified_schatten(worst, Fraction(0)) > 0
    trained = certify_readout(readout(np.array([3.0, 4.0]), 2))
    assert certified_schatten(trained, Fraction(0)).contains(1)
