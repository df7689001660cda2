"""Subcommands of the ``specbound`` CLI, one module each (see :mod:`paper_checks.cli`)."""
