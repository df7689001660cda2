"""An independent plain-numpy implementation of the BERT proxies B_ours and B_Edelman, for tests only.

It re-implements the formulas from their statement (dense products, np.linalg.svd and loops, in float64:
depth factors of the models it is used on stay far below float64's range), sharing no code with numerics
or theory. One deliberate reading: a per-head product has rank <= d_h exactly, so only its top d_h
singular values enter S_p (a dense SVD returns rounding noise for the rest; the toolkit's thin factors
give exact zeros). Used by tests/slow/test_real_proxies.py, tests/unit/numerics/test_proxies.py and
tests/unit/project/test_readme.py.

The proxies: alpha_l = prod_{k>l} 1.13 C2(M_in^k) C2(M_out^k) sum_h C2(Vt_h^k)(1 + 4 C2(QK_h^k));
gamma = 2 C2(Vt_h) C2(M_out) C2(M_in) (QK_h), C2(M_out) C2(M_in) (Vt_h), C2(M_out) (M_in), 1 (M_out);
C_p = S_p^{1/(p+2)} (gamma alpha_l L)^{p/(p+2)} N^{(p+1)/(p+2)} minimised over p in {0, 1/m, ..., 2},
m = ceil(L + ln N); B_ours = sum of the minima + sqrt(L); B_Edelman = (1 + sum_l alpha_l^{2/3} xi_l)^{3/2}.
"""

from __future__ import annotations

import math

import numpy as np

L_PHI = 1.13


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
        factors.append(L_PHI * norm(index, "M_in") * norm(index, "M_out") * head_sum)
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
