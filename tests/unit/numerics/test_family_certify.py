"""Certified intervals of gated feed-forwards contain the plain values (the float certificate of a gated
M_in = [W_gate^T, W_up^T] must take both column blocks)."""

from __future__ import annotations

import pytest

from numerics.bounds.proxies import proxies
from numerics.loading import load_weights
from numerics.spectra.model import SpectraOptions


@pytest.mark.parametrize("name", ["llama", "qwen3", "gemma", "mixtral", "qwen2_moe"])
def test_certified_intervals_contain_the_plain_values_of_gated_blocks(tiny_models, name):
    """Regression: the float certificate of a gated M_in = [W_gate^T, W_up^T] took its first block only, so
    the certified B_ours of every gated model excluded the plain value (LLaMA: 26.80 vs 28.47)."""
    pytest.importorskip("flint", reason="--certify needs python-flint")
    from numerics.certify.certified import certify_proxies

    weights = load_weights(tiny_models(name).folder)
    plain = proxies(weights)
    certified = certify_proxies(weights, SpectraOptions(certify_progress=False))
    for row, ball in zip(plain.matrices, certified.matrices, strict=True):
        low, high = (
            float(x) for x in (ball.spectrum.spectral_norm.lower(), ball.spectrum.spectral_norm.upper())
        )
        assert low <= row.spectrum.spectral_norm * (1 + 1e-15) and row.spectrum.spectral_norm <= high * (
            1 + 1e-15
        ), row.matrix.label
    assert float(certified.ours.lower()) <= float(plain.ours) <= float(certified.ours.upper())
