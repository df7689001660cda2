"""The scaling figure: two panels (B_ours, B_Edelman), one colour per series shared by both panels, a
legend naming every series, and vector copies (PDF, SVG) beside the PNG."""

from __future__ import annotations

import math

import pytest

from paper_checks.scaling import ScalingPoint

pytest.importorskip("matplotlib", reason="figures need matplotlib (specbound[report])")


def _points() -> list[ScalingPoint]:
    real = [
        ScalingPoint(f"r{d}", "truncated", "minilm-l6", d, 384, math.log(3e3 * d), 11.0 * d)
        for d in (1, 2, 3)
    ]
    user = [ScalingPoint(f"u{d}", "user", "mine", d, 256, math.log(8e2 * d), 2.0 * d) for d in (2, 4)]
    return real + user


def test_scaling_figure_has_two_panels_one_colour_per_series_and_vector_copies(tmp_path, monkeypatch):
    import matplotlib.pyplot as plt

    from paper_checks import figures

    kept = []
    monkeypatch.setattr(plt, "close", kept.append)  # keep the figure to inspect it
    caption = figures.proxy_scaling(_points(), "L", tmp_path / "depth.png")
    for suffix in (".png", ".pdf", ".svg"):
        assert (tmp_path / f"depth{suffix}").stat().st_size > 1000
    assert (tmp_path / "depth.pdf").read_bytes()[:4] == b"%PDF"
    assert b"<svg" in (tmp_path / "depth.svg").read_bytes()[:500]
    (figure,) = kept
    ours, edelman = figure.axes[:2]
    assert (
        ours.get_title() == "B_ours against layers L" and edelman.get_title() == "B_Edelman against layers L"
    )
    colours = [tuple(line.get_color()) for line in ours.get_lines()]
    assert len(set(colours)) == 2 == len(colours)  # one colour per series
    assert colours == [tuple(line.get_color()) for line in edelman.get_lines()]  # the same in both panels
    legend = [text.get_text() for text in edelman.get_legend().get_texts()]
    # sorted by source, each with its own log-log slope: "mine" has ln B_Edelman = 2 L at L = 2, 4, so
    # (8 - 4) / ln 2; B_ours = 800 L grows exactly like L^1
    assert legend[0] == f"mine, N=256: ~L^{4 / math.log(2):.2f}" and legend[0].endswith("5.77")
    assert legend[1].startswith("minilm-l6, N=384: ~L^")
    assert ours.get_legend().get_texts()[0].get_text() == "mine, N=256: ~L^1.00"
    # each series starts at 1: the user's series stays readable next to a 1e14-fold growing baseline
    assert [line.get_ydata()[0] for line in ours.get_lines()] == pytest.approx([1.0, 1.0])
    assert "2 of them" in caption
