"""What claims 12a and 12b read off the assembled bound of a trained model, beyond its value.

- :func:`weight_part`: GAP_TERM minus GAP_TERM at Sigma = 0, the part that carries the spectra (with
  theory.assembled's current formula 48 sqrt(Lambda Sigma) / sqrt(n)); what is left at Sigma = 0 includes
  the weight-independent (8 + 24 sqrt(ln 2)) / sqrt(n), 3.5 at n = 64.
- :func:`nonvacuous_sample_size`: the least n at which GAP_TERM, with this model's Sigma, Q, P, K, m, T
  held fixed, falls below 1 (below 1 a 0-1 gap can exceed the bound; above it the bound holds trivially).
- :func:`kendall`: Kendall's tau between two orderings with its exact one-sided p-values under
  independence (every permutation equally likely; the number of permutations of k items with i
  inversions is the Mahonian number, computed by the standard recursion). Standard (Kendall 1938).
Every GAP_TERM value comes from :func:`numerics.synthetic.gap.gap_term_at` (theory.assembled, reconstructed
Theorem 3.1); nothing here retypes it.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from math import comb, factorial
from typing import TYPE_CHECKING

from theory.errors import InvalidArgument

if TYPE_CHECKING:
    from numerics.bounds.assembled import AssembledBound
    from numerics.synthetic.train import TrainedModel
    from paper_checks.context import RunContext

LARGEST_SAMPLE_SIZE = 2**80
"""The search for a non-vacuous n stops here (reported as 'beyond 2^80')."""


def weight_part(bound: AssembledBound, delta: float) -> float:
    """GAP_TERM(Sigma) - GAP_TERM(Sigma = 0) at ``delta``: the spectra's share of the bound."""
    from numerics.synthetic.gap import gap_term_at

    return gap_term_at(bound, delta) - gap_term_at(dataclasses.replace(bound, sigma=0), delta)


def weight_free_part(bound: AssembledBound, delta: float) -> float:
    """GAP_TERM at Sigma = 0: what the bound is without any spectrum (>= (8 + 24 sqrt(ln 2)) / sqrt(n))."""
    from numerics.synthetic.gap import gap_term_at

    return gap_term_at(dataclasses.replace(bound, sigma=0), delta)


def nonvacuous_sample_size(bound: AssembledBound, delta: float, level: float = 1.0) -> int | None:
    """The least n with GAP_TERM < ``level`` for this model's weights (n varied alone), or None beyond
    LARGEST_SAMPLE_SIZE. Doubling, then bisection: it assumes GAP_TERM decreases in n from the model's n on
    (Lambda grows like 1.5 ln n while every term falls like 1/sqrt n; the unit test checks the answer
    against GAP_TERM at n and n - 1)."""
    from numerics.synthetic.gap import gap_term_at

    def below(n: int) -> bool:
        return gap_term_at(dataclasses.replace(bound, n=n), delta) < level

    low, high = bound.n, bound.n
    if below(low):
        return low
    while not below(high):
        low, high = high, 2 * high
        if high > LARGEST_SAMPLE_SIZE:
            return None
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if below(middle) else (middle, high)
    return high


@dataclass(frozen=True)
class Kendall:
    """Kendall's tau-a of (x, y) and its exact one-sided p-values under independence."""

    tau: float
    concordant: int
    discordant: int
    pairs: int
    p_concordant: float
    """P(S >= observed S): small when x and y are ordered alike beyond chance."""
    p_discordant: float
    """P(S <= observed S): small when they are ordered oppositely beyond chance."""


def inversion_counts(k: int) -> list[int]:
    """counts[i] = number of permutations of k items with i inversions (Mahonian numbers).

    >>> inversion_counts(3)
    [1, 2, 2, 1]
    """
    counts = [1]
    for size in range(2, k + 1):
        new = [0] * (len(counts) + size - 1)
        for i, c in enumerate(counts):
            for extra in range(size):
                new[i + extra] += c
        counts = new
    return counts


def kendall(x: Sequence[float], y: Sequence[float]) -> Kendall:
    """Kendall's tau-a (tied pairs count 0) with exact permutation p-values (no-ties null distribution).

    >>> result = kendall([1, 2, 3, 4], [10, 20, 30, 40])
    >>> result.tau, round(result.p_concordant, 4)
    (1.0, 0.0417)
    """
    if len(x) != len(y):
        raise InvalidArgument(f"kendall: {len(x)} x values but {len(y)} y values: give one y per x")
    k = len(x)
    concordant = discordant = 0
    for i, j in itertools.combinations(range(k), 2):
        product = (x[i] - x[j]) * (y[i] - y[j])
        concordant += product > 0
        discordant += product < 0
    pairs = comb(k, 2)
    score = concordant - discordant
    total = factorial(k)
    # a permutation with i inversions has S = pairs - 2 i
    counts = inversion_counts(k) if k else [1]
    at_least = sum(c for i, c in enumerate(counts) if pairs - 2 * i >= score)
    at_most = sum(c for i, c in enumerate(counts) if pairs - 2 * i <= score)
    return Kendall(
        score / pairs if pairs else 0.0, concordant, discordant, pairs, at_least / total, at_most / total
    )


def assembled_bounds(
    context: RunContext, key: object, models: Sequence[TrainedModel], margin: float, delta: float
) -> list[AssembledBound]:
    """:func:`numerics.synthetic.gap.trained_bound` of each of ``models`` (cached by ``key``), once a run."""
    from numerics.synthetic.gap import trained_bound

    return context.memo(
        ("assembled_bounds", key, margin, delta),
        lambda: [trained_bound(model, margin=margin, delta=delta) for model in models],
    )
