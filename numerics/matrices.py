"""The matrices the bound is about, extracted from a layer exactly as the authors do (docs: matrices).

Row-vector convention (X -> X W). With ``nn.Linear`` weights and head rows hs = [h d_h, (h+1) d_h):

- QK_h = Wq[hs, :]^T Wk[hs, :]     (N x N, rank <= d_h), kept as factors A = Wq[hs,:]^T, B = Wk[hs,:]^T;
- Vt_h = Wv[hs, :]^T (Wo^T)[hs, :]  (N x N, rank <= d_h), kept as A = Wv[hs,:]^T, B = Wo[:, hs];
- M_in = Win^T (N x F), M_out = Wout^T (F x N), dense.

A product is stored as its thin factors (M = A B^T) so that its singular values come from a d_h x d_h
core; ``dense()`` materialises it when a caller really needs the N x N matrix. Provenance: exact
(authors' ``extract.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numerics.weights import TransformerWeights
from theory.proxy import MatrixKind


@dataclass(frozen=True, eq=False)
class NamedMatrix:
    """One matrix of the bound: where it sits (layer, head, kind) and its value.

    ``head`` is -1 for the layer-wide M_in and M_out. For products, ``left`` and ``right`` are the
    thin factors with matrix = left @ right.T; for dense matrices ``right`` is None and ``left`` is
    the matrix itself.
    """

    layer: int
    head: int
    kind: MatrixKind
    left: np.ndarray
    right: np.ndarray | None = None

    @property
    def is_product(self) -> bool:
        """True when the matrix is kept as thin factors left @ right.T."""
        return self.right is not None

    @property
    def shape(self) -> tuple[int, int]:
        """(rows, cols) of the matrix itself, not of its factors."""
        if self.right is None:
            return (int(self.left.shape[0]), int(self.left.shape[1]))
        return (int(self.left.shape[0]), int(self.right.shape[0]))

    @property
    def label(self) -> str:
        """A short name such as ``L0.H3.QK`` or ``L2.M_in``."""
        head = f".H{self.head}" if self.head >= 0 else ""
        return f"L{self.layer}{head}.{self.kind.value}"

    def dense(self) -> np.ndarray:
        """The matrix itself (the product of the factors, materialised)."""
        return self.left if self.right is None else self.left @ self.right.T


def extract_matrices(weights: TransformerWeights) -> tuple[NamedMatrix, ...]:
    """All matrices of the bound, layer by layer: per head QK_h then Vt_h, then M_in and M_out.

    >>> import numpy as np
    >>> from numerics.weights import LayerWeights, TransformerWeights
    >>> rng = np.random.default_rng(0)
    >>> layer = LayerWeights(*(rng.standard_normal(s) for s in [(4, 4)] * 4 + [(8, 4), (4, 8)]))
    >>> ms = extract_matrices(TransformerWeights((layer,), 4, 2, 8, "random"))
    >>> [m.label for m in ms]
    ['L0.H0.QK', 'L0.H0.Vt', 'L0.H1.QK', 'L0.H1.Vt', 'L0.M_in', 'L0.M_out']
    >>> bool(np.allclose(ms[0].dense(), layer.wq[:2].T @ layer.wk[:2]))
    True
    """
    dh = weights.head_dim
    out: list[NamedMatrix] = []
    for index, layer in enumerate(weights.layers):
        for head in range(weights.num_heads):
            hs = slice(head * dh, (head + 1) * dh)
            out.append(NamedMatrix(index, head, MatrixKind.QK, layer.wq[hs, :].T, layer.wk[hs, :].T))
            out.append(NamedMatrix(index, head, MatrixKind.VT, layer.wv[hs, :].T, layer.wo[:, hs]))
        out.append(NamedMatrix(index, -1, MatrixKind.M_IN, layer.w_in.T))
        out.append(NamedMatrix(index, -1, MatrixKind.M_OUT, layer.w_out.T))
    return tuple(out)
