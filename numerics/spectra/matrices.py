"""The matrices the bound is about, extracted from a layer exactly as the authors do (docs: matrices).

Row-vector convention (X -> X W). With ``nn.Linear`` weights and head rows hs = [h d_h, (h+1) d_h):

- QK_h = Wq[hs, :]^T Wk[hs, :]     (N x N, rank <= d_h), kept as factors A = Wq[hs,:]^T, B = Wk[hs,:]^T;
- Vt_h = Wv[hs, :]^T (Wo^T)[hs, :]  (N x N, rank <= d_h), kept as A = Wv[hs,:]^T, B = Wo[:, hs];
- M_in = Win^T (N x F), M_out = Wout^T (F x N), dense.

Grouped-query attention (K key/value heads, H/K query heads per group, as ``repeat_kv`` in transformers):
query head h reads key/value head g = h // (H/K), so QK_h = Wq[hs,:]^T Wk[gs,:] and
Vt_h = Wv[gs,:]^T (Wo^T)[hs,:] with gs = [g d_h, (g+1) d_h). A gated feed-forward
W_down (silu(W_gate x) * W_up x) enters as M_in = [W_gate; W_up]^T (N x 2F, the linear map before the
fixed nonlinearity (u, v) -> silu(u) v; kept as its two column blocks W_gate^T and W_up^T, never
concatenated) and M_out = W_down^T (F x N); that nonlinearity is only locally
Lipschitz (see ``numerics.bounds.reach``). A mixture-of-experts layer has one such M_in, M_out pair per
expert (``expert`` e, the shared expert SHARED_EXPERT; :mod:`theory.mixture`); the router is not a matrix
of the bound. Provenance: reconstructed (our mapping of those blocks onto the
analysed class; tested against the transformers forward pass).

A product is stored as its thin factors (M = A B^T) so that its singular values come from a d_h x d_h
core; ``dense()`` materialises it when a caller really needs the N x N matrix. Provenance: exact
(authors' ``extract.py``).
"""

from __future__ import annotations

import numpy as np

from numerics.loading.weights import SHARED_EXPERT, LayerWeights, TransformerWeights
from theory.kinds import MatrixKind
from theory.records import record


@record(eq=False)
class NamedMatrix:
    """One matrix of the bound: where it sits (layer, head, kind) and its value.

    ``head`` is -1 for the layer-wide M_in and M_out. For products, ``left`` and ``right`` are the
    thin factors with matrix = left @ right.T; for dense matrices ``right`` is None and ``left`` is
    the matrix itself, or, when ``second_block`` is given, its first column block: the matrix is then
    [left, second_block] (a gated M_in = [W_gate^T, W_up^T], whose concatenation would be a second copy).
    """

    layer: int
    head: int
    kind: MatrixKind
    left: np.ndarray
    right: np.ndarray | None = None
    second_block: np.ndarray | None = None
    expert: int | None = None
    """The expert an M_in / M_out belongs to in a mixture layer (e >= 0, SHARED_EXPERT for the shared
    one); None for every matrix of a dense layer and for attention."""

    @property
    def is_product(self) -> bool:
        """True when the matrix is kept as thin factors left @ right.T."""
        return self.right is not None

    @property
    def shape(self) -> tuple[int, int]:
        """(rows, cols) of the matrix itself, not of its factors."""
        if self.right is not None:
            return (int(self.left.shape[0]), int(self.right.shape[0]))
        extra = 0 if self.second_block is None else int(self.second_block.shape[1])
        return (int(self.left.shape[0]), int(self.left.shape[1]) + extra)

    @property
    def column_blocks(self) -> tuple[np.ndarray, ...]:
        """A dense matrix's column blocks (one, or the two of a gated M_in); a product's left factor."""
        return (self.left,) if self.second_block is None else (self.left, self.second_block)

    @property
    def label(self) -> str:
        """A short name such as ``L0.H3.QK`` or ``L2.M_in``."""
        head = f".H{self.head}" if self.head >= 0 else ""
        expert = "" if self.expert is None else f".{expert_label(self.expert)}"
        return f"L{self.layer}{head}{expert}.{self.kind.value}"

    def dense(self) -> np.ndarray:
        """The matrix itself (the product of the factors, or the column blocks side by side, materialised)."""
        if self.right is not None:
            return self.left @ self.right.T
        return self.left if self.second_block is None else np.hstack(self.column_blocks)

    def released(self) -> NamedMatrix:
        """This matrix's place and shape with its values dropped (a streamed layer frees its memory).

        The arrays become zero-memory NaN views of the same shapes, so any later numeric use fails
        loudly (spectra reject non-finite entries) instead of giving numbers.
        """
        return NamedMatrix.placeholder(*self.place())

    def place(self) -> Place:
        """(layer, head, kind, left shape, right shape or None, expert): all :meth:`released` keeps, in a
        few bytes.

        A released matrix's NaN views would pickle as full arrays; worker processes send this instead.
        A dense matrix's "left shape" is its whole shape (its column blocks are not kept apart).
        """
        if self.right is None:
            return (self.layer, self.head, self.kind, self.shape, None, self.expert)
        return (
            self.layer,
            self.head,
            self.kind,
            tuple(self.left.shape),
            tuple(self.right.shape),
            self.expert,
        )

    @staticmethod
    def placeholder(
        layer: int,
        head: int,
        kind: MatrixKind,
        left: tuple[int, ...],
        right: tuple[int, ...] | None,
        expert: int | None = None,
    ) -> NamedMatrix:
        """The released matrix of a :meth:`place`: zero-memory NaN views of the given shapes."""
        nan = np.float64(np.nan)
        right_view = None if right is None else np.broadcast_to(nan, right)
        return NamedMatrix(layer, head, kind, np.broadcast_to(nan, left), right_view, expert=expert)


Place = tuple[int, int, MatrixKind, tuple[int, ...], tuple[int, ...] | None, int | None]
"""Where a matrix sits, its factors' shapes and its expert (:meth:`NamedMatrix.place`)."""


def expert_label(expert: int) -> str:
    """``E3`` for routed expert 3, ``Eshared`` for the shared expert."""
    return "Eshared" if expert == SHARED_EXPERT else f"E{expert}"


def extract_matrices(weights: TransformerWeights) -> tuple[NamedMatrix, ...]:
    """All matrices of the bound, layer by layer: per head QK_h then Vt_h, then M_in and M_out.

    >>> import numpy as np
    >>> from numerics.loading.weights import SHARED_EXPERT, LayerWeights, ModelShape, TransformerWeights
    >>> rng = np.random.default_rng(0)
    >>> layer = LayerWeights(*(rng.standard_normal(s) for s in [(4, 4)] * 4 + [(8, 4), (4, 8)]))
    >>> ms = extract_matrices(TransformerWeights((layer,), ModelShape(4, 2, 2, 8), "random"))
    >>> [m.label for m in ms]
    ['L0.H0.QK', 'L0.H0.Vt', 'L0.H1.QK', 'L0.H1.Vt', 'L0.M_in', 'L0.M_out']
    >>> bool(np.allclose(ms[0].dense(), layer.wq[:2].T @ layer.wk[:2]))
    True
    """
    return tuple(
        matrix
        for index, layer in enumerate(weights.layers)
        for matrix in layer_matrices(index, layer, weights.num_heads, weights.kv_heads)
    )


def layer_matrices(index: int, layer: LayerWeights, num_heads: int, kv_heads: int) -> tuple[NamedMatrix, ...]:
    """The matrices of one layer (module docstring): per head QK_h then Vt_h, then M_in and M_out (of
    each expert in turn in a mixture layer)."""
    dh = layer.wq.shape[0] // num_heads
    group = num_heads // kv_heads
    out: list[NamedMatrix] = []
    for head in range(num_heads):
        hs = slice(head * dh, (head + 1) * dh)
        gs = slice((head // group) * dh, (head // group + 1) * dh)
        out.append(NamedMatrix(index, head, MatrixKind.QK, layer.wq[hs, :].T, layer.wk[gs, :].T))
        out.append(NamedMatrix(index, head, MatrixKind.VT, layer.wv[gs, :].T, layer.wo[:, hs]))
    for expert, block in layer.feed_forwards():
        if block.w_gate is None:
            out.append(NamedMatrix(index, -1, MatrixKind.M_IN, block.w_in.T, expert=expert))
        else:
            out.append(
                NamedMatrix(
                    index, -1, MatrixKind.M_IN, block.w_gate.T, second_block=block.w_in.T, expert=expert
                )
            )
        out.append(NamedMatrix(index, -1, MatrixKind.M_OUT, block.w_out.T, expert=expert))
    return tuple(out)
