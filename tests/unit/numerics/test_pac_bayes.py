"""The PAC-Bayes reference point (compare --synthetic --pac-bayes): the kl inversion against closed forms
and mpmath, and the bound recomputed by hand from its reported KL, training error and union size."""

from __future__ import annotations

import math

import mpmath
import pytest

from numerics.synthetic.pac_bayes import kl_bernoulli, kl_inverse


@pytest.mark.parametrize("budget", [0.01, 0.3, 2.0])
def test_kl_inverse_at_zero_error_is_one_minus_exp(budget):
    # kl(0 || p) = -ln(1 - p), so the largest p with kl <= b is 1 - e^{-b}
    assert kl_inverse(0.0, budget) == pytest.approx(-math.expm1(-budget), rel=1e-12)


@pytest.mark.parametrize(("q", "p"), [(0.1, 0.3), (0.5, 0.2), (0.9, 0.95)])
def test_kl_bernoulli_against_mpmath(q, p):
    with mpmath.workdps(40):
        q_, p_ = mpmath.mpf(q), mpmath.mpf(p)
        expected = q_ * mpmath.log(q_ / p_) + (1 - q_) * mpmath.log((1 - q_) / (1 - p_))
    assert kl_bernoulli(q, p) == pytest.approx(float(expected), rel=1e-12)
    budget = kl_bernoulli(q, p)
    if p > q:
        assert kl_inverse(q, budget) == pytest.approx(p, abs=1e-9)
    # kl is quadratic at p = q: float64 decides it to ~1e-8 in p; the inverse errs upward (conservative)
    assert q <= kl_inverse(q, 0.0) <= q + 1e-7


@pytest.mark.slow
def test_cli_pac_bayes_on_the_synthetic_model(capsys):
    import json

    pytest.importorskip("torch")
    from paper_checks.cli import main

    assert main(["compare", "--synthetic", "--pac-bayes", "--json"]) == 0
    pac = json.loads(capsys.readouterr().out)["measured"]["pac_bayes"]
    n, delta = 256, 0.1
    budget = (pac["kl"] + math.log(2 * math.sqrt(n) / (delta / 2)) + math.log(pac["grid"])) / n
    assert pac["bound"] == pytest.approx(kl_inverse(pac["train_error_upper"], budget), rel=1e-9)
    assert pac["train_error"] <= pac["train_error_upper"] <= pac["bound"] <= 1
