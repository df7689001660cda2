"""The BERT-adapted proxies B_ours and B_Edelman of docs: proxies on a model's weights, in mpmath.

Provenance: exact (the authors' ``bounds.py``). :func:`proxies` takes the model's spectra from the spectra
stage (:func:`numerics.spectra.model.model_spectra`: each spectrum computed once, a checkpoint read one
layer at a time) and hands the record to the one composition,
:func:`numerics.bounds.composition.compose_proxies`, in mpmath at ``dps`` digits with the post hoc choice
of :func:`numerics.bounds.posthoc.choose_p`.
"""

from __future__ import annotations

from collections.abc import Sequence

import mpmath
import numpy as np

from numerics.bounds.composition import ProxyReport, compose_proxies
from numerics.bounds.posthoc import MpmathSpectralArithmetic, PChoice
from numerics.formulas.evaluate import evaluate
from numerics.formulas.generated import GRID_M, L_PHI_VALUE
from numerics.loading.stream import Checkpoint
from numerics.loading.weights import TransformerWeights
from numerics.spectra.matrices import NamedMatrix
from numerics.spectra.model import ModelSpectra, SpectraOptions, model_spectra
from numerics.spectra.spectrum import RANK_TOLERANCE, Spectrum
from theory.version import installed_version


def signature(
    m: int, dps: int, fast_svd: bool = False, device: str | None = None, certified_values: bool = False
) -> str:
    """How the numbers were obtained, sacreBLEU style: method, rank tolerance, grid, precision, versions.

    With ``fast_svd`` the method names the Gram path and the precision it guarantees
    (:mod:`numerics.spectra.gram`); with a torch ``device`` it names torch's float64 linear algebra on that
    device instead of numpy's LAPACK; with ``certified_values`` (some spectrum's ``svd_path`` is
    "certificate": ``bound --certify``) the points of certified enclosures where they decide S_p to the same
    precision.

    >>> signature(12, 50).split("|")[:3]
    ['svd:f64-lapack+thin-qr-core', 'rank-tol:1e-10', 'grid:m=12']
    """
    method = ("svd:f64-lapack" if device is None else f"svd:f64-torch-{device}") + "+thin-qr-core"
    if fast_svd or certified_values:
        from numerics.spectra.gram import GRAM_RTOL  # the Gram rule's module, imported only with it
    if fast_svd:
        method += f"+gram-where-decided(rtol={GRAM_RTOL:g})"
    if certified_values:
        method += f"+certificate-where-decided(rtol={GRAM_RTOL:g})"
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


def default_grid_m(num_layers: int, hidden_size: int) -> int:
    """m = ceil(L + ln N), from ``theory.proxy.GRID_M`` (exact).

    >>> default_grid_m(6, 384)
    12
    """
    return int(evaluate(GRID_M, L=num_layers, N=hidden_size))


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
        spectra,
        m=m,
        signature=signature(
            m,
            options.dps,
            options.fast_svd,
            options.device,
            any(spec.svd_path == "certificate" for _, spec in spectra.matrices),
        ),
        dps=options.dps,
    )
