"""Subcommands of the ``specbound`` CLI, one module each (see :mod:`paper_checks.cli`)."""

__all__: list[str] = []
"""Nothing is imported from the package itself: :func:`paper_checks.cli.command_names` finds each command
module (every module not starting with ``_``; those are the commands' shared helpers)."""
