"""The figure of ``specbound compare --figures DIR``: every row over depth, on the layer prefixes of one
checkpoint (its first l layers, l = 1..L), gaps and proxies in two panels (matplotlib, ``specbound[report]``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

FIGURE = "compare_depth.png"


def bounds_over_depth(results: Sequence[Any], model: str, path: Path) -> str:
    """Left: each gap row against the prefix depth l (log y); right: each proxy row (complexities, log y).
    ``results`` are :class:`numerics.bounds.comparison.Comparison` of the prefixes, by increasing depth.
    Returns the caption."""
    from paper_checks.figures import SERIES_MARKERS, _pyplot, save_figure

    plt = _pyplot()
    figure, (gaps, proxies) = plt.subplots(1, 2, figsize=(11, 4.5))
    depths = [r.num_layers for r in results]
    for panel, wanted in ((gaps, True), (proxies, False)):
        rows = [row.name for row in results[0].rows if (row.gap is not None) == wanted]
        for index, name in enumerate(rows):
            values = [float(r.row(name).gap if wanted else r.row(name).complexity) for r in results]
            panel.plot(depths, values, marker=SERIES_MARKERS[index % len(SERIES_MARKERS)], label=name)
        panel.set_yscale("log")
        panel.set_xlabel("depth l (the checkpoint's first l layers)")
        panel.set_xticks(depths)
        panel.legend(fontsize=7)
    first = results[0]
    gaps.set_ylabel(
        f"gap at n = {first.n}, delta = {first.delta}, margin = {first.margin}, T = {first.tokens}"
    )
    proxies.set_ylabel("proxy (a complexity, not a gap)")
    figure.suptitle(f"every bound over depth on the layer prefixes of {model}")
    figure.tight_layout()
    save_figure(figure, path)
    return (
        f"Every bound of `specbound compare` on the first l layers of {model} (l = 1..{depths[-1]}): left, "
        "the generalization gaps on one footing (log scale); right, the authors' proxies and their variants."
    )
