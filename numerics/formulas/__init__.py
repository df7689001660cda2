"""theory's sympy formulas evaluated on measured numbers, never retyped.

:mod:`numerics.formulas.evaluate` lambdifies them (mpmath, at a chosen precision); the bound path runs
the stored lambdify source of :mod:`numerics.formulas.generated`, which :mod:`numerics.formulas.codegen`
writes from theory/ (a test fails when it is stale), so it starts without importing sympy.
"""

__all__ = ["arithmetic", "evaluate", "generated", "precision"]
"""The modules other packages use (each imported by its full name; the package itself imports nothing);
``codegen`` is run as a script (``python -m numerics.formulas.codegen``), never imported."""
