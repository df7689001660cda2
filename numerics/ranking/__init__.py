"""Does a complexity measure rank models by their generalization gap? (Jiang et al. 2020 protocol.)

- :mod:`numerics.ranking.statistics`: Kendall tau with indistinguishable pairs left out, the granulated
  tau Psi, bootstrap intervals and the worst-environment sign-error (pure numpy);
- :mod:`numerics.ranking.measures`: the complexity measures of one trained synthetic model;
- :mod:`numerics.ranking.study`: the grid of trained models, cached on disk, trained by worker processes.
"""

__all__ = ["measures", "statistics", "study", "table"]
"""The modules other packages use (each imported by its full name; the package itself imports nothing)."""
