"""The figures of ``specbound compare --figures DIR``: every row over depth, on the layer prefixes of one
checkpoint (its first l layers, l = 1..L); with ``--synthetic``, every row over depth and over width on the
quick synthetic grid (models trained at each (L, N), :data:`paper_checks.scaling.QUICK_GRID`). Gaps and
proxies in two panels, log y (matplotlib, ``specbound[report]``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FIGURE = "compare_depth.png"
GRID_FIGURES = {"depth": "compare_grid_depth.png", "width": "compare_grid_width.png"}
"""The grid figure of each axis: the rows against depth L at fixed width, against width N at fixed depth."""

_SIZE = {"depth": "num_layers", "width": "hidden_size"}
_OTHER = {"depth": "width", "width": "depth"}


@dataclass(frozen=True)
class Lines:
    """What one figure draws: x values, and per row name its values (gaps and proxies apart), in row order."""

    xs: tuple[int, ...]
    gaps: dict[str, tuple[float, ...]]
    proxies: dict[str, tuple[float, ...]]


def lines(results: Sequence[Any], xs: Sequence[int]) -> Lines:
    """Each row's gap (a gap row) or complexity (a proxy row) across ``results``
    (:class:`numerics.bounds.comparison.Comparison`, one per x, in the order of ``xs``)."""
    names = [row.name for row in results[0].rows]
    gaps = {
        n: tuple(float(r.row(n).gap) for r in results) for n in names if results[0].row(n).gap is not None
    }
    proxies = {n: tuple(float(r.row(n).complexity) for r in results) for n in names if n not in gaps}
    return Lines(tuple(xs), gaps, proxies)


def grid_lines(results: Sequence[Any], axis: str, fixed: int) -> Lines:
    """The rows of the grid models against ``axis`` ("depth": L, "width": N) with the other axis at
    ``fixed``; ``results`` are the Comparisons of every grid model, in any order."""
    chosen = sorted(
        (r for r in results if getattr(r, _SIZE[_OTHER[axis]]) == fixed),
        key=lambda r: getattr(r, _SIZE[axis]),
    )
    return lines(chosen, [getattr(r, _SIZE[axis]) for r in chosen])


def _draw(data: Lines, first: Any, xlabel: str, title: str, path: Path, log_x: bool = False) -> None:
    """Left: each gap row against x (log y; log2 x with ``log_x``); right: each proxy row (complexities)."""
    from paper_checks.figures import SERIES_MARKERS, _pyplot, save_figure

    plt = _pyplot()
    figure, (gaps, proxies) = plt.subplots(1, 2, figsize=(11, 4.5))
    for panel, series in ((gaps, data.gaps), (proxies, data.proxies)):
        for index, (name, values) in enumerate(series.items()):
            panel.plot(data.xs, values, marker=SERIES_MARKERS[index % len(SERIES_MARKERS)], label=name)
        panel.set_yscale("log")
        if log_x:
            panel.set_xscale("log", base=2)
            panel.set_xticks([], minor=True)
        panel.set_xlabel(xlabel)
        panel.set_xticks(data.xs, [str(x) for x in data.xs])
        panel.legend(fontsize=7)
    gaps.set_ylabel(
        f"gap at n = {first.n}, delta = {first.delta}, margin = {first.margin}, T = {first.tokens}"
    )
    proxies.set_ylabel("proxy (a complexity, not a gap)")
    figure.suptitle(title)
    figure.tight_layout()
    save_figure(figure, path)


def bounds_over_depth(results: Sequence[Any], model: str, path: Path) -> str:
    """Every row against the prefix depth l; ``results`` are the Comparisons of the prefixes, by increasing
    depth. Returns the caption."""
    depths = [r.num_layers for r in results]
    _draw(
        lines(results, depths),
        results[0],
        "depth l (the checkpoint's first l layers)",
        f"every bound over depth on the layer prefixes of {model}",
        path,
    )
    return (
        f"Every bound of `specbound compare` on the first l layers of {model} (l = 1..{depths[-1]}): left, "
        "the generalization gaps on one footing (log scale); right, the authors' proxies and their variants."
    )


def bounds_over_grid(results: Sequence[Any], axis: str, fixed: int, path: Path) -> str:
    """Every row of the synthetic grid models against ``axis`` at the other axis ``fixed``
    (:func:`grid_lines`; width on a log2 axis). Returns the caption."""
    data = grid_lines(results, axis, fixed)
    held = f"{'N' if axis == 'depth' else 'L'} = {fixed}"
    xlabel = "depth L (layers)" if axis == "depth" else "width N (hidden size)"
    title = f"every bound over {axis} on the synthetic grid at {held}"
    _draw(data, results[0], xlabel, title, path, log_x=axis == "width")
    return (
        f"Every bound of `specbound compare` on the synthetic grid's models trained at {axis} "
        f"{', '.join(map(str, data.xs))} and {held}: left, the generalization gaps on one footing "
        "(log scale); right, the authors' proxies and their variants."
    )
