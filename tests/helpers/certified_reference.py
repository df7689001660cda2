"""An independent float64 implementation of docs: proxies (with each matrix's post hoc p), and the check
that certified proxies contain its values: plain numpy written from the docs alone (dense products, dense
SVDs, no theory or numerics code), so that the certified balls are compared with a value computed another
way. tests/unit/numerics/test_certify_reference.py runs it on small models, tests/slow/test_certify_real.py
on the two real MiniLM models."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from flint import arb

from numerics.certify.certified import certify_proxies
from numerics.certify.interval_eval import ArbArithmetic
from numerics.loading.weights import LayerWeights, ModelShape, TransformerWeights
from numerics.spectra.model import SpectraOptions


def reference_proxies(weights: TransformerWeights) -> dict[str, object]:
    """B_ours, B_Edelman and per-matrix post hoc p of docs: proxies in plain float64 numpy."""
    depth, n, heads = weights.num_layers, weights.hidden_size, weights.num_heads
    dh = n // heads
    layers = []
    for layer in weights.layers:
        mats = []
        for h in range(heads):
            hs = slice(h * dh, (h + 1) * dh)
            mats.append(("QK", h, layer.wq[hs, :].T @ layer.wk[hs, :], dh))
            mats.append(("Vt", h, layer.wv[hs, :].T @ layer.wo[:, hs].T, dh))
        mats.append(("M_in", -1, layer.w_in.T, None))
        mats.append(("M_out", -1, layer.w_out.T, None))
        rows = []
        for kind, head, matrix, cap in mats:
            sigma = np.linalg.svd(matrix, compute_uv=False)[:cap]  # rank(A B^T) <= d_h: the rest is noise
            tol = 1e-10 * max(min(matrix.shape), 1) * max(sigma[0], 1.0)
            norm_21 = float(np.linalg.norm(matrix, axis=0).sum())
            rows.append(
                {"kind": kind, "head": head, "sigma": sigma, "rank": int((sigma > tol).sum()), "n21": norm_21}
            )
        layers.append(rows)

    def norm(layer, kind, head=-1):
        (row,) = [r for r in layers[layer] if r["kind"] == kind and r["head"] == head]
        return float(row["sigma"][0])

    factors = []
    for layer in range(depth):
        head_sum = sum(norm(layer, "Vt", h) * (1 + 4 * norm(layer, "QK", h)) for h in range(heads))
        factors.append(1.13 * norm(layer, "M_in") * norm(layer, "M_out") * head_sum)
    alphas = [math.prod(factors[layer + 1 :]) for layer in range(depth)]
    m = math.ceil(depth + math.log(n))
    grid = [k / m for k in range(2 * m + 1)]
    leading, xi_total, choices = [], 0.0, []
    for layer in range(depth):
        c_in, c_out = norm(layer, "M_in"), norm(layer, "M_out")
        xi = 0.0
        for row in layers[layer]:
            c_v = norm(layer, "Vt", row["head"]) if row["head"] >= 0 else 0.0
            gamma = {"QK": 2 * c_v * c_out * c_in, "Vt": c_out * c_in, "M_in": c_out, "M_out": 1.0}[
                row["kind"]
            ]
            s = gamma * alphas[layer] * depth
            positive = row["sigma"][row["sigma"] > 0]
            values = []
            for p in grid:
                big_s = row["rank"] if p == 0 else math.fsum(positive**p)
                values.append(big_s ** (1 / (p + 2)) * s ** (p / (p + 2)) * n ** ((p + 1) / (p + 2)))
            best = int(np.argmin(values))
            leading.append(values[best])
            choices.append(Fraction(best, m))
            inner = {
                "QK": c_out * c_in * c_v * row["n21"],
                "Vt": c_out * c_in * row["n21"],
                "M_in": c_out * row["n21"],
                "M_out": row["n21"],
            }[row["kind"]]
            xi += inner ** (2 / 3)
        xi_total += alphas[layer] ** (2 / 3) * xi
    return {
        "ours": math.fsum(leading) + math.sqrt(depth),
        "edelman": (1 + xi_total) ** 1.5,
        "p": choices,
        "m": m,
    }


REFERENCE_ROUNDING = 1e-12
"""Relative bound on the float64 reference's own rounding error (a few hundred flops and float64 SVDs).

A certified ball can be far narrower than float64 resolution (p = 0 terms sqrt(N rank) are exact), so the
reference value is compared with the ball widened by this bound; the ball's own relative width is checked
separately against the acceptance bound 1e-10."""


def assert_certified_matches_reference(
    weights: TransformerWeights, max_relative_width: float = 1e-10
) -> None:
    """Every certified ball contains the reference float64 value (up to its rounding) and is narrow."""
    certified = certify_proxies(weights, SpectraOptions(certify_progress=False))
    reference = reference_proxies(weights)
    assert certified.m == reference["m"]
    for name in ("ours", "edelman"):
        ball, value = getattr(certified, name), reference[name]
        widened = ball + arb(0, REFERENCE_ROUNDING * abs(value))
        assert widened.contains(arb(value)), f"{name}: reference {value!r} not in {ball.str(20)}"
        assert float(2 * ball.rad() / abs(ball.mid())) < max_relative_width
    for contribution, p in zip(certified.matrices, reference["p"], strict=True):
        assert p in contribution.choice.candidates, (
            f"{contribution.spectrum.matrix.label}: reference p={p} not a candidate"
        )
    expected = reference["ours"] < reference["edelman"]
    assert ArbArithmetic().less(certified.ours, certified.edelman) in (expected, None)


def random_model(depth: int, n: int, heads: int, ffn: int, seed: int) -> TransformerWeights:
    """A model of Gaussian weights (standard deviation 0.3) rounded to float32, seeded."""
    rng = np.random.default_rng(seed)

    def w(rows: int, cols: int) -> np.ndarray:
        return (0.3 * rng.standard_normal((rows, cols))).astype(np.float32).astype(np.float64)

    layers = tuple(
        LayerWeights(w(n, n), w(n, n), w(n, n), w(n, n), w(ffn, n), w(n, ffn)) for _ in range(depth)
    )
    return TransformerWeights(layers, ModelShape(n, heads, heads, ffn), f"random-{seed}")
