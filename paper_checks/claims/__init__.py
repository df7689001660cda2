"""The claims of docs/claims.md, one module each (``cNN_name.py``), each defining ``CLAIM``.

See :mod:`paper_checks.registry` for how to add a claim of your own.
"""

__all__: list[str] = []
"""Nothing is imported from the package itself: :mod:`paper_checks.registry` finds each claim module
(``cNN_*``, by its ``CLAIM``); the modules starting with ``_`` are the claims' shared helpers."""
