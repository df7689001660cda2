"""paper_checks: a verdict for each claim of the paper, the ``specbound`` CLI, reports and figures."""

from __future__ import annotations

import importlib.util
from pathlib import Path


def _ensure_own_packages() -> None:
    """numerics._shadowing's check of ``theory`` and ``numerics``, the module loaded from its file beside
    this package (by name it would be looked up in the very ``numerics`` that may be shadowed)."""
    path = Path(__file__).resolve().parents[1] / "numerics" / "_shadowing.py"
    spec = importlib.util.spec_from_file_location("_specbound_shadowing", path)
    assert spec is not None and spec.loader is not None  # a file of this distribution
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.ensure_own_packages(["theory", "numerics"])


_ensure_own_packages()

from theory.prover.lazy_exports import lazy_getattr  # noqa: E402
from theory.version import installed_version  # noqa: E402

__getattr__ = lazy_getattr(__name__, {}, installed_version)
"""``paper_checks.__version__`` (the installed version) and the submodules on first use."""

__all__ = ["__version__"]
