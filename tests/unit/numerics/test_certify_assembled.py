"""The certified assembled bound (reconstructed Theorem 3.1) against numerics.bounds.assembled's mpmath
value."""

from __future__ import annotations

import numpy as np
import pytest
from flint import arb, ctx

from numerics.bounds.assembled import assembled_bound
from numerics.certify.assembled import certified_shell, certify_assembled
from tests.helpers.certified_reference import REFERENCE_ROUNDING, random_model
from theory import assembled as theorem
from theory.errors import InvalidArgument

SETTING = {"n": 2000, "delta": 0.05, "margin": 0.5, "T": 16}


def test_certified_gap_contains_the_plain_value_with_the_same_shells_and_p():
    model = random_model(2, 8, 2, 16, seed=3)
    certified = certify_assembled(model, **SETTING)
    plain = assembled_bound(model, **SETTING)
    value = float(plain.gap)
    assert (certified.gap + arb(0, REFERENCE_ROUNDING * value)).contains(arb(value))
    assert float(2 * certified.gap.rad() / certified.gap.mid()) < 1e-10
    # K = L (2H + 2) + 1 = 13: the read-out w is the 13th matrix
    assert (certified.m, certified.matrix_count, certified.max_dimension) == (plain.m, 13, 16)
    for ours, theirs in zip(certified.matrices, plain.matrices, strict=True):
        assert (ours.spectral_shell, ours.schatten_shell) == (theirs.spectral_shell, theirs.schatten_shell)
        assert theirs.p in ours.candidates and ours.p == theirs.p


def test_certified_and_plain_cover_the_same_trained_read_out():
    model = random_model(1, 8, 2, 16, seed=6)
    w = np.linspace(-0.3, 0.2, 8)  # ||w|| ~ 0.52 < 1: used as is
    certified = certify_assembled(model, **SETTING, readout_weight=w)
    plain = assembled_bound(model, **SETTING, readout_weight=w)
    ours, theirs = certified.matrices[-1], plain.matrices[-1]
    assert abs(float(ours.spectrum.spectral_norm.mid()) - float(np.linalg.norm(w))) < 1e-14
    shells = (ours.spectral_shell, ours.schatten_shell, ours.p)
    assert shells == (theirs.spectral_shell, theirs.schatten_shell, theirs.p)
    value = float(plain.gap)
    assert (certified.gap + arb(0, REFERENCE_ROUNDING * value)).contains(arb(value))


def test_shell_is_certainly_above_the_whole_ball():
    exact = certified_shell(theorem.SPECTRAL_SHELL_INDEX, theorem.SPECTRAL_SHELL, arb(2), L=1)
    assert exact[0] == 4 and exact[1].contains(2)  # 2^{4/4} = 2 >= 2
    straddling = certified_shell(theorem.SPECTRAL_SHELL_INDEX, theorem.SPECTRAL_SHELL, arb(2, "1e-20"), L=1)
    assert straddling[0] == 5  # 2 is not >= every point of [2 - 1e-20, 2 + 1e-20]
    assert certified_shell(theorem.SCHATTEN_SHELL_INDEX, theorem.SCHATTEN_SHELL, arb(5))[0] == 3


def test_bound_adds_the_empirical_risk_and_checks_it():
    certified = certify_assembled(random_model(1, 8, 2, 16, seed=4), **SETTING)
    with ctx.workprec(128):
        assert certified.bound(0.25).contains(certified.gap + arb(1) / 4)
    with pytest.raises(InvalidArgument, match="outside"):
        certified.bound(1.5)


def test_invalid_sample_sizes_are_refused_like_the_plain_bound():
    with pytest.raises(InvalidArgument, match="positive integer"):
        certify_assembled(random_model(1, 8, 2, 16, seed=5), **{**SETTING, "n": 0})
