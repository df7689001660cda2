"""Each verdict's condition on hand-made inputs whose right verdict is known by hand: claim 16's intervals,
claim 12a's dominance (the larger of the two upper limits) and its vacuity ceiling, the exact rank of a
matrix with a tiny singular value, and post hoc ties (to the smallest p). Each kills a mutant of
benchmarks/mutants.py that the broader tests missed."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np

from numerics.bounds.assembled import MpmathAssembledArithmetic
from numerics.bounds.posthoc import choose_p
from numerics.bounds.schatten import exact_rank
from numerics.ranking.statistics import Interval, SignError
from numerics.ranking.table import MeasureRanking, RankingTable
from numerics.spectra.spectrum import spectrum
from numerics.synthetic.gap import BoundRow, GapMeasurement
from paper_checks.claims import c16_predictive_ranking as c16
from paper_checks.registry import Verdict


def _ranking(ours: tuple[float, float], edelman: tuple[float, float]) -> RankingTable:
    def row(name: str, low: float, high: float) -> MeasureRanking:
        return MeasureRanking(name, Interval((low + high) / 2, low, high, 200), {}, SignError({}, None, None))

    rows = (row("B_ours", *ours), row("B_Edelman", *edelman))
    return RankingTable(
        rows, models=10, distinguishable_pairs=40, pairs=45, hyperparameters=(), resamples=200
    )


def test_claim16_is_verified_only_when_ours_lies_wholly_above():
    assert c16.check(_ranking((0.5, 0.9), (0.1, 0.4))).verdict is Verdict.VERIFIED
    assert c16.check(_ranking((0.3, 0.9), (0.1, 0.4))).verdict is Verdict.OPEN  # they overlap on [0.3, 0.4]
    assert c16.check(_ranking((0.1, 0.4), (0.5, 0.9))).verdict is Verdict.REFUTED
    assert c16.check(_ranking((0.1, 0.4), (0.4, 0.9))).verdict is Verdict.OPEN  # they touch at 0.4


def _row(ours: float, margin_upper: float, ramp_upper: float) -> BoundRow:
    # half-width 0.01; train errors 0: the upper limits are the test errors + 0.01
    gap = GapMeasurement(1000, 1000, 1.0, 0.05, 0.0, margin_upper - 0.01, 0.0, ramp_upper - 0.01, 0.01)
    return BoundRow("m", 2, 16, 2, 8, "task", gap, 0.05, ours, 1.0, 1.0, 1.0, 0.0)


def test_a_bound_dominates_only_above_the_larger_upper_limit():
    assert _row(0.5, 0.3, 0.4).dominates
    assert not _row(0.35, 0.3, 0.4).dominates  # above the margin gap's limit, below the ramp gap's


def test_the_exact_rank_counts_a_tiny_nonzero_singular_value():
    assert exact_rank(spectrum(np.diag([1.0, 1e-14]))) == 2


def test_post_hoc_ties_go_to_the_smallest_p():
    # the zero matrix: S_p = 0 for every p, so every grid point ties at the value 0
    choice = choose_p(spectrum(np.zeros((3, 3))), 10.0, 12, m=4, continuous=False)
    assert choice.p_grid == 0 and choice.value_grid == 0
    options = [
        (Fraction(0), 0, mpmath.mpf(1)),
        (Fraction(1, 2), 0, mpmath.mpf(1)),
        (Fraction(1), 0, mpmath.mpf(2)),
    ]
    assert MpmathAssembledArithmetic(30).least(options)[0][0] == 0


def test_claim12a_is_by_construction_when_every_bound_is_above_the_ceiling():
    from numerics.synthetic.gap import RatioTable
    from paper_checks.claims import c12_bound_dominates_gap as c12

    # 0-1 gaps have upper limits of at most 1 + h = 1.01: a bound of 5 dominates whatever was measured
    above = RatioTable((_row(5.0, 0.3, 0.4),), 1.0, 0.05, 1000, 0.05)
    assert c12.check(above).verdict is Verdict.BY_CONSTRUCTION
    below = RatioTable((_row(0.5, 0.3, 0.4),), 1.0, 0.05, 1000, 0.05)
    assert c12.check(below).verdict is Verdict.VERIFIED


def test_claim5b_is_refuted_by_a_grid_without_2m_plus_1_points():
    import sympy as sp

    from paper_checks.claims import c05b_posthoc_choice_valid as c05b
    from theory import assembled as theorem

    union = theorem.K * sp.log(2 * theorem.m + 1)
    audits = [c05b.ModelAudit("m", (), 0)]
    assert c05b.check(sp.Integer(1), union, [(4, 9)], audits).verdict is Verdict.VERIFIED
    assert c05b.check(sp.Integer(1), union, [(4, 8)], audits).verdict is Verdict.REFUTED  # P_4 has 9 points


def test_claim8a_is_refuted_by_sqrt_depth_without_its_log():
    # sqrt(L) is not sqrt(L ln L): the law's log power (0 here, 1/2 claimed) must match too
    import sympy as sp

    from paper_checks.claims import c08a_l2_sqrt_depth as c08a
    from theory.growth import Growth
    from theory.regimes import DepthLaw

    sqrt_only = Growth(sp.Integer(0), sp.Rational(1, 2), sp.Integer(0))
    assert (
        c08a.check(DepthLaw("ours_l2", "planted", sqrt_only, sqrt_only, sqrt_only)).verdict is Verdict.REFUTED
    )


def _claim_10b_on(monkeypatch, ours: float, sigma: float) -> Verdict:
    """Claim 10b on a hand-made one-matrix report (N = 4, rank 4, L = 1) whose post hoc choice is p = 1/2:
    its p = 0 values by hand are B_ours = sqrt(4 * 4) + sqrt(1) = 5 and Sigma = 3 * 4 * 2^2 + 3 * 4 = 60."""
    from types import SimpleNamespace

    import numerics.bounds.assembled as assembled
    import numerics.bounds.proxies as proxies
    from paper_checks.claims import c10b_adaptivity_exercised as c10b

    matrix = SimpleNamespace(spectrum=SimpleNamespace(rank=4, shape=(4, 4)), p_opt=Fraction(1, 2))
    report = SimpleNamespace(hidden_size=4, num_layers=1, matrices=[matrix], ours=ours)
    bound = SimpleNamespace(matrices=[SimpleNamespace(p=Fraction(1, 2))], sigma=sigma)
    monkeypatch.setattr(proxies, "proxies", lambda weights: report)
    monkeypatch.setattr(assembled, "assembled_bound", lambda *args, **kwargs: bound)
    return c10b.check(SimpleNamespace(source="hand-made")).verdict


def test_claim_10b_needs_both_bounds_strictly_below_their_p_zero_values(monkeypatch):
    assert _claim_10b_on(monkeypatch, 4.5, 59.0) is Verdict.VERIFIED
    assert _claim_10b_on(monkeypatch, 5.0, 59.0) is Verdict.REFUTED  # a tie is not adaptivity
    assert _claim_10b_on(monkeypatch, 4.5, 60.0) is Verdict.REFUTED
