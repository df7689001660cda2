"""The spectra stage: every matrix of a model with its spectrum, computed once, as one record.

:func:`model_spectra` turns loaded weights, a lazily opened checkpoint or spectra already in hand into a
:class:`ModelSpectra` (the matrices in extraction order, docs: matrices, with their spectra, and L, N, H,
the source and the linear-algebra backend); every later stage (the proxies of
:mod:`numerics.bounds.proxies`, the assembled bound, the certified enclosures of :mod:`numerics.certify`)
reads that record whole. Each spectrum comes from :mod:`numerics.spectra.spectrum`.

A checkpoint opened lazily (:class:`numerics.loading.stream.Checkpoint`) goes through
:func:`streamed_pass`: one layer is read, its spectra (and (1,1) norms) computed, and the layer dropped
before the next is read, so memory holds one layer's matrices plus the spectra; the coverage measures, the
content digest and any further per-layer computation (``layer_extra``: the certificates) come from the
same read.
"""

from __future__ import annotations

import dataclasses
import functools
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, Protocol, TypeVar

import numpy as np

from numerics.batch.workers import ordered_map
from numerics.formulas.evaluate import DEFAULT_DPS, check_dps
from numerics.loading.checkpoint import open_checkpoint
from numerics.loading.coverage import Coverage
from numerics.loading.families.base import coverage_from_measures
from numerics.loading.stream import Checkpoint
from numerics.loading.weights import TransformerWeights
from numerics.progress import progress
from numerics.spectra.blas import single_threaded_blas
from numerics.spectra.matrices import NamedMatrix, Place, expert_label, layer_matrices
from numerics.spectra.spectrum import Spectrum, layer_spectra, linalg_for
from theory.errors import InvalidArgument
from theory.grid import grid_fractions
from theory.kinds import MatrixKind
from theory.records import record

Spectral = TypeVar("Spectral")
"""What is known of one matrix's spectrum: a :class:`~numerics.spectra.spectrum.Spectrum` (float64 LAPACK),
or a :class:`~numerics.certify.certified.CertifiedMatrix` (arb enclosures)."""


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


class LayerExtra(Protocol):
    """Further work on one streamed layer's matrices during the spectra's read (the certified enclosures
    of :mod:`numerics.certify`)."""

    def dense_values(self, matrix: NamedMatrix) -> np.ndarray | None:
        """Work on a dense matrix (at its stored width, before its float64 upcast) while its spectrum is
        taken; the
        :data:`~numerics.spectra.spectrum.GivenValues` its spectrum may take instead of an SVD, or None."""

    def finish(self, matrices: list[NamedMatrix]) -> Any:
        """The layer's result, once every spectrum is taken (the matrices at their stored width, in a list
        it may release them from)."""


@record
class StreamOptions:
    """What a (worker) process needs to compute a streamed layer's spectra, and what else to take from the
    same read: the family's coverage measures (``measures``), the layer's content digest (``digest``) and
    ``layer_extra(index)``, a :class:`LayerExtra` for each layer (with ``jobs`` > 1 a picklable function
    whose ``finish`` gives a picklable result)."""

    checkpoint: Checkpoint
    fast_svd: bool
    entrywise_norms: bool
    device: str | None = None
    measures: bool = False
    digest: bool = False
    layer_extra: Callable[[int], LayerExtra] | None = None


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
    matrices = layer_matrices(index, layer, checkpoint.num_heads, checkpoint.kv_heads)
    extra = None if options.layer_extra is None else options.layer_extra(index)
    spectra = layer_spectra(
        matrices,
        checkpoint.source,
        fast_svd=options.fast_svd,
        linalg=linalg,
        part_norms=measure is not None,
        given_values=None if extra is None else extra.dense_values,
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
        measures = measure(layer, checkpoint.num_heads, checkpoint.kv_heads, checkpoint.config, norms=norms)
    digest = None
    if options.digest:
        from numerics.loading.digest import layer_digest  # here: hashlib only when the hash is wanted

        digest = layer_digest(layer)
    places = [(matrix.place(), spec) for matrix, spec in pairs]
    result = None
    if extra is not None:
        pending = list(matrices)
        # the list is now the layer's only holder: the extra may release its matrices as it goes
        del layer, pairs, matrices, matrix, spectra
        result = extra.finish(pending)
    return LayerPass(places, measures, digest, result)


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
class ModelSpectra(Generic[Spectral]):
    """Every matrix of a model's bound with its spectrum (extraction order), and what the compositions
    read of the model: L layers, hidden size N, H heads, the ``source`` label, the linear-algebra
    ``backend`` that took the spectra, and (from a checkpoint's read, when asked) its coverage records
    and layer digests, and each layer's ``layer_extra`` result (:class:`StreamOptions`).

    The spectra are float64 :class:`~numerics.spectra.spectrum.Spectrum` records from
    :func:`model_spectra`, or certified enclosures (:func:`numerics.certify.certified.certify_proxies`
    makes that record with :meth:`with_matrices`); the compositions
    (:func:`numerics.bounds.composition.compose_proxies`,
    :func:`numerics.bounds.assembled.compose_assembled`) take either whole."""

    matrices: tuple[tuple[NamedMatrix, Spectral], ...]
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
        cls, matrices: Sequence[tuple[NamedMatrix, Spectral]], *, source: str, backend: str, **extra: Any
    ) -> ModelSpectra[Spectral]:
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

    def with_matrices(self, matrices: Sequence[tuple[NamedMatrix, Any]], backend: str) -> ModelSpectra[Any]:
        """The same model (L, N, H, source, coverage, digests) with other spectra of the same matrices, in
        the same order (the certified enclosures of the float spectra), taken by ``backend``."""
        matrices = tuple(matrices)
        if [m.place() for m, _ in matrices] != [m.place() for m, _ in self.matrices]:
            raise InvalidArgument("with_matrices: the matrices differ from the record's (place or order)")
        return dataclasses.replace(self, matrices=matrices, backend=backend)


def model_spectra(
    weights: TransformerWeights | Checkpoint | Sequence[tuple[NamedMatrix, Spectrum]] | ModelSpectra | object,
    options: SpectraOptions = SpectraOptions(),
    *,
    source: str | None = None,
    layer_extra: Callable[[int], LayerExtra] | None = None,
) -> ModelSpectra[Spectrum]:
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
