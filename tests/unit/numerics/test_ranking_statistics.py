"""The rank statistics on planted data with answers worked out by hand."""

from __future__ import annotations

import numpy as np
import pytest

from numerics.ranking.statistics import (
    granulated_psi,
    granulated_taus,
    kendall_tau,
    sign_error,
    tau_interval,
)
from theory.errors import InvalidArgument

RNG = np.random.default_rng(7)
GAPS = np.sort(RNG.uniform(0.0, 0.4, size=40))


def test_measure_equal_to_gap_has_tau_one_and_its_negative_minus_one() -> None:
    assert kendall_tau(GAPS, GAPS, 0.001) == 1.0
    assert kendall_tau(-GAPS, GAPS, 0.001) == -1.0
    up = tau_interval(np.exp(GAPS), GAPS, 0.001, resamples=200)
    assert (up.value, up.low, up.high) == (1.0, 1.0, 1.0)


def test_independent_measure_has_an_interval_containing_zero() -> None:
    noise = np.random.default_rng(11).standard_normal(GAPS.size)
    interval = tau_interval(noise, GAPS, 0.001, resamples=400, seed=3)
    assert interval.contains(0.0)
    assert interval.low is not None and interval.high is not None and interval.high - interval.low > 0.1


def test_indistinguishable_pairs_are_left_out() -> None:
    # gaps 0.10, 0.11, 0.30 with half-width 0.01: the pair (0, 1) overlaps and is dropped. The measure
    # orders (0, 1) wrongly but (0, 2) and (1, 2) rightly, so tau = 1 on the two kept pairs.
    assert kendall_tau([2.0, 1.0, 3.0], [0.10, 0.11, 0.30], 0.01) == 1.0
    # without the half-width the bad pair counts: (2 - 1) / 3
    assert kendall_tau([2.0, 1.0, 3.0], [0.10, 0.11, 0.30], 0.0) == pytest.approx(1 / 3)


def test_ties_in_the_measure_follow_tau_b() -> None:
    # pairs: (0,1) tie in measure, (0,2) concordant, (1,2) concordant: C=2, D=0, T_m=1 -> 2/sqrt(3*2)
    assert kendall_tau([1.0, 1.0, 2.0], [0.1, 0.2, 0.3]) == pytest.approx(2 / np.sqrt(6))
    assert kendall_tau([1.0, 1.0, 1.0], [0.1, 0.2, 0.3]) is None


def test_bad_input_is_rejected() -> None:
    with pytest.raises(InvalidArgument, match="NaN"):
        kendall_tau([1.0, np.nan], [0.1, 0.2])
    with pytest.raises(InvalidArgument, match="one value per model"):
        kendall_tau([1.0], [0.1, 0.2])


def _design() -> tuple[list[dict[str, object]], np.ndarray]:
    """Base (width 8, lr 1) plus one-at-a-time changes, two seeds; gap grows with width, falls with lr."""
    coords, gaps = [], []
    for seed in (0, 1):
        for width, lr in ((8, 1), (16, 1), (32, 1), (8, 2), (8, 4)):
            coords.append({"width": width, "lr": lr, "seed": seed})
            gaps.append(0.01 * width / lr + 0.001 * seed)
    return coords, np.array(gaps)


def test_granulated_tau_on_a_planted_design() -> None:
    coords, gaps = _design()
    # a measure that sees width only: right order within width groups, constant within lr groups
    width_only = np.array([c["width"] for c in coords], dtype=float)
    psis = granulated_taus(width_only, gaps, 0.0, coords, ["width", "lr"])
    assert psis == {"width": 1.0, "lr": None}
    # a measure that increases with lr orders the lr groups backwards
    lr_up = np.array([c["width"] * c["lr"] for c in coords], dtype=float)  # type: ignore[operator]
    psis = granulated_taus(lr_up, gaps, 0.0, coords, ["width", "lr"])
    assert psis == {"width": 1.0, "lr": -1.0}
    assert granulated_psi(lr_up, gaps, 0.0, coords, ["width", "lr"]) == 0.0


def test_sign_error_on_a_planted_case() -> None:
    coords, gaps = _design()
    # Measure right on width 8 vs 16 (both seeds), wrong on 8 vs 32 for seed 0 only, tied on lr pairs
    # of seed 1, wrong on lr 1 vs 2 for seed 0, right on the rest. By hand per environment:
    # width 8v16: 0, 0 -> 0; width 8v32: 1, 0 -> 0.5; width 16v32: seed0 measure 32 < 16 wrong, seed1
    # right -> 0.5; lr 1v2: seed0 wrong (1), seed1 tie (1/2) -> 0.75; lr 1v4: seed0 right, seed1 tie -> 0.25;
    # lr 2v4: seed0 right, seed1 tie -> 0.25.
    measure = {
        (8, 1, 0): 1.0, (16, 1, 0): 2.0, (32, 1, 0): 0.5, (8, 2, 0): 3.0, (8, 4, 0): 0.1,
        (8, 1, 1): 1.0, (16, 1, 1): 2.0, (32, 1, 1): 3.0, (8, 2, 1): 1.0, (8, 4, 1): 1.0,
    }  # fmt: skip
    values = np.array([measure[c["width"], c["lr"], c["seed"]] for c in coords])  # type: ignore[index]
    result = sign_error(values, gaps, 0.0, coords, ["width", "lr"])
    assert result.environments == {
        "lr: 1 vs 2": 0.75,
        "lr: 1 vs 4": 0.25,
        "lr: 2 vs 4": 0.25,
        "width: 8 vs 16": 0.0,
        "width: 8 vs 32": 0.5,
        "width: 16 vs 32": 0.5,
    }
    assert result.worst == 0.75
    assert result.quantile == pytest.approx(np.quantile([0.75, 0.25, 0.25, 0.0, 0.5, 0.5], 0.9))
    perfect = sign_error(gaps, gaps, 0.0, coords, ["width", "lr"])
    assert perfect.worst == 0.0
