"""The report's figures as PNG, PDF and SVG (matplotlib, Agg backend, imported lazily: ``specbound[report]``).

Each function draws one figure from numbers computed elsewhere (numerics, the scaling study), saves it
at ``path`` (PNG) and beside it as vector PDF and SVG (:data:`~paper_checks.output_files.FIGURE_SUFFIXES`,
for a paper), and returns its caption, which states the axes, the normalisation and what each curve is.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from paper_checks.output_files import FIGURE_SUFFIXES, atomic_path
from paper_checks.plot_data import ContributionCurve, SpectrumCurve
from paper_checks.scaling import AXES, ScalingPoint, fit_exponent
from theory.errors import require
from theory.kinds import MatrixKind

KIND_ORDER = tuple(MatrixKind)
"""The panels of a per-kind figure, in the kinds' order: QK, Vt, M_in, M_out."""

SERIES_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
SERIES_DASHES = ("-", "--", "-.", ":", (0, (5, 1, 1, 1)))
"""Marker and dash of the i-th series of a scaling figure (with its tab10 colour)."""
DODGE = 0.012
"""Series i of a scaling figure is drawn at x (1 + DODGE (i - centre)): a few percent sideways on the log
axis, so series with equal values (B_ours of every series that takes p = 0 is exactly proportional to L)
stay apart; the ticks stay at the true sizes."""


def _pyplot() -> Any:
    require("matplotlib", purpose="drawing figures").use("Agg")
    return require("matplotlib.pyplot", purpose="drawing figures")


def _layer_colours(plt: Any, count: int) -> Any:
    """One distinct colour per layer: tab10 up to 10 layers, else a dark-to-light viridis range (never
    the pale yellow end, which vanishes on white)."""
    if count <= 10:
        return plt.cm.tab10(np.arange(max(count, 1)))
    return plt.cm.viridis(np.linspace(0, 0.8, count))


def save_figure(figure: Any, path: Path) -> None:
    """``path`` as a PNG and, beside it, the same figure as PDF and SVG, each written atomically (a
    temporary file renamed into place); then free the figure."""
    plt = _pyplot()

    try:
        for target in (path.with_suffix(suffix) for suffix in FIGURE_SUFFIXES):
            with atomic_path(target) as temporary:
                figure.savefig(temporary, format=target.suffix[1:], dpi=150)
    finally:
        plt.close(figure)


def singular_value_decay(curves: Sequence[SpectrumCurve], head_dim: int, model: str, path: Path) -> str:
    """Singular values against index, one panel per matrix kind, log y; returns the caption."""
    plt = _pyplot()
    figure, axes = plt.subplots(
        1, 4, figsize=(16, 4), sharey=True, gridspec_kw={"width_ratios": (1, 1, 2, 2)}
    )  # the attention panels span their d_h indices, the feed-forward ones all N: no panel is mostly empty
    layers = sorted({c.layer for c in curves})
    colours = _layer_colours(plt, len(layers))
    for ax, kind in zip(axes, KIND_ORDER, strict=True):
        labelled: set[int] = set()
        for curve in (c for c in curves if c.kind == kind):
            values = curve.values[curve.values > 0]
            colour = colours[layers.index(curve.layer)]
            label = f"layer {curve.layer}" if curve.layer not in labelled else None
            labelled.add(curve.layer)
            ax.semilogy(np.arange(1, values.size + 1), values, color=colour, lw=0.8, alpha=0.8, label=label)
        if kind.per_head:
            ax.axvline(head_dim, color="red", ls="--", lw=1, label=f"d_h = {head_dim}")
            ax.set_xlim(0, head_dim * 1.1)
        title = f"{kind} (per head; sigma_i = 0 for i > d_h)" if kind.per_head else kind
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("index i")
        ax.legend(fontsize=7)
    axes[0].set_ylabel("singular value sigma_i (log scale)")
    figure.suptitle(f"Singular-value decay, {model}, layers {layers[0]}-{layers[-1]}")
    figure.tight_layout()
    save_figure(figure, path)
    return (
        f"Singular values sigma_i of QK_h, Vt_h (every head), M_in and M_out against their index i in layers "
        f"{layers[0]}-{layers[-1]} of {model}; log y axis, raw (unnormalised) values. QK_h and Vt_h are "
        f"products of thin factors: they have exactly d_h = {head_dim} nonzero singular values (the rest are "
        "exact zeros, not drawn on the log axis); the red line marks d_h. M_in and M_out are full rank."
    )


def contribution_profiles(curves: Sequence[ContributionCurve], model: str, path: Path) -> str:
    """C_p / C_0 against p, one panel per matrix kind, chosen p marked; returns the caption."""
    plt = _pyplot()
    figure, axes = plt.subplots(1, 4, figsize=(16, 4), sharey=True)
    layers = sorted({c.layer for c in curves})
    colours = _layer_colours(plt, len(layers))
    for ax, kind in zip(axes, KIND_ORDER, strict=True):
        labelled: set[int] = set()
        for curve in (c for c in curves if c.kind == kind):
            ratio = np.array(curve.values) / curve.values[0]
            label = (
                f"layer {curve.layer}" if curve.layer not in labelled and kind is MatrixKind.M_IN else None
            )
            labelled.add(curve.layer)
            colour = colours[layers.index(curve.layer)]
            ax.semilogy(curve.ps, ratio, color=colour, lw=0.7, alpha=0.7, label=label)
            chosen = curve.ps.index(curve.p_chosen)
            ax.plot([curve.p_chosen], [ratio[chosen]], "kx", ms=5)
        ax.axhline(1.0, color="grey", lw=0.5)
        ax.set_title(kind)
        ax.set_xlabel("Schatten index p (grid P_m)")
    axes[0].set_ylabel("C_p / C_0 (log scale)")
    axes[0].plot([], [], "kx", label="chosen p (grid minimiser)")
    axes[0].legend(fontsize=7)
    axes[2].legend(fontsize=7)
    figure.suptitle(f"Each matrix's contribution against p, normalised at p = 0, {model}")
    figure.tight_layout()
    save_figure(figure, path)
    return (
        f"Contribution C_p of every matrix of {model} (one line per head for QK_h and Vt_h, per layer "
        "for M_in and M_out; colour = layer) on the post hoc grid P_m, divided by its value "
        "C_0 = sqrt(N rank) at p = 0; "
        "log y axis. A cross marks the p each matrix gets (the grid minimiser); a curve above 1 everywhere "
        "means p = 0."
    )


def _tick(value: float, _position: object = None) -> str:
    """A log axis's tick label in plain digits (never 1.4x10^0).

    >>> [_tick(v) for v in (1.4, 2, 100, 1e5, 1e23)]
    ['1.4', '2', '100', '1e+05', '1e+23']
    """
    return f"{value:g}" if 1e-3 <= value < 1e4 else f"{value:.3g}"


def plain_log_ticks(axis: Any, limits: tuple[float, float]) -> None:
    """Label a log ``axis`` (matplotlib's x or y axis, with data ``limits``) in plain digits (:func:`_tick`);
    when it spans less than a decade its minor ticks carry the only labels, so they are labelled too."""
    ticker = require("matplotlib.ticker", purpose="drawing figures")
    low, high = limits
    narrow = low > 0 and high / low < 10
    axis.set_major_formatter(ticker.FuncFormatter(_tick))
    axis.set_minor_formatter(ticker.FuncFormatter(_tick) if narrow else ticker.NullFormatter())


def proxy_scaling(points: Sequence[ScalingPoint], axis: str, path: Path) -> str:
    """B_ours and B_Edelman against L or N in two panels, one colour per series, each series normalised
    at its smallest model; log-log axes. Returns the caption."""
    plt = _pyplot()
    ticker = require("matplotlib.ticker", purpose="drawing figures")
    NullFormatter, ScalarFormatter = ticker.NullFormatter, ticker.ScalarFormatter

    size = (lambda q: q.layers) if axis == "L" else (lambda q: q.width)
    series: dict[tuple[str, int], list[ScalingPoint]] = {}
    for q in points:
        series.setdefault((q.family, q.width if axis == "L" else q.layers), []).append(q)
    drawn = {key: sorted(group, key=size) for key, group in sorted(series.items())}
    drawn = {key: group for key, group in drawn.items() if len({size(q) for q in group}) >= 2}
    colours = plt.cm.tab10(np.arange(max(len(drawn), 1)) % 10)
    figure, panels = plt.subplots(1, 2, figsize=(11, 4.5), sharex=True)
    ticks: set[int] = set()
    for panel, proxy, name in zip(panels, ("ours", "edelman"), ("B_ours", "B_Edelman"), strict=True):
        for index, (colour, ((family, other), group)) in enumerate(zip(colours, drawn.items(), strict=False)):
            xs = [size(q) for q in group]
            ticks.update(xs)
            dodge = 1 + DODGE * (index - (len(drawn) - 1) / 2)  # sideways, so equal series stay apart
            xs = [x * dodge for x in xs]
            logs = [q.log_proxy(proxy) for q in group]
            ratio = [math.exp(v - logs[0]) for v in logs]
            fixed = f"N={other}" if axis == "L" else f"L={other}"
            fit = fit_exponent(group, proxy, axis)
            growth = f": ~{axis}^{fit.value:.2f}" if fit is not None else ""
            # series that coincide (B_ours of every p = 0 series is exactly L) stay visible: each has its
            # own marker and dash, and the earlier ones are drawn larger and hollow beneath the later ones
            panel.plot(
                xs,
                ratio,
                color=colour,
                marker=SERIES_MARKERS[index % len(SERIES_MARKERS)],
                markersize=11 - 1.2 * (index % 5),
                markerfacecolor="none",
                linestyle=SERIES_DASHES[index % len(SERIES_DASHES)],
                linewidth=2.2 - 0.3 * (index % 5),
                label=f"{family}, {fixed}{growth}",
            )
        panel.set_xscale("log")
        panel.set_yscale("log")
        panel.set_xticks(sorted(ticks))
        panel.xaxis.set_major_formatter(ScalarFormatter())
        panel.xaxis.set_minor_formatter(NullFormatter())
        plain_log_ticks(panel.yaxis, panel.get_ylim())
        panel.set_xlabel(f"{AXES[axis]} {axis} (log scale)")
        panel.set_ylabel(f"{name} / value at the series' smallest model")
        panel.set_title(f"{name} against {AXES[axis]} {axis}")
        panel.grid(True, which="major", alpha=0.3)
    for panel in panels:
        panel.legend(
            fontsize=7, title="series (source, fixed size): fitted growth", title_fontsize=7, loc="best"
        )
    figure.suptitle(f"Growth of B_ours and B_Edelman with {AXES[axis]}, each series normalised to 1")
    figure.tight_layout()
    save_figure(figure, path)
    other_axis = "N" if axis == "L" else "L"
    return (
        f"Left: B_ours, right: B_Edelman, against {AXES[axis]} {axis}, log-log axes; one colour per "
        f"series ({len(drawn)} of them: one per source (real checkpoints, prefixes of a real model's "
        f"layers, the trained synthetic grid, your checkpoints) and fixed {other_axis}), the same colour in "
        "both panels. Each series is divided by its value at its smallest model, so every curve starts at 1 "
        "and its slope is the growth exponent (the log-log least-squares slope of each series is in the "
        "legend); each checkpoint is a series of its own (or with its own prefixes), never joined with "
        "another; each panel has its own y axis, so a series that grows by "
        "1e23 and one that grows by 3 stay readable side by side. Series are shifted sideways by a few "
        "percent (the ticks are the true sizes) so that series with equal values stay apart."
    )


def measure_against_gap(
    values: Sequence[float],
    gaps: Sequence[float],
    half_widths: Sequence[float],
    measure: str,
    tau: float | None,
    path: Path,
) -> str:
    """One measure against the measured 0-1 gap of every model (error bar = the gap's half-width)."""
    plt = _pyplot()
    figure, ax = plt.subplots(figsize=(6, 4.5))
    xs = np.asarray(values, dtype=np.float64)
    ax.errorbar(xs, gaps, yerr=half_widths, fmt="o", ms=4, alpha=0.7, color="tab:blue", elinewidth=0.8)
    logarithmic = bool(xs.min() > 0 and xs.max() / xs.min() > 10)
    if logarithmic:
        ax.set_xscale("log")
    scale = " (log scale)" if logarithmic else ""
    ax.set_xlabel(f"{measure}{scale}")
    ax.set_ylabel("0-1 generalization gap (held-out minus training error)")
    ax.set_title(f"{measure} against the gap: Kendall tau {'n/a' if tau is None else f'{tau:+.2f}'}")
    figure.tight_layout()
    save_figure(figure, path)
    return (
        f"{measure} (x{scale}) against the measured 0-1 gap (y) of each trained model; vertical bars are the "
        "gap's Hoeffding half-width. A measure that ranks generalization puts the points on a rising curve."
    )
