"""numerics: checkpoints -> matrices -> spectra -> evaluated expressions -> proxies and bounds.

The public names of the assembled bound, the loaders and the p choice are imported on first use
(PEP 562), so ``specbound bound`` does not import the assembled bound and its sympy derivations. The
three names that are also submodule names (``evaluate``, ``proxies``, ``spectrum``) are bound here, at
import, so that they stay the functions (a later ``import numerics.proxies`` does not rebind them).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from numerics.evaluate import evaluate as evaluate
from numerics.proxies import proxies as proxies
from numerics.spectrum import spectrum as spectrum

if TYPE_CHECKING:
    from numerics.assembled import AssembledBound as AssembledBound
    from numerics.assembled import assembled_bound as assembled_bound
    from numerics.loading import DEFAULT_MODELS as DEFAULT_MODELS
    from numerics.loading import load_weights as load_weights
    from numerics.loading import open_checkpoint as open_checkpoint
    from numerics.loading.weights import LayerWeights as LayerWeights
    from numerics.loading.weights import TransformerWeights as TransformerWeights
    from numerics.matrices import NamedMatrix as NamedMatrix
    from numerics.matrices import extract_matrices as extract_matrices
    from numerics.posthoc import PChoice as PChoice
    from numerics.posthoc import choose_p as choose_p
    from numerics.proxies import ProxyReport as ProxyReport
    from numerics.spectrum import Spectrum as Spectrum

_HOME = {
    "AssembledBound": "numerics.assembled",
    "assembled_bound": "numerics.assembled",
    "DEFAULT_MODELS": "numerics.loading",
    "load_weights": "numerics.loading",
    "open_checkpoint": "numerics.loading",
    "LayerWeights": "numerics.loading.weights",
    "TransformerWeights": "numerics.loading.weights",
    "NamedMatrix": "numerics.matrices",
    "extract_matrices": "numerics.matrices",
    "PChoice": "numerics.posthoc",
    "choose_p": "numerics.posthoc",
    "ProxyReport": "numerics.proxies",
    "Spectrum": "numerics.spectrum",
}

__all__ = sorted([*_HOME, "evaluate", "proxies", "spectrum"])


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use; submodules import as usual."""
    if name in _HOME:
        value = getattr(importlib.import_module(_HOME[name]), name)
        globals()[name] = value
        return value
    try:
        return importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
