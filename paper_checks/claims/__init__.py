"""The claims of docs/claims.md, one module each (``cNN_name.py``), each defining ``CLAIM``.

See :mod:`paper_checks.registry` for how to add a claim of your own.
"""
