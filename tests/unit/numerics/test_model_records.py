"""The records across the seams: both compositions take a model's ModelSpectra whole (and the assembled
bound its AssembledSetting), and a checkpoint and its loaded weights hold one ModelShape."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np
import pytest

from numerics.bounds.assembled import (
    AssembledSetting,
    MpmathAssembledArithmetic,
    assembled_bound,
    compose_assembled,
)
from numerics.bounds.composition import compose_proxies
from numerics.bounds.posthoc import MpmathSpectralArithmetic
from numerics.certify.certified import certify_proxies
from numerics.loading import load_weights, open_checkpoint
from numerics.loading.weights import LayerWeights, ModelShape, TransformerWeights
from numerics.spectra.model import model_spectra
from theory.errors import InvalidArgument


def small_model(seed: int = 3) -> TransformerWeights:
    """Two random layers, N = 8, H = 2 (d_h = 4), F = 16."""
    rng = np.random.default_rng(seed)
    n, f = 8, 16
    layers = tuple(
        LayerWeights(*(rng.standard_normal(shape) for shape in [(n, n)] * 4 + [(f, n), (n, f)]))
        for _ in range(2)
    )
    return TransformerWeights(layers, ModelShape(n, 2, 2, f), "small")


def test_compose_proxies_reads_the_model_from_the_record():
    spectra = model_spectra(small_model())
    assert (spectra.num_layers, spectra.hidden_size, spectra.num_heads) == (2, 8, 2)  # 2 layers, N, H by hand
    record = dataclasses.replace(spectra, source="relabelled", coverage=(), layer_digests=(b"a", b"b"))
    report = compose_proxies(MpmathSpectralArithmetic(30, m=3), record, m=3, signature="how", dps=30)
    assert (report.source, report.num_layers, report.hidden_size, report.num_heads) == ("relabelled", 2, 8, 2)
    assert (report.coverage, report.layer_digests, report.signature, report.dps, report.m) == (
        (),
        (b"a", b"b"),
        "how",
        30,
        3,
    )
    assert [row.matrix.label for row in report.matrices] == [m.label for m, _ in record.matrices]


def test_the_certified_record_keeps_the_model_and_refuses_other_matrices():
    weights = small_model()
    spectra = model_spectra(weights)
    balls = certify_proxies(weights)
    assert (balls.source, balls.num_layers, balls.hidden_size, balls.num_heads) == ("small", 2, 8, 2)
    with pytest.raises(InvalidArgument, match="the matrices differ"):
        spectra.with_matrices(spectra.matrices[::-1], "reversed")


def test_the_assembled_setting_is_checked_and_takes_the_dyadic_margin():
    # a margin measured after training is replaced by the dyadic 2^-k <= it: 0.3 -> k = 2, 0.25
    setting = AssembledSetting.of(n=1000, delta=0.1, margin=0.3, T=8, margin_after_training=True)
    assert (setting.margin, setting.margin_index, Fraction(setting.margin)) == (0.25, 2, Fraction(1, 4))
    with pytest.raises(InvalidArgument, match="n=0"):
        AssembledSetting.of(n=0, delta=0.1, margin=0.3, T=8)
    with pytest.raises(InvalidArgument, match="n=0"):  # refused before any spectrum is taken
        assembled_bound("no such checkpoint", n=0, delta=0.1, margin=0.3, T=8)


def test_compose_assembled_takes_the_record_and_the_setting():
    weights = small_model()
    setting = AssembledSetting.of(n=1000, delta=0.05, margin=0.5, T=8)
    composed = compose_assembled(MpmathAssembledArithmetic(40), model_spectra(weights), setting)
    bound = assembled_bound(weights, n=1000, delta=0.05, margin=0.5, T=8, dps=40)
    # K = L (2H + 2) + 1 = 2 * 6 + 1 matrices, the read-out (the class's worst case, norm 1) last
    assert composed.matrix_count == 13 and len(composed.matrices) == 13
    assert composed.matrices[-1].matrix.label == "readout.w" and composed.matrices[-1].rounded_norm >= 1
    assert (composed.gap, composed.sigma, composed.m) == (bound.gap, bound.sigma, bound.m)


def test_a_checkpoint_and_its_weights_hold_one_shape_with_k_resolved(tiny_models):
    for name, kv_heads in (("bert", 4), ("llama", 2)):  # llama's tiny model groups H = 4 queries by 2
        folder = tiny_models(name).folder
        checkpoint = open_checkpoint(folder)
        assert checkpoint.shape == load_weights(folder).shape == checkpoint.weights().shape
        assert (checkpoint.num_heads, checkpoint.kv_heads) == (4, kv_heads)
        assert checkpoint.widths.key_value == kv_heads * checkpoint.head_dim
    grouped = load_weights(tiny_models("llama").folder)
    assert ", K=2," in repr(grouped) and ", K=" not in repr(small_model())
