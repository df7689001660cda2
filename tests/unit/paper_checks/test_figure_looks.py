"""The figures are readable: series with equal values stay apart in the scaling figures, the attention
panels of the singular-value figure span their d_h indices (not N, which left them 90% empty), and every
point of a sweep figure names its checkpoint."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("matplotlib", reason="figures need matplotlib (specbound[report])")

from paper_checks import figures, plot_data, sweep_figures
from paper_checks.scaling import ScalingPoint


@pytest.fixture
def drawn(monkeypatch):
    """The figures handed to save_figure (kept open for inspection instead of written)."""
    kept: list = []
    monkeypatch.setattr(figures, "save_figure", lambda figure, path: kept.append(figure))
    monkeypatch.setattr(sweep_figures, "save_figure", lambda figure, path: kept.append(figure))
    yield kept
    import matplotlib.pyplot as plt

    for figure in kept:
        plt.close(figure)


def test_equal_depth_series_are_drawn_apart(drawn, tmp_path):
    points = [
        ScalingPoint(
            f"{family} L{layers}", "synthetic", family, layers, 8, float(np.log(layers)), 1.0 * layers
        )
        for family in ("grid a", "grid b")
        for layers in (1, 2, 3)
    ]  # two series with exactly the same values
    figures.proxy_scaling(points, "L", tmp_path / "depth.png")
    lines = drawn[0].axes[0].get_lines()
    assert len(lines) == 2
    assert lines[0].get_marker() != lines[1].get_marker()
    assert all(a < b for a, b in zip(lines[0].get_xdata(), lines[1].get_xdata(), strict=True))
    assert np.allclose(lines[0].get_ydata(), lines[1].get_ydata())  # only the x position is dodged
    assert len(drawn[0].axes[0].get_legend().get_texts()) == 2  # each panel has its legend


def test_attention_panels_span_their_head_dimension(drawn, tmp_path):
    rng = np.random.default_rng(0)
    curves = [
        plot_data.SpectrumCurve(kind, 0, 0, np.sort(rng.uniform(0.1, 1, size))[::-1])
        for kind, size in (("QK", 4), ("Vt", 4), ("M_in", 16), ("M_out", 16))
    ]
    figures.singular_value_decay(curves, head_dim=4, model="tiny", path=tmp_path / "sv.png")
    qk, vt, m_in, _ = drawn[0].axes
    assert qk.get_xlim()[1] <= 4.5 and vt.get_xlim()[1] <= 4.5
    assert m_in.get_xlim()[1] >= 16


def test_every_sweep_point_names_its_checkpoint(drawn, tmp_path):
    rows = [
        {
            "model": f"runs/checkpoint-{step}",
            "step": step,
            "parameters": 10,
            "log10_B_ours": 2.0,
            "log10_B_Edelman": None if step == 300 else 11.0,
            "mean_p_opt": 0.0,
            **{f"mean_p_opt_{kind}": 0.0 for kind in figures.KIND_ORDER},
        }
        for step in (100, 200, 300)
    ]
    sweep_figures.sweep_figures(rows, tmp_path)
    proxies_axes, profile_axes = drawn[0].axes[0], drawn[1].axes[0]
    labels = [text.get_text() for text in proxies_axes.texts]
    every, with_edelman = (
        ["checkpoint-100", "checkpoint-200", "checkpoint-300"],
        ["checkpoint-100", "checkpoint-200"],
    )
    assert sorted(labels) == sorted(every + with_edelman)  # B_Edelman beyond float64 at 300: no point
    assert {text.get_text() for text in profile_axes.texts} == {f"checkpoint-{s}" for s in (100, 200, 300)}


def test_sweep_joins_one_run_s_steps_but_never_two_models(drawn, tmp_path):
    def row(model, step, parameters):
        return {
            "model": model,
            "step": step,
            "parameters": parameters,
            "log10_B_ours": 2.0,
            "log10_B_Edelman": 11.0,
            "mean_p_opt": 0.0,
            **{f"mean_p_opt_{kind}": 0.0 for kind in figures.KIND_ORDER},
        }

    sweep_figures.sweep_figures(
        [row("run/checkpoint-100", 100, 10), row("run/checkpoint-200", 200, 10)], tmp_path
    )
    sweep_figures.sweep_figures([row("minilm-l3", None, 5e6), row("minilm-l6", None, 1e7)], tmp_path)
    run_lines = drawn[0].axes[0].get_lines() + drawn[1].axes[0].get_lines()
    model_lines = drawn[2].axes[0].get_lines() + drawn[3].axes[0].get_lines()
    assert all(line.get_linestyle() != "None" for line in run_lines)  # one run's steps: curves
    assert all(line.get_linestyle() == "None" for line in model_lines)  # two models: points only
    kinds = {line.get_label(): line for line in drawn[1].axes[0].get_lines()}
    assert kinds["QK"].get_marker() != kinds["Vt"].get_marker()  # equal profiles stay apart
    assert kinds["QK"].get_markersize() > kinds["Vt"].get_markersize()
