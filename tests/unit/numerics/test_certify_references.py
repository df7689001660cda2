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
    balls = SimpleNamespace(balls=(arb(1), arb("1e-10", "1e-11")))
    counted = _count_above(balls, arb("1e-10"))
    assert (counted.lo, counted.hi) == (1, 2)


def test_scaling_and_widening_by_hand():
    (widened,) = scaled_and_widened([arb(2)], arb(0), arb(0), arb("0.5"))  # [1.5, 2.5]
    assert widened.contains(arb("1.5")) and widened.contains(arb("2.5"))
    assert float(widened.lower()) > 1.49 and float(widened.upper()) < 2.51
    (ball,) = scaled_and_widened([arb(2)], arb("0.1"), arb("0.2"), arb(0))
    with mpmath.workdps(50):
        low, high = (
            2 * mpmath.sqrt(mpmath.mpf("0.9") * mpmath.mpf("0.8")),
            2 * mpmath.sqrt(mpmath.mpf("1.1") * mpmath.mpf("1.2")),
        )
    assert ball.contains(arb(str(low))) and ball.contains(arb(str(high)))
    assert float(ball.upper()) < float(high) + 1e-6


def test_a_wrong_decomposition_still_gives_an_enclosure_of_the_true_values():
    # diag(3, 1) from U = I, s = (3.5, 1) and V^T with a first row of length 3/3.5 (not orthonormal: only
    # V's defect brings 3.5 down to 3)
    vt = np.array([[3 / 3.5, 0.0], [0.0, 1.0]])
    first, second = certify_svd(arb_matrix(np.diag([3.0, 1.0])), np.eye(2), np.array([3.5, 1.0]), vt)
    assert first.contains(3) and second.contains(1)
    # diag(3.2, 1) from the decomposition of diag(3, 1): only the residual 0.2 brings 3 up to 3.2
    first, second = certify_svd(arb_matrix(np.diag([3.2, 1.0])), np.eye(2), np.array([3.0, 1.0]), np.eye(2))
    assert first.contains(arb("3.2")) and second.contains(1)


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
