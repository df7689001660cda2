"""Bounded fractions for hypothesis, drawn exactly as ``st.fractions(lo, hi, max_denominator=q)`` draws them
(the same choices give the same fraction, so the same examples and the same shrinking), without rebuilding
and re-validating a numerator strategy on every draw: hypothesis's own strategy flat-maps the drawn
denominator d to a new ``builds(Fraction, integers(...), just(...))`` each time, which costs about 1.5 ms a
draw; here the q strategies are built once."""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import strategies as st


def fractions(
    min_value: Fraction | int, max_value: Fraction | int, max_denominator: int
) -> st.SearchStrategy[Fraction]:
    """Fractions in [min_value, max_value] with denominator at most ``max_denominator``: a denominator d in
    1..max_denominator, then a numerator over d times the bounds' common denominator (hypothesis's
    algorithm, bounds on both sides), the result limited to ``max_denominator``."""
    lo, hi = Fraction(min_value), Fraction(max_value)
    low, high = lo.numerator * hi.denominator, hi.numerator * lo.denominator
    scale = lo.denominator * hi.denominator
    common = math.gcd(scale, math.gcd(low, high))
    numerators = {
        d: st.builds(
            Fraction, st.integers(d * low // common, d * high // common), st.just(d * scale // common)
        )
        for d in range(1, max_denominator + 1)
    }
    return (
        st.integers(1, max_denominator)
        .flatmap(numerators.__getitem__)
        .map(lambda value: value.limit_denominator(max_denominator))
    )
