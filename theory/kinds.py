"""The four matrix kinds of a BERT layer (docs: matrices), without sympy: the bound path needs them."""

from __future__ import annotations

from enum import StrEnum


class MatrixKind(StrEnum):
    """The four matrix types of a BERT layer (docs: matrices): two per head, two per layer."""

    QK = "QK"
    VT = "Vt"
    M_IN = "M_in"
    M_OUT = "M_out"

    @property
    def per_head(self) -> bool:
        """True for the per-head products QK_h and Vt_h, False for the layer-wide M_in and M_out."""
        return self in (MatrixKind.QK, MatrixKind.VT)
