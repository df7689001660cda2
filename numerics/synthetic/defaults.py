"""The settings of the gap experiment fixed before training (a light module: the CLI reads them at start)."""

DEFAULT_MARGIN = 0.25
"""The ramp-loss margin, fixed before training (the assembled bound assumes it is not data-dependent)."""
DEFAULT_DELTA = 0.05
"""Confidence of the bound: it holds with probability >= 1 - delta over the training sample."""
DEFAULT_N_TEST = 20000
"""Held-out sample size: Hoeffding half-width 0.0105 at level 0.95 for both held-out risks."""
