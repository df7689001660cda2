"""The numbers a figure of the report is drawn from, as records (no plotting, no matplotlib).

The run context (:mod:`paper_checks.context`) fills them from the spectra and contributions it already
holds; :mod:`paper_checks.figures` draws them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from theory.kinds import MatrixKind


@dataclass(frozen=True)
class SpectrumCurve:
    """The singular values of one matrix (descending; stored nonzero values only) and where it sits."""

    kind: MatrixKind
    layer: int
    head: int
    values: np.ndarray


@dataclass(frozen=True)
class ContributionCurve:
    """One matrix's contribution C_p on the grid P_m, the chosen p, and where the matrix sits."""

    kind: MatrixKind
    layer: int
    head: int
    ps: tuple[float, ...]
    values: tuple[float, ...]
    p_chosen: float
