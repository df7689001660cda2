"""Certified numerics: rigorous enclosures of everything the bound is made of (float64 intervals rounded
outward for each matrix, python-flint arb balls for the composition).

Modules, one job each:

- :mod:`numerics.certify.directed`: float64 operations stepped one float outward (upper and lower
  bounds without a ball library) and outward power-of-2 scaling;
- :mod:`numerics.certify.balls`: exact conversion of float64 arrays to arb, Frobenius norms and
  orthogonality defects in ball arithmetic, outward rounding back to floats;
- :mod:`numerics.certify.enclosure`: singular values of a dense matrix from its float64 SVD plus an
  a-posteriori certificate (Weyl and the multiplicative perturbation bound), products formed in arb;
- :mod:`numerics.certify.thin`: singular values of a thin product A B^T through certified QR factors
  and the small core R_A R_B^T, products formed in arb;
- :mod:`numerics.certify.float_bounds`: rigorous bounds on BLAS products (error-free split products,
  Higham's gamma_k, TwoProduct) and rigorous float sums;
- :mod:`numerics.certify.apriori`: products formed once by BLAS with a priori gamma bounds (blocked
  accumulation) and float (2,1) norms: the cheapest certificate's products;
- :mod:`numerics.certify.fast`: the same two certificates with the products formed in float64 and
  bounded by float_bounds or apriori, every scalar a stepped float (the default path, which imports no
  ball library; arb per matrix as the fallback);
- :mod:`numerics.certify.rank`: the rank (and the authors' numerical rank) as an interval;
- :mod:`numerics.certify.norms`: (2,1) norms of dense matrices and thin products in arb;
- :mod:`numerics.certify.interval_eval`: theory's formulas evaluated in arb, through
  :mod:`numerics.certify.stored_arb` (the bound path's stored formulas, no sympy) or
  :mod:`numerics.certify.arb_printer` (any other sympy Formula, printed to arb code);
- :mod:`numerics.certify.certified`: per-matrix certificates, contributions, post hoc minima and both
  proxies as enclosures, with verdicts decided by intervals;
- :mod:`numerics.certify.assembled`: the assembled bound (reconstructed Theorem 3.1) as a ball, with
  certified shell indices and post hoc p;
- :mod:`numerics.certify.report`: the certified results as JSON intervals {"lo", "hi"} (rounded outward)
  and text lines, as ``specbound bound --certify`` prints them.

python-flint is imported inside the functions that need it (the ``certify`` extra): on the default path
first by the composition, after the layers.
"""

__all__ = ["certified", "report"]
"""The modules other packages use (each imported by its full name; the package itself imports nothing); the
others above are this package's own steps."""
