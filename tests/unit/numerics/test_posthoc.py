"""choose_p(): grid and continuous minimisers of the summand, formula pass-through, bad input."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp

from numerics.bounds.posthoc import choose_p, contribution
from numerics.spectra.spectrum import spectrum
from theory.errors import InvalidArgument
from theory.formula import Formula
from theory.provenance import Provenance, Tagged
from theory.proxy import SUMMAND, S, p, s

TAG = Tagged(Provenance.DERIVED, "test")


def summand_by_hand(sigma: np.ndarray, rank: int, q: float, scale: float, n: float) -> float:
    """C_q in float64, typed here independently of theory.proxy."""
    total = rank if q == 0 else float(np.sum(sigma**q))
    return total ** (1 / (q + 2)) * scale ** (q / (q + 2)) * n ** ((q + 1) / (q + 2))


def decaying_spectrum(size: int = 30, decay: float = 1.5):
    rng = np.random.default_rng(5)
    q1, _ = np.linalg.qr(rng.standard_normal((size, size)))
    q2, _ = np.linalg.qr(rng.standard_normal((size, size)))
    sigma = 3.0 * np.arange(1, size + 1, dtype=float) ** -decay
    return spectrum((q1 * sigma) @ q2.T), sigma


def test_large_scale_picks_rank_and_small_scale_picks_frobenius():
    spec = spectrum(np.eye(3))
    large = choose_p(spec, 1e6, 12, m=4)
    assert large.p_grid == 0
    assert float(large.value_grid) == pytest.approx(6.0, rel=1e-15)  # sqrt(N rank) = sqrt(36)
    small = choose_p(spec, 1e-6, 12, m=4)
    assert small.p_grid == 2
    # C_2 = N^{3/4} (s ||W||_F)^{1/2}
    assert float(small.value_grid) == pytest.approx(12**0.75 * (1e-6 * math.sqrt(3)) ** 0.5, rel=1e-13)


@pytest.mark.parametrize("scale", [0.05, 0.3, 1.0, 4.0])
def test_grid_choice_matches_a_brute_force_loop(scale):
    spec, sigma = decaying_spectrum()
    m = 7
    values = [summand_by_hand(sigma, 30, k / m, scale, 64) for k in range(2 * m + 1)]
    best = int(np.argmin(values))
    choice = choose_p(spec, scale, 64, m=m)
    assert choice.p_grid == Fraction(best, m)
    assert float(choice.value_grid) == pytest.approx(values[best], rel=1e-12)


@pytest.mark.parametrize("scale", [0.05, 0.3, 1.0, 4.0, 1e3])
def test_continuous_choice_matches_a_dense_scan(scale):
    spec, sigma = decaying_spectrum()
    qs = np.linspace(0.0, 2.0, 200_001)
    values = np.array([summand_by_hand(sigma, 30, q, scale, 64) for q in qs[::100]])
    fine_best = values.min()
    choice = choose_p(spec, scale, 64, m=7)
    assert float(choice.value_continuous) <= fine_best * (1 + 1e-12)
    assert float(choice.value_continuous) >= fine_best * (1 - 1e-5)
    assert choice.value_continuous <= choice.value_grid
    assert choice.gap >= 0
    assert float(choice.value_continuous) == pytest.approx(
        summand_by_hand(sigma, 30, choice.p_continuous, scale, 64), rel=1e-12
    )


def test_interior_minimiser_is_found_when_it_beats_the_grid():
    spec, _ = decaying_spectrum()
    choice = choose_p(spec, 0.3, 64, m=1)  # grid {0, 1, 2} only
    assert choice.p_continuous not in (0.0, 1.0, 2.0)
    assert choice.relative_gap > 0


def test_contribution_at_zero_is_sqrt_n_rank_whatever_the_scale():
    spec = spectrum(np.diag([5.0, 2.0, 1e-12]))  # numerical rank 2
    for scale in (1e-9, 1.0, 1e30):
        assert contribution(spec, 0, scale, 50) == mpmath.sqrt(100)


def test_formula_pass_through_and_mpmath_fallback():
    spec, _ = decaying_spectrum()
    k, c = sp.Symbol("k", positive=True), sp.Symbol("c", positive=True)
    n_sym = sp.Symbol("N", positive=True)
    scaled = Formula("scaled", k * SUMMAND.expr, (p, S, s, n_sym, k), TAG, "k C_p")
    shifted = Formula("shifted", SUMMAND.expr + c, (p, S, s, n_sym, c), TAG, "C_p + c (no log form)")
    base = choose_p(spec, 0.3, 64, m=5)
    times_three = choose_p(spec, 0.3, 64, m=5, formula=scaled, k=3)
    plus_two = choose_p(spec, 0.3, 64, m=5, formula=shifted, c=2)
    assert times_three.p_grid == base.p_grid == plus_two.p_grid
    assert float(times_three.value_grid) == pytest.approx(3 * float(base.value_grid), rel=1e-14)
    assert float(plus_two.value_grid) == pytest.approx(float(base.value_grid) + 2, rel=1e-14)
    assert float(plus_two.value_continuous) == pytest.approx(float(base.value_continuous) + 2, rel=1e-9)


def test_huge_scale_beyond_float64():
    spec = spectrum(np.diag([2.0, 1.0]))
    with mpmath.workdps(50):
        scale = mpmath.mpf(10) ** 5000
    choice = choose_p(spec, scale, 10, m=3)
    assert choice.p_grid == 0
    with mpmath.workdps(50):
        assert abs(choice.value_grid - mpmath.sqrt(20)) < mpmath.mpf(10) ** -48


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"m": 0}, "m=0"),
        ({"m": 1.5}, "m=1.5"),
        ({"m": 3, "dps": 5}, "dps"),
        ({"m": 3, "k": 1}, "not among"),
    ],
)
def test_bad_arguments(kwargs, message):
    with pytest.raises(InvalidArgument, match=message):
        choose_p(spectrum(np.eye(2)), 1.0, 4, **kwargs)


@pytest.mark.parametrize("scale", [float("nan"), float("inf"), "big"])
def test_bad_scale(scale):
    with pytest.raises(InvalidArgument, match="s="):
        choose_p(spectrum(np.eye(2)), scale, 4, m=2)


def test_formula_without_p_and_s_is_refused():
    x = sp.Symbol("x", positive=True)
    with pytest.raises(InvalidArgument, match="a formula of p and S"):
        choose_p(spectrum(np.eye(2)), 1.0, 4, m=2, formula=Formula("x", x, (x,), TAG, "x"))


@pytest.mark.parametrize("bad_p", [-0.5, 2.01, float("nan")])
def test_contribution_refuses_p_outside_0_2(bad_p):
    with pytest.raises(InvalidArgument, match="p="):
        contribution(spectrum(np.eye(2)), bad_p, 1.0, 4)


def test_skipping_the_continuous_search_keeps_the_grid_choice_and_refuses_the_continuous_values():
    spec, _ = decaying_spectrum()
    for scale in (1e-3, 0.3, 1e3):
        full = choose_p(spec, scale, 64, m=7)
        grid_only = choose_p(spec, scale, 64, m=7, continuous=False)
        assert (grid_only.p_grid, grid_only.value_grid) == (full.p_grid, full.value_grid)
        with pytest.raises(InvalidArgument, match="not computed"):
            _ = grid_only.p_continuous
        with pytest.raises(InvalidArgument, match="not computed"):
            _ = grid_only.gap
