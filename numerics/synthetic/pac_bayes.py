"""A PAC-Bayes bound on a trained synthetic transformer: a non-vacuous reference point of another kind.

Posterior Q = N(w, sigma^2 I) around the trained weights w, prior P = N(w0, sigma^2 I) around the
initialisation w0 (rebuilt from the config's seed, so it does not see the data), sigma from a grid of
SIGMA_GRID fixed before the data (a union bound over it: ln G in theory.comparison.PAC_BAYES_BUDGET). The
sigma reported is the one whose bound, computed with the error of Q on held-out samples in place of the
training error, is smallest (Dziugaite & Roy 2017 optimise on the bound itself; choosing on held-out data
is allowed by the union bound). With probability >= 1 - delta over the training sample and the Monte Carlo
draws (delta split in halves):

    e(Q) <= kl^{-1}( kl^{-1}(e_hat, ln(4/delta)/draws), (KL + ln(4 sqrt(n)/delta) + ln G)/n ),

e_hat the 0-1 training error of Q averaged over ``draws`` weight samples (Langford & Caruana 2001). It
bounds the error of the stochastic network Q, not of the trained network: a different kind of bound.
Provenance: standard (theory.comparison.PAC_BAYES_SOURCE).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from numerics.formulas.evaluate import evaluate
from numerics.synthetic.gap import HELD_OUT_SEED
from numerics.synthetic.model import build_model
from numerics.synthetic.train import TrainedModel, predict
from theory.comparison import GAUSSIAN_KL, PAC_BAYES_BUDGET
from theory.errors import require

SIGMA_GRID = tuple(2.0 ** (-j / 2) for j in range(2, 22))
"""The prior standard deviations of the union bound: 2^{-1}, 2^{-3/2}, ..., 2^{-21/2} (G = 20)."""
SELECTION_DRAWS = 4
"""Weight draws per sigma when choosing sigma on held-out samples."""


def kl_bernoulli(q: float, p: float) -> float:
    """kl(q || p) = q ln(q/p) + (1-q) ln((1-q)/(1-p)) for q in [0, 1], p in (0, 1)."""
    total = 0.0
    if q > 0:
        total += q * math.log(q / p)
    if q < 1:
        total += (1 - q) * math.log((1 - q) / (1 - p))
    return total


def kl_inverse(q: float, budget: float) -> float:
    """The largest p in [q, 1] with kl(q || p) <= budget (bisection, 100 halvings; 1 when none is below)."""
    low, high = q, 1.0
    for _ in range(100):
        middle = (low + high) / 2
        if middle >= 1 or kl_bernoulli(q, middle) > budget:
            high = middle
        else:
            low = middle
    return high


@dataclass(frozen=True)
class PacBayesBound:
    """The bound at the chosen sigma and how it was obtained."""

    sigma: float
    kl: float
    train_error: float
    train_error_upper: float
    bound: float
    held_out_error: float
    draws: int
    grid: int
    delta: float


def _flat(model: object) -> np.ndarray:
    return np.concatenate([p.detach().numpy().ravel() for p in model.parameters()])  # type: ignore[attr-defined]


def _stochastic_error(
    trained: TrainedModel, sigma: float, inputs: np.ndarray, labels: np.ndarray, draws: int, seed: int
) -> float:
    """The mean 0-1 error on (inputs, labels) of ``draws`` networks w + sigma xi, xi standard Gaussian."""
    torch = require("torch", purpose="the PAC-Bayes bound")
    noisy = build_model(trained.config)
    generator = torch.Generator().manual_seed(seed)
    errors = []
    for _ in range(draws):
        with torch.no_grad():
            for target, source in zip(noisy.parameters(), trained.model.parameters(), strict=True):
                target.copy_(
                    source + sigma * torch.randn(source.shape, generator=generator, dtype=source.dtype)
                )
        errors.append(float(np.mean(labels * predict(noisy, inputs) <= 0)))
    return float(np.mean(errors))


def pac_bayes_bound(
    trained: TrainedModel, *, delta: float, draws: int = 100, n_held_out: int = 1000
) -> PacBayesBound:
    """The kl-form PAC-Bayes bound of the module docstring on ``trained``."""
    distance = float(np.sum((_flat(trained.model) - _flat(build_model(trained.config))) ** 2))
    sample = trained.train_sample
    n = len(sample)
    held = trained.task.sample(n_held_out, seed=HELD_OUT_SEED + 1)

    def budget(sigma: float) -> float:
        kl = float(evaluate(GAUSSIAN_KL, D=distance, sigma=sigma))
        return float(evaluate(PAC_BAYES_BUDGET, R=kl, n=n, delta=delta / 2, G=len(SIGMA_GRID)))

    def selection(sigma: float) -> float:
        error = _stochastic_error(trained, sigma, held.inputs, held.labels, SELECTION_DRAWS, seed=1)
        return kl_inverse(error, budget(sigma))

    sigma = min(SIGMA_GRID, key=selection)
    held_error = _stochastic_error(trained, sigma, held.inputs, held.labels, SELECTION_DRAWS, seed=1)
    error = _stochastic_error(trained, sigma, sample.inputs, sample.labels, draws, seed=2)
    upper = kl_inverse(error, math.log(4 / delta) / draws)
    return PacBayesBound(
        sigma=sigma,
        kl=float(evaluate(GAUSSIAN_KL, D=distance, sigma=sigma)),
        train_error=error,
        train_error_upper=upper,
        bound=kl_inverse(upper, budget(sigma)),
        held_out_error=held_error,
        draws=draws,
        grid=len(SIGMA_GRID),
        delta=delta,
    )
