"""The grid figures of ``specbound compare --synthetic --figures``: each plotted point is the row that
``compare_bounds`` gives on that model alone, and the PNGs are written."""

from __future__ import annotations

import numpy as np
import pytest

from numerics.loading.weights import LayerWeights, ModelShape, TransformerWeights

FOOTING = {"n": 64, "delta": 0.1, "margin": 0.25, "T": 8}
SIZES = [(depth, width) for depth in (1, 2) for width in (4, 8)]


def _weights(depth: int, width: int) -> TransformerWeights:
    rng = np.random.default_rng(10 * depth + width)

    def w(rows: int, cols: int) -> np.ndarray:
        return 0.3 * rng.standard_normal((rows, cols))

    layers = tuple(
        LayerWeights(
            w(width, width),
            w(width, width),
            w(width, width),
            w(width, width),
            w(2 * width, width),
            w(width, 2 * width),
        )
        for _ in range(depth)
    )
    return TransformerWeights(layers, ModelShape(width, 2, 2, 2 * width), f"tiny L{depth}-N{width}")


@pytest.fixture(scope="module")
def results():
    from numerics.bounds.comparison import compare_bounds

    return [compare_bounds(_weights(*size), **FOOTING) for size in reversed(SIZES)]  # any order


@pytest.mark.parametrize(("axis", "fixed"), [("depth", 8), ("width", 1)])
def test_each_point_is_that_models_own_row(results, axis, fixed):
    from numerics.bounds.comparison import compare_bounds
    from paper_checks.compare_figure import grid_lines

    data = grid_lines(results, axis, fixed)
    sizes = [(x, fixed) if axis == "depth" else (fixed, x) for x in data.xs]
    assert data.xs == ((1, 2) if axis == "depth" else (4, 8))
    assert len(data.gaps) == 5 and len(data.proxies) == 5
    for i, size in enumerate(sizes):
        alone = compare_bounds(_weights(*size), **FOOTING)  # recomputed on that one model
        for name, values in data.gaps.items():
            assert values[i] == float(alone.row(name).gap)
        for name, values in data.proxies.items():
            assert values[i] == float(alone.row(name).complexity)
    assert list(data.gaps) + list(data.proxies) == [row.name for row in results[0].rows]


def test_help_names_the_quick_grid(capsys):
    from paper_checks.cli import main
    from paper_checks.scaling import QUICK_GRID

    with pytest.raises(SystemExit):
        main(["compare", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    depths, widths = QUICK_GRID.depths, QUICK_GRID.widths
    assert f"L = {depths[0]}..{depths[-1]}, N = {', '.join(map(str, widths))}" in text
    assert (
        f"over depth at N = {widths[len(widths) // 2]} and over width at L = {depths[len(depths) // 2]}"
        in text
    )
    assert f"n = {QUICK_GRID.n_train} unless --n" in text


@pytest.mark.slow
def test_grid_figures_are_written(tmp_path, capsys):
    pytest.importorskip("torch")
    pytest.importorskip("matplotlib")
    from paper_checks.cli import main

    assert main(["compare", "--synthetic", "--figures", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        f"compare_grid_{axis}.{suffix}" for axis in ("depth", "width") for suffix in ("pdf", "png", "svg")
    )
    for axis in ("depth", "width"):
        png = (tmp_path / f"compare_grid_{axis}.png").read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000
    out = capsys.readouterr().out
    assert "trained at depth 1, 2, 3 and N = 16" in out and "trained at width 8, 16, 32 and L = 2" in out
    # a second run refuses to replace the figures without --force (exit 2, one line)
    assert main(["compare", "--synthetic", "--figures", str(tmp_path)]) == 2
