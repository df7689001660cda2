"""Public hypothesis strategies for writing property suites on top of specbound.

Needs hypothesis, which is in the test extra: ``pip install 'specbound[test]'``. Importing this module
without it raises :class:`theory.errors.MissingDependency`. Everything here draws numpy arrays (no torch),
so the strategies are fast; :func:`synthetic_configs` and :func:`training_configs` only draw the
configuration objects of :mod:`numerics.synthetic`, not trained models.

- :func:`schatten_indices`: p in [0, 2], with the endpoints 0 and 2 (and 1) drawn often;
- :func:`spectra`: descending singular values of a prescribed kind, ``"low_rank"`` (exactly r nonzero),
  ``"power_law"`` (sigma_i = c i^{-beta}) or ``"flat"`` (sigma_i = c);
- :func:`matrices_with_spectrum`: U diag(sigma) V^T with Haar-random orthogonal U, V (QR of a Gaussian
  matrix with the signs of diag(R) fixed), returned with the prescribed sigma;
- :func:`transformer_weights`: :class:`numerics.loading.TransformerWeights` of given (or drawn) L, N, heads;
- :func:`synthetic_configs`, :func:`sparse_selection_tasks`, :func:`training_configs`.

>>> from hypothesis import given, settings
>>> @settings(max_examples=5, database=None)
... @given(matrices_with_spectrum(rows=6, cols=4, kinds=("power_law",)))
... def check(drawn):
...     assert np.allclose(np.linalg.svd(drawn.matrix, compute_uv=False), drawn.singular_values)
>>> check()
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from numerics.loading.weights import LayerWeights, ModelShape, TransformerWeights
from numerics.synthetic.model import SyntheticConfig
from numerics.synthetic.prescribed import PrescribedMatrix, with_spectrum
from numerics.synthetic.prescribed import haar_orthogonal as haar_orthogonal
from numerics.synthetic.tasks import SparseSelectionTask
from numerics.synthetic.train import TrainingConfig
from theory.errors import InvalidArgument, require

if TYPE_CHECKING:
    from hypothesis import strategies as st
else:
    st = require("hypothesis.strategies", purpose="numerics.strategies (property suites)")

SPECTRUM_KINDS = ("low_rank", "power_law", "flat")
"""The spectrum shapes of docs: step 11: rank regime, power-law decay, flat spectrum."""

_SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
_SCALES = st.floats(min_value=0.05, max_value=20.0, allow_nan=False, allow_infinity=False)
_IntArg = int | st.SearchStrategy[int]
_DIMS = st.integers(1, 12)
_DEPTHS = st.integers(1, 3)
_HEADS = st.sampled_from([1, 2])
_WEIGHT_WIDTHS = st.sampled_from([4, 6, 8])
_FFN_RATIOS = st.sampled_from([1, 2, 4])
_WEIGHT_SCALES = st.floats(min_value=0.05, max_value=3.0, allow_nan=False)
_MODEL_WIDTHS = st.sampled_from([8, 16])
_SAMPLE_SIZES = st.sampled_from([64, 128, 256])
_EPOCHS = st.integers(20, 300)


def _as_strategy(value: _IntArg) -> st.SearchStrategy[int]:
    return value if isinstance(value, st.SearchStrategy) else st.just(value)


def schatten_indices(low: float = 0.0, high: float = 2.0) -> st.SearchStrategy[float]:
    """p in [low, high] (default [0, 2]); the endpoints and 1 (when inside) are drawn with high weight."""
    special = [x for x in (low, high, 1.0) if low <= x <= high]
    return st.one_of(
        st.sampled_from(special),
        st.floats(min_value=low, max_value=high, allow_nan=False, allow_infinity=False),
    )


@st.composite
def spectra(draw: Any, size: _IntArg = _DIMS, kinds: Sequence[str] = SPECTRUM_KINDS) -> np.ndarray:
    """A descending float64 array of ``size`` singular values of one of ``kinds``.

    low_rank: rank r in [1, size] values in [0.05, 20], then exact zeros; power_law: c i^{-beta} with
    c in [0.05, 20], beta in [0, 3]; flat: c repeated.
    """
    k = draw(_as_strategy(size))
    kind = draw(st.sampled_from(list(kinds)))
    if kind == "low_rank":
        rank = draw(st.integers(1, k))
        values = draw(st.lists(_SCALES, min_size=rank, max_size=rank))
        return np.concatenate([np.sort(np.array(values))[::-1], np.zeros(k - rank)])
    c = draw(_SCALES)
    if kind == "power_law":
        beta = draw(st.floats(min_value=0.0, max_value=3.0, allow_nan=False))
        return c * np.arange(1, k + 1, dtype=np.float64) ** -beta
    if kind == "flat":
        return np.full(k, c)
    raise InvalidArgument(f"spectrum kind {kind!r} is not one of {SPECTRUM_KINDS}")


@st.composite
def matrices_with_spectrum(
    draw: Any,
    rows: _IntArg = _DIMS,
    cols: _IntArg = _DIMS,
    kinds: Sequence[str] = SPECTRUM_KINDS,
) -> PrescribedMatrix:
    """A rows x cols matrix whose singular values are a drawn spectrum of one of ``kinds``."""
    r, c = draw(_as_strategy(rows)), draw(_as_strategy(cols))
    sigma = draw(spectra(size=min(r, c), kinds=kinds))
    return with_spectrum(sigma, r, c, draw(_SEEDS))


@st.composite
def transformer_weights(
    draw: Any,
    num_layers: _IntArg = _DEPTHS,
    hidden_size: _IntArg = _WEIGHT_WIDTHS,
    num_heads: _IntArg = _HEADS,
    ffn_ratio: _IntArg = _FFN_RATIOS,
    scale: st.SearchStrategy[float] = _WEIGHT_SCALES,
) -> TransformerWeights:
    """A :class:`TransformerWeights` with Gaussian entries of std ``scale / sqrt(fan-in)``.

    ``num_heads`` is reduced to a divisor of N when a drawn value does not divide it.
    """
    n = draw(_as_strategy(hidden_size))
    h = draw(_as_strategy(num_heads))
    h = h if n % h == 0 else 1
    f = n * draw(_as_strategy(ffn_ratio))
    std = draw(scale)
    rng = np.random.default_rng(draw(_SEEDS))
    shapes = [(n, n)] * 4 + [(f, n), (n, f)]
    layers = tuple(
        LayerWeights(*(rng.standard_normal(shape) * std / np.sqrt(shape[1]) for shape in shapes))
        for _ in range(draw(_as_strategy(num_layers)))
    )
    return TransformerWeights(layers, ModelShape(n, h, h, f), "hypothesis transformer_weights")


@st.composite
def synthetic_configs(
    draw: Any,
    num_layers: _IntArg = _DEPTHS,
    hidden_size: _IntArg = _MODEL_WIDTHS,
    num_heads: _IntArg = _HEADS,
) -> SyntheticConfig:
    """A :class:`SyntheticConfig` (N divisible by the heads, seed drawn)."""
    n = draw(_as_strategy(hidden_size))
    h = draw(_as_strategy(num_heads))
    return SyntheticConfig(
        num_layers=draw(_as_strategy(num_layers)),
        hidden_size=n,
        num_heads=h if n % h == 0 else 1,
        seed=draw(st.integers(0, 2**16)),
    )


@st.composite
def sparse_selection_tasks(draw: Any, hidden_size: _IntArg = _MODEL_WIDTHS) -> SparseSelectionTask:
    """A :class:`SparseSelectionTask` of width ``hidden_size``: T in [3, 10], 1 or 3 relevant positions."""
    seq_len = draw(st.integers(3, 10))
    count = draw(st.sampled_from([1, 3]))
    relevant = tuple(draw(st.permutations(range(seq_len)))[:count])
    return SparseSelectionTask(
        hidden_size=draw(_as_strategy(hidden_size)),
        seq_len=seq_len,
        vocab_size=draw(st.integers(2, 10)),
        relevant=relevant,
        noise=draw(st.sampled_from([0.0, 0.1, 0.2, 0.3])),
        seed=draw(st.integers(0, 2**16)),
    )


def training_configs(
    n_train: _IntArg = _SAMPLE_SIZES, epochs: _IntArg = _EPOCHS
) -> st.SearchStrategy[TrainingConfig]:
    """A :class:`TrainingConfig` with drawn sample size, steps, learning rate and data seed."""
    return st.builds(
        TrainingConfig,
        n_train=_as_strategy(n_train),
        epochs=_as_strategy(epochs),
        learning_rate=st.sampled_from([0.003, 0.01, 0.03]),
        seed=st.integers(0, 2**16),
    )
