"""proxies(): B_ours and B_Edelman on models whose every quantity is known by hand, shallow and very deep.

The model: N = 4, H = 2 heads (d_h = 2), F = 8, Wq = a I, Wk = b I, Wv = c I, Wo = d I, Win = e [I; 0],
Wout = f [I, 0]. Then QK_h = ab E_h and Vt_h = cd E_h (E_h the identity on the head's two coordinates),
M_in and M_out have four singular values e resp. f, and docs: proxies reduces to closed forms typed
below in mpmath, independently of theory.proxy.
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from numerics.bounds.assembled import assembled_bound
from numerics.bounds.proxies import default_grid_m, proxies
from numerics.loading.weights import LayerWeights, ModelShape, TransformerWeights
from numerics.spectra.model import SpectraOptions
from tests.helpers.diagonal_models import F, H, N, diagonal_model, layered_model
from tests.helpers.reference_proxies import reference_proxies
from theory.errors import InvalidArgument


def expected(depth: int, a, b, c, d, e, f, m: int):
    """(alphas, B_ours, B_Edelman, p_opt per kind per layer) by hand, in mpmath at 60 digits."""
    return expected_layers([(a, b, c, d, e, f)] * depth, m)


def expected_layers(params: list[tuple[float, ...]], m: int):
    """:func:`expected` for layers with their own (a, b, c, d, e, f): alpha_l = prod_{k > l} factor_k."""
    depth = len(params)
    with mpmath.workdps(60):
        per_layer = [tuple(map(mpmath.mpf, layer)) for layer in params]
        factors = [
            mpmath.mpf(113) / 100 * e * f * H * c * d * (1 + 4 * a * b) for a, b, c, d, e, f in per_layer
        ]
        alphas = [mpmath.fprod(factors[layer + 1 :]) for layer in range(depth)]
        total, xi_total, p_opts = mpmath.mpf(0), mpmath.mpf(0), []
        for layer in range(depth):
            a, b, c, d, e, f = per_layer[layer]
            # kind: (singular values, rank, gamma, (2,1) norm, Edelman weight of the (2,1) norm)
            kinds = {
                "QK": ([a * b] * 2, 2, 2 * c * d * f * e, 2 * a * b, f * e * c * d),
                "Vt": ([c * d] * 2, 2, f * e, 2 * c * d, f * e),
                "M_in": ([e] * 4, 4, f, 4 * e, f),
                "M_out": ([f] * 4, 4, mpmath.mpf(1), 4 * f, mpmath.mpf(1)),
            }
            count = {"QK": H, "Vt": H, "M_in": 1, "M_out": 1}
            xi, chosen = mpmath.mpf(0), {}
            for kind, (sigma, rank, gamma, n21, weight) in kinds.items():
                scale = gamma * alphas[layer] * depth
                values = []
                for k in range(2 * m + 1):
                    q = mpmath.mpf(k) / m
                    s_q = rank if k == 0 else mpmath.fsum(x**q for x in sigma)
                    values.append(s_q ** (1 / (q + 2)) * scale ** (q / (q + 2)) * N ** ((q + 1) / (q + 2)))
                best = min(range(len(values)), key=values.__getitem__)
                chosen[kind] = best / m
                total += count[kind] * values[best]
                xi += count[kind] * (weight * n21) ** (mpmath.mpf(2) / 3)
            p_opts.append(chosen)
            xi_total += alphas[layer] ** (mpmath.mpf(2) / 3) * xi
        ours = total + mpmath.sqrt(depth)
        edelman = (1 + xi_total) ** (mpmath.mpf(3) / 2)
    return alphas, ours, edelman, p_opts


def relative_error(x, y):
    with mpmath.workdps(60):
        return abs(x / y - 1)


@pytest.mark.parametrize(
    "params",
    # dyadic weights: every float64 product in the SVDs is exact, so 45 digits must agree
    [
        (1.0, 1.0, 1.0, 1.0, 1.0, 1.0),
        (0.5, 0.25, 0.125, 0.25, 0.375, 0.0625),
        (2.0, 1.5, 2**-6, 2**-5, 0.375, 0.125),
    ],
)
def test_shallow_model_matches_hand_values(params):
    depth, m = 3, 4
    report = proxies(diagonal_model(depth, *params), SpectraOptions(m=m))
    alphas, ours, edelman, p_opts = expected(depth, *params, m=m)
    assert report.num_layers == depth and report.hidden_size == N and report.num_heads == H and report.m == m
    assert len(report.matrices) == depth * (2 * H + 2)
    for got, want in zip(report.alphas, alphas, strict=True):
        assert relative_error(got, want) < 1e-45
    assert relative_error(report.ours, ours) < 1e-45
    assert relative_error(report.edelman, edelman) < 1e-45
    for row in report.matrices:
        assert float(row.p_opt) == p_opts[row.matrix.layer][row.matrix.kind.value]
    assert report.ours_float == pytest.approx(float(ours), rel=1e-15)


def test_distinct_layers_match_hand_values():
    # every layer different, so alpha_l = prod_{k > l} factor_k sees which layers enter (an off-by-one in
    # the layer index of the product, factor_l instead of factor_{l+1}, changes every alpha here)
    params = [
        (0.5, 0.25, 0.125, 0.25, 0.375, 0.0625),
        (2.0, 1.5, 2**-6, 2**-5, 0.375, 0.125),
        (1.0, 0.5, 0.75, 0.5, 1.25, 0.5),
    ]
    m = 4
    report = proxies(layered_model(params), SpectraOptions(m=m))
    alphas, ours, edelman, p_opts = expected_layers(params, m)
    assert len({mpmath.nstr(x, 20) for x in alphas}) == 3
    for got, want in zip(report.alphas, alphas, strict=True):
        assert relative_error(got, want) < 1e-45
    assert relative_error(report.ours, ours) < 1e-45
    assert relative_error(report.edelman, edelman) < 1e-45
    for row in report.matrices:
        assert float(row.p_opt) == p_opts[row.matrix.layer][row.matrix.kind.value]


def test_reference_sees_the_qk_sensitivity_where_qk_chooses_p_above_zero():
    # random layers with small attention norms: the QK matrices choose p > 0, so their C_p depends on
    # gamma_QK = 2 C2(Vt) C2(M_out) C2(M_in); compared with the independent plain-numpy reference
    rng = np.random.default_rng(3)
    n, heads, ffn = 8, 2, 16
    layers = tuple(
        LayerWeights(
            *(rng.standard_normal((n, n)) * scale for scale in (0.05, 0.05, 0.2, 0.2)),
            rng.standard_normal((ffn, n)) * 0.2,
            rng.standard_normal((n, ffn)) * 0.2,
        )
        for _ in range(3)
    )
    weights = TransformerWeights(layers, ModelShape(n, heads, heads, ffn), "random, small QK")
    report = proxies(weights)
    reference = reference_proxies(weights)
    qk = [row for row in reference["rows"] if row["kind"] == "QK"]
    assert all(row["p_opt"] > 0 for row in qk)
    assert report.m == reference["m"]
    assert report.ours_float == pytest.approx(reference["ours"], rel=1e-9)
    assert report.edelman_float == pytest.approx(reference["edelman"], rel=1e-9)
    for got, want in zip(report.matrices, reference["rows"], strict=True):
        assert float(got.p_opt) == want["p_opt"]
    for layer, alpha in enumerate(reference["alphas"]):
        assert float(report.alphas[layer]) == pytest.approx(alpha, rel=1e-9)


def test_some_matrices_choose_p_above_zero():
    # tiny weights make the scale small, so the Frobenius end of the grid wins for every matrix
    report = proxies(diagonal_model(2, *(2**-7,) * 6), SpectraOptions(m=3))
    _, ours, _, p_opts = expected(2, *(2**-7,) * 6, m=3)
    assert {float(row.p_opt) for row in report.matrices} == {2.0}
    assert all(set(layer.values()) == {2.0} for layer in p_opts)
    assert relative_error(report.ours, ours) < 1e-45


def test_too_deep_for_float64_is_finite_and_correct():
    # 80 layers, every spectral norm 10: alpha_0 = 92660^79 ~ 2e392 and B_Edelman beyond it overflow float64
    depth, params, m = 80, (10.0, 1.0, 10.0, 1.0, 10.0, 10.0), 2
    report = proxies(diagonal_model(depth, *params), SpectraOptions(m=m))
    alphas, ours, edelman, _ = expected(depth, *params, m=m)
    assert float(alphas[0]) == float("inf")  # the point of the test: float64 cannot hold it
    assert mpmath.isfinite(report.alphas[0]) and mpmath.isfinite(report.edelman)
    assert relative_error(report.alphas[0], alphas[0]) < 1e-40
    assert relative_error(report.edelman, edelman) < 1e-40
    assert relative_error(report.ours, ours) < 1e-40
    assert report.edelman_float == float("inf")


def test_default_grid_m_is_ceil_l_plus_ln_n():
    # m = ceil(L + ln N), docs: notation
    assert default_grid_m(2, 128) == 7
    assert default_grid_m(6, 384) == 12
    assert default_grid_m(12, 768) == 19
    assert proxies(diagonal_model(3, *(1.0,) * 6)).m == 5  # ceil(3 + ln 4)


def test_signature_records_method_grid_and_precision():
    report = proxies(diagonal_model(1, *(1.0,) * 6), SpectraOptions(m=3, dps=30))
    assert "grid:m=3" in report.signature
    assert "eval:mpmath-dps=30" in report.signature
    assert "svd:f64-lapack" in report.signature
    assert report.dps == 30


def test_errors_name_the_matrix_and_bad_m_fails_first():
    layer = diagonal_model(1, *(1.0,) * 6).layers[0]
    pruned = LayerWeights(layer.wq, layer.wk, layer.wv, layer.wo, np.zeros((F, N)), layer.w_out)
    weights = TransformerWeights((layer, pruned), ModelShape(N, H, H, F), "pruned")
    proxies(weights)  # a pruned (zero) matrix is bounded with rank 0, not refused
    with pytest.raises(InvalidArgument, match="m=0"):
        proxies(weights, SpectraOptions(m=0))
    with pytest.raises(InvalidArgument, match="dps"):
        proxies(weights, SpectraOptions(dps=10))


def test_assembled_bound_by_hand_on_a_one_layer_model():
    """GAP_TERM of theory.assembled typed out for L = 1, all norms 1, a margin so small that p = 0 wins."""
    n, delta, margin, tokens = 1000, 0.05, 1e-6, 8
    result = assembled_bound(diagonal_model(1, *(1.0,) * 6), n=n, delta=delta, margin=margin, T=tokens)
    assert result.label == "reconstructed Theorem 3.1"
    assert {row.p for row in result.matrices} == {0}
    # K = L (2H + 2) + 1 = 7 (the read-out w, here the class's worst case e_1: norm 1, rank 1, N = 4);
    # m = ceil(1 + ln 4) = 3; N_i = 4 for heads and w, 8 for the feed-forward matrices
    assert (result.matrix_count, result.m, result.max_dimension) == (7, 3, 8)
    # p = 0: 3 N_i Shat(rank); ranks 2 (heads), 4 (feed-forward) and 1 (w) are powers of two already
    assert result.sigma == 4 * 3 * 4 * 2 + 2 * 3 * 8 * 4 + 3 * 4 * 1
    with mpmath.workdps(60):
        peel = lambda j: mpmath.log(mpmath.mpf(3) / 2 * (abs(j) + 1) * (abs(j) + 2))  # noqa: E731
        # spectral shells j = 0 (norm 1, w included); Schatten shells j = 1 (rank 2), 2 (rank 4), 0 (w)
        p_cost = 8 * peel(0) + 4 * peel(1) + 2 * peel(2)
        # C b gamma alpha = L_phi for QK (softmax constant 1: 1 * C_V * L_phi), Vt and M_in; 1 for M_out, w
        sensitivity = mpmath.mpf(113) / 100
        lam = mpmath.log(2 * n * tokens * 8 * (16 * mpmath.sqrt(n) * 7 * 8 * sensitivity / margin + 3) + 1)
        gap = (8 + 24 * mpmath.sqrt(mpmath.log(2)) + 48 * mpmath.sqrt(lam * 300)) / mpmath.sqrt(
            n
        ) + 3 * mpmath.sqrt((mpmath.log(2 / mpmath.mpf(delta)) + 7 * mpmath.log(7) + p_cost) / (2 * n))
        assert relative_error(result.peel_cost, p_cost) < 1e-45
        assert relative_error(result.sensitivity, sensitivity) < 1e-45
        assert relative_error(result.gap, gap) < 1e-40
        assert relative_error(result.bound(0.25), gap + mpmath.mpf(0.25)) < 1e-40


def test_assembled_bound_reuses_a_report_and_shrinks_with_more_samples():
    report = proxies(diagonal_model(2, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5), SpectraOptions(m=4))
    few = assembled_bound(report, n=100, delta=0.1, margin=0.5, T=4)
    many = assembled_bound(report, n=10_000, delta=0.1, margin=0.5, T=4)
    assert few.m == many.m == 4
    assert many.gap < few.gap
    assert many.sigma == few.sigma  # Sigma does not depend on n


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"n": 0}, "n=0"),
        ({"T": 1.5}, "T=1.5"),
        ({"n": 1, "T": 1}, "n \\* T"),
        ({"delta": 1.0}, "delta"),
        ({"margin": 0.0}, "margin"),
        ({"margin": 2.0}, "margin"),
    ],
)
def test_assembled_bound_bad_inputs(kwargs, message):
    arguments = {"n": 100, "delta": 0.1, "margin": 0.5, "T": 4, **kwargs}
    with pytest.raises(InvalidArgument, match=message):
        assembled_bound(diagonal_model(1, *(1.0,) * 6), **arguments)
    with pytest.raises(InvalidArgument, match="empirical_ramp_risk"):
        assembled_bound(diagonal_model(1, *(1.0,) * 6), n=100, delta=0.1, margin=0.5, T=4).bound(1.5)
