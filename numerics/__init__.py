"""numerics: checkpoints -> matrices -> spectra -> evaluated expressions -> proxies and bounds.

The layout follows that pipeline: ``loading`` (checkpoints, one adapter per family), ``spectra`` (the
matrices of a layer and their exact spectra), ``formulas`` (theory's sympy formulas evaluated on numbers),
``bounds`` (the proxies, the post hoc p, the assembled bound), ``certify`` (rigorous enclosures), ``batch``
(worker processes and checkpoint sweeps), ``synthetic`` and ``ranking`` (the trained small models and the
predictive study); ``testing`` and ``strategies`` are the public kit for property suites of one's own.

The public names below are imported on first use (PEP 562), so ``specbound bound`` imports only what
it runs (no sympy, no assembled bound).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from numerics._shadowing import ensure_own_packages

ensure_own_packages(["theory"])  # before the first import from theory: a stray theory.py is named at once

from theory.prover.lazy_exports import lazy_getattr  # noqa: E402
from theory.version import installed_version  # noqa: E402

if TYPE_CHECKING:
    from numerics.bounds.assembled import AssembledBound as AssembledBound
    from numerics.bounds.assembled import assembled_bound as assembled_bound
    from numerics.bounds.posthoc import PChoice as PChoice
    from numerics.bounds.posthoc import choose_p as choose_p
    from numerics.bounds.proxies import ProxyReport as ProxyReport
    from numerics.bounds.proxies import proxies as proxies
    from numerics.formulas.evaluate import evaluate as evaluate
    from numerics.loading import DEFAULT_MODELS as DEFAULT_MODELS
    from numerics.loading import load_weights as load_weights
    from numerics.loading import open_checkpoint as open_checkpoint
    from numerics.loading.weights import LayerWeights as LayerWeights
    from numerics.loading.weights import ModelShape as ModelShape
    from numerics.loading.weights import TransformerWeights as TransformerWeights
    from numerics.spectra.matrices import NamedMatrix as NamedMatrix
    from numerics.spectra.matrices import extract_matrices as extract_matrices
    from numerics.spectra.model import SpectraOptions as SpectraOptions
    from numerics.spectra.spectrum import Spectrum as Spectrum
    from numerics.spectra.spectrum import spectrum as spectrum

_HOME = {
    "evaluate": "numerics.formulas.evaluate",
    "proxies": "numerics.bounds.proxies",
    "spectrum": "numerics.spectra.spectrum",
    "AssembledBound": "numerics.bounds.assembled",
    "assembled_bound": "numerics.bounds.assembled",
    "DEFAULT_MODELS": "numerics.loading.aliases",
    "load_weights": "numerics.loading",
    "open_checkpoint": "numerics.loading",
    "LayerWeights": "numerics.loading.weights",
    "ModelShape": "numerics.loading.weights",
    "TransformerWeights": "numerics.loading.weights",
    "NamedMatrix": "numerics.spectra.matrices",
    "extract_matrices": "numerics.spectra.matrices",
    "PChoice": "numerics.bounds.posthoc",
    "choose_p": "numerics.bounds.posthoc",
    "ProxyReport": "numerics.bounds.proxies",
    "SpectraOptions": "numerics.spectra.model",
    "Spectrum": "numerics.spectra.spectrum",
}

__all__ = sorted(_HOME)


__getattr__ = lazy_getattr(__name__, _HOME, installed_version)
