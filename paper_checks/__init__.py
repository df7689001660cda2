"""paper_checks: a verdict for each claim of the paper, the ``specbound`` CLI, reports and figures."""

from __future__ import annotations

from theory.lazy_exports import lazy_getattr

__getattr__ = lazy_getattr(__name__, {})
"""``paper_checks.__version__`` (the installed version) and the submodules on first use."""
