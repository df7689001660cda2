"""Figures of a sweep: both proxies and the post hoc p profile against training step or model size.

Drawn from the rows of :func:`numerics.batch.sweep.sweep` (matplotlib, Agg backend, ``specbound[report]``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from paper_checks.figures import (
    KIND_ORDER,
    SERIES_DASHES,
    SERIES_MARKERS,
    _pyplot,
    plain_log_ticks,
    save_figure,
)


def sweep_axis(rows: Sequence[dict[str, Any]]) -> tuple[str, list[float]]:
    """The x axis: the training step when every checkpoint's name has one, else the parameter count.

    >>> sweep_axis([{"step": 500, "parameters": 9}, {"step": 100, "parameters": 9}])
    ('training step (from the checkpoint name)', [500.0, 100.0])
    >>> sweep_axis([{"step": None, "parameters": 9}])[0]
    'parameters of the bound matrices'
    """
    if all(row["step"] is not None for row in rows):
        return "training step (from the checkpoint name)", [float(row["step"]) for row in rows]
    return "parameters of the bound matrices", [float(row["parameters"]) for row in rows]


def point_label(row: dict[str, Any]) -> str:
    """What a point of a sweep figure is: its checkpoint's name (the last part of its path).

    >>> point_label({"model": "runs/bert/checkpoint-500"})
    'checkpoint-500'
    """
    return Path(str(row["model"])).name or str(row["model"])


def _label_points(ax: Any, xs: Sequence[float], ys: Sequence[float | None], labels: Sequence[str]) -> None:
    """Write each point's label beside it (a point without a value, such as B_Edelman beyond float64, is
    skipped)."""
    for x, y, label in zip(xs, ys, labels, strict=True):
        if y is not None:
            ax.annotate(label, (x, y), textcoords="offset points", xytext=(4, 4), fontsize=7)


def sweep_figures(rows: Sequence[dict[str, Any]], directory: Path) -> list[Path]:
    """proxies.png (log10 B_ours and log10 B_Edelman) and p_opt.png (mean p_opt per kind) against x, each
    also as PDF and SVG, written atomically (:func:`paper_checks.figures.save_figure`). Checkpoints of one
    training run (x the step) are joined into curves; other checkpoints (x the parameter count) stay
    separate, labelled points (two models are never one curve)."""
    plt = _pyplot()
    directory.mkdir(parents=True, exist_ok=True)
    label, x = sweep_axis(rows)
    order = sorted(range(len(rows)), key=lambda i: x[i])
    xs = [x[i] for i in order]
    run = label.startswith("training")  # the checkpoints of one training run: a curve; else separate points
    scale = "linear" if run else "log"
    figure, ax = plt.subplots(figsize=(6, 4))
    for key, name in (("log10_B_ours", "B_ours"), ("log10_B_Edelman", "B_Edelman")):
        ys = [rows[i][key] for i in order]
        ax.plot(xs, ys, marker="o", linestyle="-" if run else "none", label=name)
        _label_points(ax, xs, ys, [point_label(rows[i]) for i in order])
    ax.set_xscale(scale)
    if scale == "log":
        plain_log_ticks(ax.xaxis, (min(xs), max(xs)))
    ax.margins(x=0.15)  # room for the last point's label
    ax.set_xlabel(label)
    ax.set_ylabel("log10 of the proxy")
    ax.set_title(f"Proxies over {len(rows)} checkpoints")
    ax.legend()
    figure.tight_layout()
    proxies_path = directory / "proxies.png"
    save_figure(figure, proxies_path)
    figure, ax = plt.subplots(figsize=(6, 4))
    for index, kind in enumerate(KIND_ORDER):
        # kinds with equal profiles (QK and Vt both at p = 0) stay visible: each its own marker and dash,
        # the earlier ones larger and hollow beneath the later ones
        ax.plot(
            xs,
            [rows[i][f"mean_p_opt_{kind}"] for i in order],
            marker=SERIES_MARKERS[index],
            markersize=11 - 2 * index,
            markerfacecolor="none",
            linestyle=SERIES_DASHES[index] if run else "none",
            linewidth=2.4 - 0.4 * index,
            label=kind,
        )
    overall = [rows[i]["mean_p_opt"] for i in order]
    ax.plot(xs, overall, color="k", linestyle="--" if run else "none", marker="o", label="all matrices")
    _label_points(ax, xs, overall, [point_label(rows[i]) for i in order])
    ax.set_xscale(scale)
    if scale == "log":
        plain_log_ticks(ax.xaxis, (min(xs), max(xs)))
    ax.margins(x=0.15)
    ax.set_xlabel(label)
    ax.set_ylabel("mean post hoc p (grid minimiser)")
    ax.set_ylim(-0.05, 2.05)
    ax.set_title("Post hoc p profile per matrix kind")
    ax.legend(fontsize=8)
    figure.tight_layout()
    profile_path = directory / "p_opt.png"
    save_figure(figure, profile_path)
    return [proxies_path, profile_path]
