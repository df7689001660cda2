"""The certified proxies checked against an independent float64 implementation of docs: proxies.

``reference_proxies`` (tests.helpers.certified_reference) is plain numpy written from the docs alone (dense
products, dense SVDs, no theory or numerics code), so that the certified balls are compared with a value
computed another way. The slow tier (tests/slow/test_certify_real.py) runs the same comparison on the two
real MiniLM models.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from flint import arb, ctx

from numerics.certify.certified import certify_proxies
from numerics.loading.weights import LayerWeights, ModelShape, TransformerWeights
from numerics.spectra.model import SpectraOptions
from tests.helpers.certified_reference import (
    assert_certified_matches_reference,
    random_model,
    reference_proxies,
)


def identity_model() -> TransformerWeights:
    eye = np.eye(2)
    return TransformerWeights(
        (LayerWeights(eye, eye, eye, eye, eye, eye),), ModelShape(2, 1, 1, 2), "identity"
    )


def test_reference_on_the_identity_model_matches_the_hand_computation():
    # every C2 = 1, rank 2, n21 = 2; gamma = 2 (QK) or 1; m = ceil(1 + ln 2) = 2; C_p = 2 at every p
    # for s = 1, and 2^{(2p+2)/(p+2)} for s = 2 (minimum 2 at p = 0): Sigma = 8, B_ours = 9;
    # xi = 4 * 2^{2/3}, B_Edelman = (1 + 4 * 2^{2/3})^{3/2}
    reference = reference_proxies(identity_model())
    assert reference["m"] == 2
    assert math.isclose(reference["ours"], 9.0, rel_tol=1e-15)
    assert math.isclose(reference["edelman"], (1 + 4 * 2 ** (2 / 3)) ** 1.5, rel_tol=1e-14)


def test_certified_identity_model_contains_the_exact_values_and_reports_ties():
    certified = certify_proxies(identity_model(), SpectraOptions(certify_progress=False))
    assert certified.ours.contains(arb(9))
    with ctx.workprec(200):
        assert certified.edelman.contains((1 + 4 * arb(2) ** (arb(2) / 3)) ** (arb(3) / 2))
    by_kind = {c.spectrum.matrix.kind.value: c for c in certified.matrices}
    assert by_kind["QK"].choice.candidates == (Fraction(0),) and by_kind["QK"].choice.decided
    # C_p = 2 exactly at every grid point: an honest certificate cannot pick one
    vt = by_kind["Vt"].choice
    assert vt.candidates == tuple(Fraction(k, 2) for k in range(5)) and not vt.decided
    assert certified.ours_below_edelman is True


def test_certified_random_models_contain_the_reference_values():
    for seed, shape in enumerate([(2, 8, 2, 16), (3, 16, 4, 32)]):
        assert_certified_matches_reference(random_model(*shape, seed=seed))


def test_rank_deficient_head_gives_a_decided_smaller_rank():
    model = random_model(1, 8, 2, 16, seed=5)
    layer = model.layers[0]
    layer.wq[:4, :] = 0.0
    layer.wq[0, :] = 1.0  # head 0 of QK has rank exactly 1
    certified = certify_proxies(model, SpectraOptions(certify_progress=False))
    qk0 = certified.matrices[0].spectrum
    assert qk0.matrix.label == "L0.H0.QK" and str(qk0.rank) == "1" and str(qk0.exact_rank) == "[1, 4]"
    assert_certified_matches_reference(model)


def test_model_summary_decides_the_rank_and_p_facts_of_a_random_model():
    from numerics.certify.report import model_summary

    model = random_model(1, 8, 2, 16, seed=7)
    summary = model_summary(certify_proxies(model, SpectraOptions(certify_progress=False)))
    reference = reference_proxies(model)
    assert summary["attention_rank_at_most_head_dim"] == "yes"
    assert summary["feed_forward_full_rank"] == "yes"  # Gaussian matrices are full rank
    p0 = summary["p0_optimal"]
    assert p0["of"] == 6 and p0["certainly"] + p0["possibly"] + p0["not"] == 6
    assert p0["certainly"] + p0["possibly"] >= sum(1 for p in reference["p"] if p == 0)
    expected = "yes" if reference["ours"] < reference["edelman"] else "no"
    assert summary["ours_below_edelman"] in (expected, "undecided")


def test_model_summary_sees_a_rank_deficient_feed_forward_matrix():
    from numerics.certify.report import model_summary

    model = random_model(1, 8, 2, 16, seed=8)
    model.layers[0].w_in[:, 0] = 0.0  # M_in = Win^T loses a row: rank 7 < 8
    summary = model_summary(certify_proxies(model, SpectraOptions(certify_progress=False)))
    assert summary["feed_forward_full_rank"] == "no"
