"""The claims of SPEC.md section 5, one module each (``cNN_name.py``), each defining ``CLAIM``.

See :mod:`paper_checks.registry` for how to add a claim of your own.
"""
