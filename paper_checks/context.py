"""The per-run context shared by all claims: load each model once, compute each report once.

Claims ask the context for what they need (weights, proxy reports, the scaling study, the gap table,
the theory's regime table); the first request computes it, later ones reuse it. Nothing here computes a
formula: every value comes from :mod:`numerics` or :mod:`theory`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

DEFAULT_MODELS = ("minilm-l6", "minilm-l3")
"""The embedded real checkpoints every run uses (SPEC.md, weights.md)."""


@dataclass
class RunContext:
    """Lazily computed, cached inputs of the claims of one ``specbound check`` run.

    ``quick`` selects the small synthetic grid (``check``) rather than the larger one (``scaling``);
    ``figure_dir`` is where figures go when a report is requested (None: no figures);
    ``user_checkpoints`` are extra checkpoint folders for the scaling study.
    """

    quick: bool = True
    figure_dir: Path | None = None
    user_checkpoints: tuple[str, ...] = ()
    _cache: dict[Any, Any] = field(default_factory=dict, repr=False)

    def memo(self, key: Any, compute: Callable[[], T]) -> T:
        """The value cached under ``key``, computing it with ``compute()`` the first time."""
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]  # type: ignore[no-any-return]
