"""The BERT-adapted proxies B_ours and B_Edelman of docs: proxies on a model's weights.

Provenance: exact (the authors' ``bounds.py``: ``ours_posthoc_proxy``, ``edelman_multihead_proxy``).
Every number is a formula of :mod:`theory.proxy` evaluated by :func:`numerics.formulas.evaluate.evaluate` in
mpmath at ``dps`` digits:

- depth factor alpha_l = prod_{k > l} LAYER_LIPSCHITZ_k, alpha_{L-1} = 1, with
  A_k = sum_h HEAD_LIPSCHITZ(C2(Vt_h^k), C2(QK_h^k)) and L_phi = 1.13;
- sensitivity gamma = GAMMA[kind], scale s = SCALE(gamma, alpha_l, L);
- per matrix the post hoc p and contribution min_{p in P_m} SUMMAND
  (:func:`numerics.bounds.posthoc.choose_p`);
- B_ours = OURS_PROXY(Sigma, L), Sigma the sum of the contributions;
- B_Edelman = EDELMAN_PROXY(Xi), Xi = sum_l EDELMAN_LAYER_WEIGHT(alpha_l) xi_l, xi_l the sum of the
  layer's EDELMAN_TERM.

Each spectrum is computed once (:func:`matrix_spectra`) and every later stage reads it. A checkpoint
opened lazily (:class:`numerics.loading.stream.Checkpoint`) goes through :func:`streamed_pass`: one
layer is read, its spectra (and (1,1) norms) computed, and the layer dropped before the next is read, so
memory holds one layer's float64 matrices plus the spectra; the coverage measures and the content digest
can come from the same read.
"""

from __future__ import annotations

import dataclasses
import functools
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar

import mpmath
import numpy as np

from numerics.batch.workers import ordered_map
from numerics.bounds.posthoc import PChoice, choose_p
from numerics.formulas.evaluate import DEFAULT_DPS, CompiledFormula, check_dps, evaluate, evaluate_from
from numerics.formulas.generated import (
    EDELMAN_LAYER_WEIGHT,
    EDELMAN_PROXY,
    EDELMAN_TERM,
    GAMMA,
    GRID_M,
    HEAD_LIPSCHITZ,
    L_PHI_VALUE,
    LAYER_LIPSCHITZ,
    OURS_PROXY,
    SCALE,
)
from numerics.loading.checkpoint import open_checkpoint
from numerics.loading.coverage import Coverage
from numerics.loading.families.base import coverage_from_measures
from numerics.loading.stream import Checkpoint
from numerics.loading.weights import TransformerWeights
from numerics.progress import progress
from numerics.spectra.blas import single_threaded_blas
from numerics.spectra.gram import GRAM_RTOL
from numerics.spectra.matrices import NamedMatrix, layer_matrices
from numerics.spectra.spectrum import RANK_TOLERANCE, Spectrum, layer_spectra, linalg_for
from theory.errors import InvalidArgument, require
from theory.grid import grid_fractions
from theory.kinds import MatrixKind
from theory.version import installed_version

if TYPE_CHECKING:
    from theory.formula import Formula

Place = tuple[int, int, MatrixKind, tuple[int, ...], tuple[int, ...] | None]
"""Where a matrix sits and its factors' shapes (:meth:`NamedMatrix.place`)."""

Number = TypeVar("Number", bound=Any)
"""An exact-enough number type: mpmath.mpf here, flint.arb balls in numerics.certify."""


@dataclass(frozen=True, eq=False)
class MatrixProxy:
    """One matrix's share of the proxies: its spectrum, alpha, gamma, scale, post hoc p and Edelman term."""

    matrix: NamedMatrix
    spectrum: Spectrum
    alpha: mpmath.mpf
    gamma: mpmath.mpf
    scale: mpmath.mpf
    choice: PChoice
    edelman_term: mpmath.mpf

    @property
    def p_opt(self) -> Fraction:
        """The minimiser of the summand over the grid P_m (smallest p on ties)."""
        return self.choice.p_grid

    @property
    def contribution(self) -> mpmath.mpf:
        """min_{p in P_m} C_p of this matrix."""
        return self.choice.value_grid

    def row(self) -> dict[str, Any]:
        """This matrix as one table row (the columns of :data:`ROW_COLUMNS`); derived quantities stay mpf."""
        spec = self.spectrum
        rows, cols = spec.shape
        return {
            "layer": self.matrix.layer,
            "head": self.matrix.head,
            "kind": self.matrix.kind.value,
            "rows": rows,
            "cols": cols,
            "rank": spec.rank,
            "spectral_norm": spec.spectral_norm,
            "frobenius_norm": spec.frobenius_norm,
            "norm_21": spec.norm_21,
            "alpha": self.alpha,
            "gamma": self.gamma,
            "p_opt": float(self.p_opt),
            "contribution": self.contribution,
            "p_continuous": self.choice.p_continuous,
            "contribution_continuous": self.choice.value_continuous,
            "scale": self.scale,
            "nuclear_norm": spec.nuclear_norm,
            "norm_11": spec.norm_11,
            "stable_rank": spec.stable_rank,
            "svd_path": spec.svd_path,
        }


ROW_COLUMNS = (
    "layer",
    "head",
    "kind",
    "rows",
    "cols",
    "rank",
    "spectral_norm",
    "frobenius_norm",
    "norm_21",
    "alpha",
    "gamma",
    "p_opt",
    "contribution",
    "p_continuous",
    "contribution_continuous",
    "scale",
    "nuclear_norm",
    "norm_11",
    "stable_rank",
    "svd_path",
)
"""Columns of a per-matrix row (head is -1 for the layer-wide M_in and M_out)."""


@dataclass(frozen=True, eq=False)
class ProxyReport:
    """B_ours and B_Edelman of one model, every per-matrix and per-layer quantity, and how they were obtained.

    Values are mpmath numbers at ``dps`` digits; ``ours_float`` and ``edelman_float`` are float views
    (inf when a value exceeds float64, e.g. B_Edelman of a very deep model; print the mpf then).
    """

    source: str
    num_layers: int
    hidden_size: int
    num_heads: int
    m: int
    dps: int
    matrices: tuple[MatrixProxy, ...]
    alphas: tuple[mpmath.mpf, ...]
    xis: tuple[mpmath.mpf, ...]
    leading: mpmath.mpf
    ours: mpmath.mpf
    edelman: mpmath.mpf
    signature: str
    coverage: tuple[Coverage, ...] | None = None
    """The family's coverage records, when ``proxies(..., coverage=True)`` took them from the same read."""
    layer_digests: tuple[bytes, ...] | None = None
    """Each layer's content digest, when ``proxies(..., digest=True)`` took it from the same read."""

    @property
    def ours_float(self) -> float:
        """B_ours as a float."""
        return float(self.ours)

    @property
    def edelman_float(self) -> float:
        """B_Edelman as a float (inf beyond float64's range)."""
        return float(self.edelman)

    def to_frame(self) -> Any:
        """One pandas DataFrame row per matrix (columns :data:`ROW_COLUMNS`, floats), for a notebook.

        Needs pandas (``specbound[analysis]``). A value beyond float64's range (alpha or a contribution
        of a very deep model) becomes inf here; the exact mpmath value stays on :attr:`matrices`.
        """
        require("pandas", purpose="to_frame")
        import pandas as pd

        rows = [
            {k: float(v) if isinstance(v, mpmath.mpf) else v for k, v in row.row().items()}
            for row in self.matrices
        ]
        return pd.DataFrame(rows, columns=list(ROW_COLUMNS))


def signature(m: int, dps: int, fast_svd: bool = False, device: str | None = None) -> str:
    """How the numbers were obtained, sacreBLEU style: method, rank tolerance, grid, precision, versions.

    With ``fast_svd`` the method names the Gram path and the precision it guarantees
    (:mod:`numerics.spectra.gram`); with a torch ``device`` it names torch's float64 linear algebra on that
    device instead of numpy's LAPACK.

    >>> signature(12, 50).split("|")[:3]
    ['svd:f64-lapack+thin-qr-core', 'rank-tol:1e-10', 'grid:m=12']
    """
    return "|".join(
        (
            ("svd:f64-lapack" if device is None else f"svd:f64-torch-{device}")
            + "+thin-qr-core"
            + (f"+gram-where-decided(rtol={GRAM_RTOL:g})" if fast_svd else ""),
            f"rank-tol:{RANK_TOLERANCE:g}",
            f"grid:m={m}",
            "p:posthoc-per-matrix",
            f"eval:mpmath-dps={dps}",
            f"L_phi:{L_PHI_VALUE}",
            f"numpy:{np.__version__}",
            f"mpmath:{mpmath.__version__}",
            f"version:{installed_version()}",
        )
    )


def matrix_spectra(
    weights: TransformerWeights,
    *,
    label: str = "spectra",
    fast_svd: bool = False,
    device: str | None = None,
) -> tuple[tuple[NamedMatrix, Spectrum], ...]:
    """Every matrix of the bound (docs: matrices, extraction order) and its spectrum, computed once.

    ``fast_svd``, ``device`` (torch's linear algebra): see :func:`numerics.spectra.spectrum.spectrum`.
    """
    linalg = linalg_for(device)
    with single_threaded_blas():
        per_layer = [
            (matrices, list(layer_spectra(matrices, weights.source, fast_svd=fast_svd, linalg=linalg)))
            for index, layer in progress(enumerate(weights.layers), weights.num_layers, label)
            for matrices in [layer_matrices(index, layer, weights.num_heads, weights.kv_heads)]
        ]
    return tuple(pair for matrices, spectra in per_layer for pair in zip(matrices, spectra, strict=True))


def streamed_spectra(
    checkpoint: Checkpoint,
    *,
    label: str = "spectra",
    jobs: int = 1,
    fast_svd: bool = False,
    entrywise_norms: bool = True,
    device: str | None = None,
) -> tuple[tuple[NamedMatrix, Spectrum], ...]:
    """Like :func:`matrix_spectra`, reading one layer at a time and keeping only the spectra
    (:func:`streamed_pass` without the coverage and the digest)."""
    options = StreamOptions(checkpoint, fast_svd, entrywise_norms, device)
    return streamed_pass(options, label=label, jobs=jobs).spectra


@dataclass(frozen=True)
class StreamOptions:
    """What a (worker) process needs to compute a streamed layer's spectra, and what else to take from the
    same read: the family's coverage measures (``measures``) and the layer's content digest (``digest``)."""

    checkpoint: Checkpoint
    fast_svd: bool
    entrywise_norms: bool
    device: str | None = None
    measures: bool = False
    digest: bool = False


@dataclass(frozen=True)
class StreamedPass:
    """What one read of every layer gave: the spectra (values released), the family's coverage records
    (None unless asked for) and each layer's :func:`numerics.loading.digest.layer_digest` (None unless
    asked for)."""

    spectra: tuple[tuple[NamedMatrix, Spectrum], ...]
    coverage: tuple[Coverage, ...] | None = None
    layer_digests: tuple[bytes, ...] | None = None


@dataclass(frozen=True)
class LayerPass:
    """One layer's share of a :class:`StreamedPass` (small: sent back from a worker)."""

    spectra: list[tuple[Place, Spectrum]]
    measures: dict[str, float] | None
    digest: bytes | None


def streamed_pass(options: StreamOptions, *, label: str = "spectra", jobs: int = 1) -> StreamedPass:
    """Every layer of ``options.checkpoint`` read once, in order: its spectra, and from the same read its
    coverage measures and content digest when ``options`` asks for them.

    Each matrix's (1,1) norm is computed while its layer is in memory (unless ``entrywise_norms`` is
    False: no formula of the bounds uses it, and for a head product it costs an N x N product); the
    returned matrices keep their place and shape but not their values (:meth:`NamedMatrix.released`).
    With ``jobs`` > 1 the layers are spread over that many worker processes
    (:func:`numerics.batch.workers.ordered_map`: each worker opens its layers itself and runs the same
    single-threaded LAPACK calls, so the spectra are identical bit for bit to the serial run, and come
    back in layer order). ``fast_svd``, ``device``: see :func:`numerics.spectra.spectrum.spectrum`. A layer
    is read at its stored width and each matrix upcast to float64 only while its spectrum is taken. The
    coverage measures reuse the spectral norms the spectra computed (:func:`layer_part_norms`).
    """
    checkpoint = options.checkpoint
    linalg_for(options.device)  # an unusable device fails here, before any worker starts
    per_layer = list(
        progress(
            ordered_map(layer_pass, options, range(checkpoint.num_layers), jobs=jobs),
            checkpoint.num_layers,
            label,
        )
    )
    spectra = tuple(
        (NamedMatrix.placeholder(*place), spec) for layer in per_layer for place, spec in layer.spectra
    )
    coverage = None
    if options.measures:
        per_layer_measures = (layer.measures or {} for layer in per_layer)
        coverage = coverage_from_measures(
            checkpoint.family, checkpoint.config, per_layer_measures, checkpoint.source
        )
    digests = tuple(layer.digest or b"" for layer in per_layer) if options.digest else None
    return StreamedPass(spectra, coverage, digests)


def _not_computed(label: str) -> float:
    raise InvalidArgument(f"the (1,1) norm of {label} was not computed (streamed with entrywise_norms=False)")


def layer_part_norms(spectra: Sequence[tuple[NamedMatrix, Spectrum]]) -> dict[str, float]:
    """The spectral norms of a layer's projections its spectra (taken with ``part_norms``) already hold,
    keyed as the family measures read them: ``w_out`` = sigma_1(M_out) (M_out = W_out^T), ``w_gate`` and
    ``w_in`` from a gated M_in's two blocks, and per query head h ``wq.h`` and ``wk.h`` from QK_h's two
    factors (Wq_h^T and the transposed key block head h reads)."""
    norms: dict[str, float] = {}
    for matrix, spec in spectra:
        if matrix.kind is MatrixKind.M_OUT:
            norms["w_out"] = spec.spectral_norm
        elif matrix.kind is MatrixKind.M_IN and len(spec.part_norms) == 2:
            norms["w_gate"], norms["w_in"] = spec.part_norms
        elif matrix.kind is MatrixKind.QK and spec.part_norms:
            norms[f"wq.{matrix.head}"], norms[f"wk.{matrix.head}"] = spec.part_norms
    return norms


def layer_pass(options: StreamOptions, index: int) -> LayerPass:
    """Layer ``index`` read, each matrix's spectrum (and (1,1) norm) computed, the values then dropped;
    from the same read the family's coverage measures and the layer's digest when ``options`` asks.

    Each matrix is returned as its :meth:`NamedMatrix.place` (a few bytes to send back from a worker).
    """
    checkpoint = options.checkpoint
    layer = checkpoint.stored_layer(index)
    linalg = linalg_for(options.device)
    measure = checkpoint.family.measures if options.measures else None
    pairs = []
    matrices = layer_matrices(index, layer, checkpoint.num_heads, checkpoint.num_kv_heads)
    spectra = layer_spectra(
        matrices, checkpoint.source, fast_svd=options.fast_svd, linalg=linalg, part_norms=measure is not None
    )
    # one spectrum at a time: its deferred (1,1) norm holds a float64 copy of the matrix, dropped here
    for matrix, spec in zip(matrices, spectra, strict=True):
        if options.entrywise_norms:
            entrywise = functools.partial(float, spec.norm_11)
        else:
            entrywise = functools.partial(_not_computed, matrix.label)
        pairs.append((matrix, dataclasses.replace(spec, entrywise_sum=entrywise)))
    measures = None
    if measure is not None:
        norms = layer_part_norms(pairs)
        measures = measure(
            layer, checkpoint.num_heads, checkpoint.num_kv_heads, checkpoint.config, norms=norms
        )
    digest = None
    if options.digest:
        from numerics.loading.digest import layer_digest  # here: hashlib only when the hash is wanted

        digest = layer_digest(layer)
    return LayerPass([(matrix.place(), spec) for matrix, spec in pairs], measures, digest)


def default_grid_m(num_layers: int, hidden_size: int) -> int:
    """m = ceil(L + ln N), from ``theory.proxy.GRID_M`` (exact).

    >>> default_grid_m(6, 384)
    12
    """
    return int(evaluate(GRID_M, L=num_layers, N=hidden_size))


def spectral_norms(
    spectra: Sequence[tuple[NamedMatrix, Spectrum]],
) -> dict[tuple[int, int, MatrixKind], float]:
    """C2 of every matrix, keyed by (layer, head, kind)."""
    return {(matrix.layer, matrix.head, matrix.kind): spec.spectral_norm for matrix, spec in spectra}


def layer_factors(
    norms: Mapping[tuple[int, int, MatrixKind], Number],
    num_layers: int,
    evaluate_formula: Callable[..., Number],
    zero: Number,
    head_factor: Formula | CompiledFormula = HEAD_LIPSCHITZ,
) -> list[Number]:
    """LAYER_LIPSCHITZ of every layer, L_phi C2(M_in^k) C2(M_out^k) A_k (exact, docs: proxies).

    A_k = sum_h head_factor(C2(Vt_h^k), C2(QK_h^k)), ``head_factor`` the exact HEAD_LIPSCHITZ of the
    proxies unless given (the assembled bound passes its own, ``theory.assembled.HEAD_LIPSCHITZ``);
    ``norms`` maps (layer, head, kind) to C2 (head -1 for M_in, M_out). Generic over the arithmetic:
    ``evaluate_formula(formula, **values)`` is mpmath's :func:`numerics.formulas.evaluate.evaluate` here and
    arb's interval evaluation in :mod:`numerics.certify`.
    """
    heads = sorted({head for (_, head, _) in norms if head >= 0})
    factors = []
    for layer in range(num_layers):
        head_sum = sum(
            (
                evaluate_formula(
                    head_factor, C_V=norms[layer, h, MatrixKind.VT], C_QK=norms[layer, h, MatrixKind.QK]
                )
                for h in heads
            ),
            zero,
        )
        factors.append(
            evaluate_formula(
                LAYER_LIPSCHITZ,
                L_phi=L_PHI_VALUE,
                C_in=norms[layer, -1, MatrixKind.M_IN],
                C_out=norms[layer, -1, MatrixKind.M_OUT],
                A=head_sum,
            )
        )
    return factors


def products_of_later(factors: Sequence[Number], one: Number) -> tuple[Number, ...]:
    """alpha_l = prod_{k > l} factor_k for every layer l, alpha_{L-1} = 1 (the empty product)."""
    alphas = [one] * len(factors)
    for layer in range(len(factors) - 2, -1, -1):
        alphas[layer] = alphas[layer + 1] * factors[layer + 1]
    return tuple(alphas)


def depth_factors(
    norms: Mapping[tuple[int, int, MatrixKind], object],
    num_layers: int,
    *,
    dps: int = DEFAULT_DPS,
    head_factor: Formula | CompiledFormula = HEAD_LIPSCHITZ,
) -> tuple[mpmath.mpf, ...]:
    """alpha_l = prod_{k > l} L_phi C2(M_in^k) C2(M_out^k) A_k, alpha_{L-1} = 1 (exact), in mpmath.

    See :func:`layer_factors` (and its ``head_factor``). The products overflow float64 on deep models,
    not here.
    """
    with mpmath.workdps(dps):
        factors = layer_factors(
            norms, num_layers, functools.partial(evaluate, dps=dps), mpmath.mpf(0), head_factor
        )
        return products_of_later(factors, mpmath.mpf(1))


def proxies(
    weights: TransformerWeights | Checkpoint | Sequence[tuple[NamedMatrix, Spectrum]] | object,
    *,
    m: int | None = None,
    dps: int = DEFAULT_DPS,
    source: str | None = None,
    jobs: int = 1,
    fast_svd: bool = False,
    entrywise_norms: bool = True,
    continuous: bool = True,
    device: str | None = None,
    coverage: bool = False,
    digest: bool = False,
) -> ProxyReport:
    """B_ours and B_Edelman (docs: proxies, exact) of ``weights``, with every intermediate quantity.

    ``weights`` may also be the output of :func:`matrix_spectra` (spectra already computed; then pass
    ``source``), a lazily opened :class:`Checkpoint` (read layer by layer, :func:`streamed_spectra`), or
    anything :func:`numerics.loading.load_weights` reads (an alias, a path, an ``nn.Module``, a state
    dict), which is then opened lazily. ``m`` defaults to ceil(L + ln N). ``jobs`` worker processes
    share the layers of a checkpoint (:func:`streamed_spectra`; same numbers as ``jobs=1``). Errors name
    the matrix they concern. ``fast_svd`` lets large dense matrices take the Gram path where it is decided
    (:mod:`numerics.spectra.gram`; opt-in: the last digits differ from the SVD's). ``entrywise_norms=False``
    skips the (1,1) norms of a streamed checkpoint (reported only, used by no bound); ``continuous=False``
    skips each matrix's minimisation over [0, 2] (reported only: p_continuous, contribution_continuous; the
    grid choice, and so every proxy, is the same). ``device`` "cpu" or "cuda" takes the QR and SVD calls to
    torch (float64; :func:`numerics.spectra.spectrum.linalg_for`), None keeps numpy's LAPACK. For a
    checkpoint, ``coverage`` and ``digest`` also take the family's coverage records and each layer's content
    digest from the same read (:func:`streamed_pass`; :attr:`ProxyReport.coverage`, ``layer_digests``).
    """
    check_dps(dps)
    if m is not None:
        grid_fractions(m)  # validates m before any spectrum is computed
    if fast_svd and device is not None:
        raise InvalidArgument("fast_svd runs numpy's eigensolver (the Gram path); use it without a device")
    if isinstance(weights, (str, os.PathLike, Mapping)) or hasattr(weights, "state_dict"):
        weights = open_checkpoint(weights)
    extras: dict[str, Any] = {}
    if isinstance(weights, TransformerWeights):
        spectra = matrix_spectra(weights, fast_svd=fast_svd, device=device)
        source = weights.source if source is None else source
    elif isinstance(weights, Checkpoint):
        options = StreamOptions(weights, fast_svd, entrywise_norms, device, coverage, digest)
        streamed = streamed_pass(options, jobs=jobs)
        spectra, extras = (
            streamed.spectra,
            {"coverage": streamed.coverage, "layer_digests": streamed.layer_digests},
        )
        source = weights.source if source is None else source
    elif isinstance(weights, Sequence):
        spectra = tuple(weights)
        source = source or "spectra"
    else:
        raise InvalidArgument(
            f"proxies cannot read a {type(weights).__name__}: give weights, spectra, a checkpoint path or "
            "alias, an nn.Module or a state dict"
        )
    if not spectra:
        raise InvalidArgument("no matrices: proxies need the spectra of at least one layer")
    num_layers = 1 + max(matrix.layer for matrix, _ in spectra)
    hidden_size = spectra[0][0].shape[0]
    num_heads = len({matrix.head for matrix, _ in spectra if matrix.head >= 0})
    m = default_grid_m(num_layers, hidden_size) if m is None else m
    norms = spectral_norms(spectra)
    alphas = depth_factors(norms, num_layers, dps=dps)
    rows = []
    with mpmath.workdps(dps):
        for matrix, spec in spectra:
            layer = matrix.layer
            available: dict[str, object] = {
                "C_in": norms[layer, -1, MatrixKind.M_IN],
                "C_out": norms[layer, -1, MatrixKind.M_OUT],
                "n21": spec.norm_21,
            }
            if matrix.kind.per_head:
                available["C_V"] = norms[layer, matrix.head, MatrixKind.VT]
            gamma = evaluate_from(GAMMA[matrix.kind], available, dps=dps)
            scale = evaluate(SCALE, dps=dps, gamma=gamma, alpha=alphas[layer], L=num_layers)
            try:
                choice = choose_p(spec, scale, hidden_size, m=m, dps=dps, continuous=continuous)
            except InvalidArgument as error:
                raise InvalidArgument(f"{matrix.label} of {source}: {error}") from None
            edelman_term = evaluate_from(EDELMAN_TERM[matrix.kind], available, dps=dps)
            rows.append(MatrixProxy(matrix, spec, alphas[layer], gamma, scale, choice, edelman_term))
        leading = mpmath.fsum(row.contribution for row in rows)
        ours = evaluate(OURS_PROXY, dps=dps, Sigma=leading, L=num_layers)
        xis = tuple(
            mpmath.fsum(row.edelman_term for row in rows if row.matrix.layer == layer)
            for layer in range(num_layers)
        )
        xi_total = mpmath.fsum(
            evaluate(EDELMAN_LAYER_WEIGHT, dps=dps, alpha=alphas[layer]) * xis[layer]
            for layer in range(num_layers)
        )
        edelman = evaluate(EDELMAN_PROXY, dps=dps, Xi=xi_total)
    return ProxyReport(
        source=source,
        num_layers=num_layers,
        hidden_size=hidden_size,
        num_heads=num_heads,
        m=m,
        dps=dps,
        matrices=tuple(rows),
        alphas=alphas,
        xis=xis,
        leading=leading,
        ours=ours,
        edelman=edelman,
        signature=signature(m, dps, fast_svd, device),
        **extras,
    )
