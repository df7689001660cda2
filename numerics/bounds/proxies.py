"""The BERT-adapted proxies B_ours and B_Edelman of docs: proxies on a model's weights, in mpmath.

Provenance: exact (the authors' ``bounds.py``). :func:`proxies` computes each matrix's spectrum and hands
the spectra to the one composition, :func:`numerics.bounds.composition.compose_proxies`, in mpmath at
``dps`` digits with the post hoc choice of :func:`numerics.bounds.posthoc.choose_p`.

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
from typing import Any

import mpmath
import numpy as np

from numerics.batch.workers import ordered_map
from numerics.bounds.composition import ProxyReport, compose_proxies
from numerics.bounds.posthoc import MpmathSpectralArithmetic, PChoice
from numerics.formulas.evaluate import DEFAULT_DPS, check_dps, evaluate
from numerics.formulas.generated import GRID_M, L_PHI_VALUE
from numerics.loading.checkpoint import open_checkpoint
from numerics.loading.coverage import Coverage
from numerics.loading.families.base import coverage_from_measures
from numerics.loading.stream import Checkpoint
from numerics.loading.weights import TransformerWeights
from numerics.progress import progress
from numerics.spectra.blas import single_threaded_blas
from numerics.spectra.matrices import NamedMatrix, Place, expert_label, layer_matrices
from numerics.spectra.spectrum import RANK_TOLERANCE, Spectrum, layer_spectra, linalg_for
from theory.errors import InvalidArgument
from theory.grid import grid_fractions
from theory.kinds import MatrixKind
from theory.records import record
from theory.version import installed_version


def signature(m: int, dps: int, fast_svd: bool = False, device: str | None = None) -> str:
    """How the numbers were obtained, sacreBLEU style: method, rank tolerance, grid, precision, versions.

    With ``fast_svd`` the method names the Gram path and the precision it guarantees
    (:mod:`numerics.spectra.gram`); with a torch ``device`` it names torch's float64 linear algebra on that
    device instead of numpy's LAPACK.

    >>> signature(12, 50).split("|")[:3]
    ['svd:f64-lapack+thin-qr-core', 'rank-tol:1e-10', 'grid:m=12']
    """
    method = ("svd:f64-lapack" if device is None else f"svd:f64-torch-{device}") + "+thin-qr-core"
    if fast_svd:
        from numerics.spectra.gram import GRAM_RTOL  # the Gram path's module, imported only with it

        method += f"+gram-where-decided(rtol={GRAM_RTOL:g})"
    return "|".join(
        (
            method,
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
            for index, layer in progress(enumerate(weights.layers), weights.num_layers, label, unit="layer")
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


@record
class StreamOptions:
    """What a (worker) process needs to compute a streamed layer's spectra, and what else to take from the
    same read: the family's coverage measures (``measures``), the layer's content digest (``digest``) and
    ``layer_extra(index, matrices)``, any further computation on the layer's matrices (at their stored
    width, in a list it may release them from) once their spectra are taken: the certified enclosures of
    :mod:`numerics.certify` (with ``jobs`` > 1 a picklable function with a picklable result)."""

    checkpoint: Checkpoint
    fast_svd: bool
    entrywise_norms: bool
    device: str | None = None
    measures: bool = False
    digest: bool = False
    layer_extra: Callable[[int, list[NamedMatrix]], Any] | None = None


@record
class StreamedPass:
    """What one read of every layer gave: the spectra (values released), the family's coverage records
    (None unless asked for) and each layer's :func:`numerics.loading.digest.layer_digest` (None unless
    asked for) and each layer's ``layer_extra`` result (None unless asked for)."""

    spectra: tuple[tuple[NamedMatrix, Spectrum], ...]
    coverage: tuple[Coverage, ...] | None = None
    layer_digests: tuple[bytes, ...] | None = None
    extras: tuple[Any, ...] | None = None


@record
class LayerPass:
    """One layer's share of a :class:`StreamedPass` (small: sent back from a worker)."""

    spectra: list[tuple[Place, Spectrum]]
    measures: dict[str, float] | None
    digest: bytes | None
    extra: Any = None


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
            unit="layer",
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
    extras = tuple(layer.extra for layer in per_layer) if options.layer_extra is not None else None
    return StreamedPass(spectra, coverage, digests, extras)


def _not_computed(label: str) -> float:
    raise InvalidArgument(f"the (1,1) norm of {label} was not computed (streamed with entrywise_norms=False)")


def layer_part_norms(spectra: Sequence[tuple[NamedMatrix, Spectrum]]) -> dict[str, float]:
    """The spectral norms of a layer's projections its spectra (taken with ``part_norms``) already hold,
    keyed as the family measures read them: ``w_out`` = sigma_1(M_out) (M_out = W_out^T), ``w_gate`` and
    ``w_in`` from a gated M_in's two blocks, and per query head h ``wq.h`` and ``wk.h`` from QK_h's two
    factors (Wq_h^T and the transposed key block head h reads); an expert's under its label
    (``E3.w_out``, ``Eshared.w_gate``)."""
    norms: dict[str, float] = {}
    for matrix, spec in spectra:
        block = "" if matrix.expert is None else f"{expert_label(matrix.expert)}."
        if matrix.kind is MatrixKind.M_OUT:
            norms[f"{block}w_out"] = spec.spectral_norm
        elif matrix.kind is MatrixKind.M_IN and len(spec.part_norms) == 2:
            norms[f"{block}w_gate"], norms[f"{block}w_in"] = spec.part_norms
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
    # (not a zip: its reused result tuple would hold the previous spectrum during the next one's SVD)
    for matrix in matrices:
        spec = next(spectra)
        if options.entrywise_norms:
            entrywise = functools.partial(float, spec.norm_11)
        else:
            entrywise = functools.partial(_not_computed, matrix.label)
        pairs.append((matrix, dataclasses.replace(spec, entrywise_sum=entrywise)))
        del spec  # else the loop variable holds that copy while the next spectrum is computed
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
    places = [(matrix.place(), spec) for matrix, spec in pairs]
    extra = None
    if options.layer_extra is not None:
        pending = list(matrices)
        # the list is now the layer's only holder: layer_extra may release its matrices as it goes
        del layer, pairs, matrices, matrix, spectra
        extra = options.layer_extra(index, pending)
    return LayerPass(places, measures, digest, extra)


def default_grid_m(num_layers: int, hidden_size: int) -> int:
    """m = ceil(L + ln N), from ``theory.proxy.GRID_M`` (exact).

    >>> default_grid_m(6, 384)
    12
    """
    return int(evaluate(GRID_M, L=num_layers, N=hidden_size))


@record(kw_only=True)
class SpectraOptions:
    """How the spectra of a model are computed and the proxies composed (one record for every layer).

    ``jobs`` worker processes share the layers of a checkpoint (same numbers as ``jobs=1``);
    ``fast_svd`` lets large dense matrices take the Gram path where it is decided
    (:mod:`numerics.spectra.gram`; opt-in: the last digits differ from the SVD's); ``device`` "cpu" or
    "cuda" takes the QR and SVD calls to torch (float64; :func:`numerics.spectra.spectrum.linalg_for`),
    None keeps numpy's LAPACK; ``entrywise_norms=False`` skips the (1,1) norms of a streamed checkpoint
    (reported only, used by no bound); ``continuous=False`` skips each matrix's minimisation over [0, 2]
    (reported only: the grid choice, and so every proxy, is the same); ``dps`` decimal digits of mpmath;
    ``m`` the grid P_m (None: ceil(L + ln N)); ``coverage`` and ``digest`` also take a checkpoint's
    coverage records and layer digests from the same read (:func:`streamed_pass`). The certified proxies
    (:func:`numerics.certify.certified.certify_proxies`) read ``m``, ``certify_path`` (the certificate
    path of :func:`numerics.certify.certified.certify_matrix`: "auto", "float-bounds" or "arb") and
    ``certify_progress`` (a progress report of the certified layers on stderr).
    """

    jobs: int = 1
    fast_svd: bool = False
    device: str | None = None
    entrywise_norms: bool = True
    continuous: bool = True
    dps: int = DEFAULT_DPS
    m: int | None = None
    coverage: bool = False
    digest: bool = False
    certify_path: str = "auto"
    certify_progress: bool = True

    def __post_init__(self) -> None:
        check_dps(self.dps)
        if self.m is not None:
            grid_fractions(self.m)  # validates m before any spectrum is computed
        if self.fast_svd and self.device is not None:
            raise InvalidArgument(
                "fast_svd runs numpy's eigensolver (the Gram path); use it without a device"
            )


DEFAULT_OPTIONS = SpectraOptions()
"""The options every entry point takes when none are given."""


GIVEN_BACKEND = "given"
"""The ``backend`` of spectra computed before :func:`model_spectra` was called (not known here)."""


@record(kw_only=True)
class ModelSpectra:
    """Every matrix of a model's bound with its spectrum (extraction order), and what the compositions
    read of the model: L layers, hidden size N, H heads, the ``source`` label, the linear-algebra
    ``backend`` that took the spectra, and (from a checkpoint's read, when asked) its coverage records
    and layer digests, and each layer's ``layer_extra`` result (:class:`StreamOptions`)."""

    matrices: tuple[tuple[NamedMatrix, Spectrum], ...]
    num_layers: int
    hidden_size: int
    num_heads: int
    source: str
    backend: str
    coverage: tuple[Coverage, ...] | None = None
    layer_digests: tuple[bytes, ...] | None = None
    layer_extras: tuple[Any, ...] | None = None

    @classmethod
    def of(
        cls, matrices: Sequence[tuple[NamedMatrix, Spectrum]], *, source: str, backend: str, **extra: Any
    ) -> ModelSpectra:
        """The record of ``matrices``, with L, N and H read from them (InvalidArgument when empty)."""
        matrices = tuple(matrices)
        if not matrices:
            raise InvalidArgument("no matrices: proxies need the spectra of at least one layer")
        return cls(
            matrices=matrices,
            num_layers=1 + max(matrix.layer for matrix, _ in matrices),
            hidden_size=matrices[0][0].shape[0],
            num_heads=len({matrix.head for matrix, _ in matrices if matrix.head >= 0}),
            source=source,
            backend=backend,
            **extra,
        )


def model_spectra(
    weights: TransformerWeights | Checkpoint | Sequence[tuple[NamedMatrix, Spectrum]] | ModelSpectra | object,
    options: SpectraOptions = SpectraOptions(),
    *,
    source: str | None = None,
    layer_extra: Callable[[int, list[NamedMatrix]], Any] | None = None,
) -> ModelSpectra:
    """The :class:`ModelSpectra` of ``weights``: loaded weights (:func:`matrix_spectra`), a lazily opened
    :class:`Checkpoint` (read layer by layer, :func:`streamed_pass`), spectra already computed (the output
    of :func:`matrix_spectra`; then pass ``source``), a ModelSpectra (returned as is), or anything
    :func:`numerics.loading.load_weights` reads (an alias, a path, an ``nn.Module``, a state dict), which
    is then opened lazily. ``source`` overrides the label. ``layer_extra`` (:class:`StreamOptions`) runs on
    each layer of a checkpoint during the same read; its results are the record's ``layer_extras``."""
    if isinstance(weights, ModelSpectra):
        return weights
    if isinstance(weights, (str, os.PathLike, Mapping)) or hasattr(weights, "state_dict"):
        weights = open_checkpoint(weights)
    if isinstance(weights, TransformerWeights):
        spectra = matrix_spectra(weights, fast_svd=options.fast_svd, device=options.device)
        source = weights.source if source is None else source
        return ModelSpectra.of(spectra, source=source, backend=linalg_for(options.device).name)
    if isinstance(weights, Checkpoint):
        stream = StreamOptions(
            weights,
            options.fast_svd,
            options.entrywise_norms,
            options.device,
            options.coverage,
            options.digest,
            layer_extra,
        )
        streamed = streamed_pass(stream, jobs=options.jobs)
        return ModelSpectra.of(
            streamed.spectra,
            source=weights.source if source is None else source,
            backend=linalg_for(options.device).name,
            coverage=streamed.coverage,
            layer_digests=streamed.layer_digests,
            layer_extras=streamed.extras,
        )
    if isinstance(weights, Sequence):
        return ModelSpectra.of(weights, source=source or "spectra", backend=GIVEN_BACKEND)
    raise InvalidArgument(
        f"proxies cannot read a {type(weights).__name__}: give weights, spectra, a checkpoint path or "
        "alias, an nn.Module or a state dict"
    )


def proxies(
    weights: TransformerWeights | Checkpoint | Sequence[tuple[NamedMatrix, Spectrum]] | ModelSpectra | object,
    options: SpectraOptions = SpectraOptions(),
    *,
    source: str | None = None,
) -> ProxyReport[mpmath.mpf, Spectrum, PChoice]:
    """B_ours and B_Edelman (docs: proxies, exact) of ``weights``, with every intermediate quantity.

    ``weights``: anything :func:`model_spectra` reads. ``options`` (one :class:`SpectraOptions`: ``m``,
    ``dps``, ``jobs``, ``fast_svd``, ``entrywise_norms``, ``continuous``, ``device``, ``coverage``,
    ``digest``): how the spectra are computed and the proxies composed. The spectra go to the one
    composition, :func:`numerics.bounds.composition.compose_proxies`, in mpmath. Errors name the matrix
    they concern.
    """
    spectra = model_spectra(weights, options, source=source)
    m = default_grid_m(spectra.num_layers, spectra.hidden_size) if options.m is None else options.m
    return compose_proxies(
        MpmathSpectralArithmetic(options.dps, m=m, continuous=options.continuous),
        spectra.matrices,
        num_layers=spectra.num_layers,
        hidden_size=spectra.hidden_size,
        num_heads=spectra.num_heads,
        m=m,
        source=spectra.source,
        signature=signature(m, options.dps, options.fast_svd, options.device),
        dps=options.dps,
        coverage=spectra.coverage,
        layer_digests=spectra.layer_digests,
    )
