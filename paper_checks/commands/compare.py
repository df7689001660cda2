"""``specbound compare [MODEL]``: every bound on the same weights as a generalization gap on one footing.

One row per bound (:func:`numerics.bounds.comparison.compare_bounds`): Bartlett-Foster-Telgarsky 2017,
Edelman et al. 2022, Trauger-Tewari 2024, a parameter-count bound and the assembled bound, each a gap at
the stated n, delta, margin and T with its constants written out ("constants 1" where the paper gives
none, theory.comparison); then the authors' proxies B_ours and B_Edelman (exact) and their labelled
theory-consistent variants, which are complexities and not gaps. Each row names its provenance, its
reference with the theorem number and its assumptions.

``--synthetic`` trains one transformer of the assembled bound's class instead (the ``gap`` grid's
L2-N16-H1 model on the clean sparse-selection task, deterministic) and compares on its weights, with its
trained read-out, at its own n and T unless given, beside its measured gap on held-out samples; with
``--figures DIR`` it also trains the quick synthetic grid (:data:`paper_checks.scaling.QUICK_GRID`) and
draws every row of its models over depth and over width (:mod:`paper_checks.compare_figure`).
"""

from __future__ import annotations

import argparse
from typing import Any

from paper_checks.commands._model import add_model_arguments
from paper_checks.output_files import json_text
from theory.errors import InvalidArgument, require

HELP = "every published bound and the proxies on one checkpoint's weights, as gaps on one footing"

DEFAULT_N, DEFAULT_DELTA, DEFAULT_MARGIN, DEFAULT_T = 1000, 0.1, 1.0, 16
"""The footing of the regimes table (theory.regimes: n = 1000, delta = 1/10, margin 1, T = 16)."""

SYNTHETIC_SETTING = 4
"""Which model of ``numerics.synthetic.gap.default_grid()`` ``--synthetic`` trains (L2-N16-H1, clean)."""


def _middle(sizes: tuple[int, ...]) -> int:
    """The size a grid figure holds fixed: the middle one of the grid's axis."""
    return sizes[len(sizes) // 2]


def register(parser: argparse.ArgumentParser) -> None:
    """MODEL, --n, --delta, --margin, --T, --json."""
    add_model_arguments(parser)
    parser.add_argument(
        "--n", type=int, help=f"samples (default {DEFAULT_N}; with --synthetic the model's training set)"
    )
    parser.add_argument(
        "--delta", type=float, default=DEFAULT_DELTA, help=f"confidence in (0, 1) (default {DEFAULT_DELTA})"
    )
    parser.add_argument(
        "--margin",
        type=float,
        help=f"margin in (0, 1], fixed before training (default {DEFAULT_MARGIN}; with --synthetic "
        "the gap command's)",
    )
    parser.add_argument(
        "--T",
        dest="tokens",
        type=int,
        help=f"tokens per sample (default {DEFAULT_T}; with --synthetic the task's)",
    )
    parser.add_argument(
        "--designed",
        action="store_true",
        help="instead of MODEL, a designed transformer with power-law spectra (numerics.synthetic.designed) "
        "on which the post hoc choice takes p > 0",
    )
    parser.add_argument(
        "--pac-bayes",
        action="store_true",
        help="with --synthetic: also a PAC-Bayes bound (Gaussian posterior around the trained weights; "
        "a bound on the stochastic network's error, a different kind of bound; about a minute of CPU)",
    )
    parser.add_argument(
        "--synthetic",
        action="store_true",
        help="instead of MODEL, train one small transformer of the assembled bound's class (needs torch) "
        "and compare on it, beside its measured gap",
    )
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument(
        "--figures",
        metavar="DIR",
        help="also write compare_depth.png (and PDF, SVG): every row on the model's first l layers, "
        "l = 1..L; with --synthetic, compare_grid_depth.png and compare_grid_width.png instead: every row "
        "on the models of the quick synthetic grid (the one `check` trains: L = 1..3, N = 8, 16, 32), over "
        "depth at N = 16 and over width at L = 2, at the grid's n = 64 unless --n (9 more models, about 10 s "
        "of CPU; needs matplotlib)",
    )
    parser.add_argument("--force", action="store_true", help="let --figures replace an existing figure")


def _short(value: object) -> str:
    import mpmath

    return "-" if value is None else mpmath.nstr(value, 6)


def format_table(result: object) -> str:
    """The rows as a text table, then each row's formula, provenance, reference and assumptions."""
    from numerics.bounds.comparison import Comparison

    assert isinstance(result, Comparison)
    header = ("bound", "gap", "complexity", "constants", "provenance")
    table = [header] + [
        (r.name, _short(r.gap), _short(r.complexity), r.constants, r.provenance.split(" (")[0])
        for r in result.rows
    ]
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    lines = [
        f"model {result.source}: L={result.num_layers}, N={result.hidden_size}, heads={result.num_heads}",
        f"footing: generalization gap at n = {result.n}, delta = {result.delta}, margin = {result.margin}, "
        f"T = {result.tokens} (a proxy row is a complexity, not a gap)",
        "",
        *("  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)) for line in table),
        "",
    ]
    for r in result.rows:
        lines += [f"{r.name}: {r.formula}", f"  {r.provenance}; {r.reference}", f"  assumes: {r.assumptions}"]
    chosen = "; ".join(f"{name} {k} of {total}" for name, (k, total) in result.positive_p.items())
    lines.append(f"post hoc p > 0 (spectrum adaptivity at work): {chosen} matrices")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Compute every row on the model's weights and print them."""
    if args.synthetic and args.designed:
        raise InvalidArgument("give --synthetic or --designed, not both")
    if args.pac_bayes and not args.synthetic:
        raise InvalidArgument("--pac-bayes needs --synthetic (a trained model with its initialisation)")
    if args.synthetic:
        return _run_synthetic(args)
    if args.designed:
        from numerics.synthetic.designed import designed_weights

        weights = designed_weights()
        if args.figures is not None:
            raise InvalidArgument("--figures draws the layer prefixes of a checkpoint; drop --designed")
        return _print(
            args, weights.source, _compare(weights, _footing(args, DEFAULT_N, DEFAULT_MARGIN, DEFAULT_T)), {}
        )
    from numerics.loading import open_checkpoint

    footing = _footing(args, DEFAULT_N, DEFAULT_MARGIN, DEFAULT_T)
    if args.figures is None:
        checkpoint = open_checkpoint(args.model, num_heads=args.num_heads, family=args.family)
        return _print(args, args.model, _compare(checkpoint, footing), {})
    from numerics.spectra.model import SpectraOptions, model_spectra
    from paper_checks.compare_figure import FIGURE, bounds_over_depth
    from paper_checks.output_files import checkpoint_inputs, complete_or_removed, figure_files, prepare_folder

    require("matplotlib", purpose="--figures")
    names = figure_files([FIGURE])
    directory = prepare_folder("--figures", args.figures, names, args.force, checkpoint_inputs([args.model]))
    checkpoint = open_checkpoint(args.model, num_heads=args.num_heads, family=args.family)
    spectra = model_spectra(checkpoint, SpectraOptions(entrywise_norms=True))
    prefixes = [
        _compare([e for e in spectra.matrices if e[0].layer < depth], footing)
        for depth in range(1, spectra.num_layers)
    ]
    result = _compare(spectra, footing)
    status = _print(args, args.model, result, {})
    with complete_or_removed(directory, names):
        caption = bounds_over_depth([*prefixes, result], args.model, directory / FIGURE)
    if not args.json:
        print(f"figure written to {directory / FIGURE}: {caption}")
    return status


def _footing(args: argparse.Namespace, n: int, margin: float, tokens: int) -> dict[str, Any]:
    """n, delta, margin, T from the options (their defaults when not given), checked before any work."""
    from numerics.bounds.assembled import check_inputs

    footing = {
        "n": n if args.n is None else args.n,
        "delta": args.delta,
        "margin": margin if args.margin is None else args.margin,
        "T": tokens if args.tokens is None else args.tokens,
    }
    if footing["n"] < 2:
        raise InvalidArgument(f"--n={footing['n']} must be an integer >= 2")
    check_inputs(footing["n"], footing["delta"], footing["margin"], footing["T"])
    return footing


def _compare(weights: object, footing: dict[str, Any], readout_weight: object = None) -> Any:
    from numerics.bounds.comparison import compare_bounds

    return compare_bounds(weights, readout_weight=readout_weight, **footing)


def _run_synthetic(args: argparse.Namespace) -> int:
    """Train the synthetic model, compare on it at its n and T, and measure its gap."""
    require("torch", purpose="compare --synthetic (it trains a model)")
    from numerics.synthetic.defaults import DEFAULT_MARGIN as SYNTHETIC_MARGIN
    from numerics.synthetic.defaults import DEFAULT_N_TEST
    from numerics.synthetic.gap import default_grid, measure_gap, model_label
    from numerics.synthetic.train import train_synthetic

    setting = default_grid()[SYNTHETIC_SETTING]
    tokens = setting.task.seq_len
    footing = _footing(args, setting.training.n_train, SYNTHETIC_MARGIN, tokens)
    directory = None if args.figures is None else _grid_folder(args)
    trained = train_synthetic(setting.config, setting.task, setting.training)
    result = _trained_rows(trained, footing)
    measured: dict[str, Any] = measure_gap(trained, margin=footing["margin"], n_test=DEFAULT_N_TEST).as_dict()
    measured["margin_after_training"] = _margin_after_training(trained, footing["delta"])
    if args.pac_bayes:
        from dataclasses import asdict

        from numerics.synthetic.pac_bayes import pac_bayes_bound

        measured["pac_bayes"] = asdict(pac_bayes_bound(trained, delta=footing["delta"]))
    status = _print(args, model_label(setting.config, setting.task), result, measured)
    if directory is not None:
        _grid_figures(args, directory)
    return status


def _trained_rows(trained: Any, footing: dict[str, Any]) -> Any:
    """The rows of one trained synthetic model, with its trained read-out (the assembled bound's K-th
    matrix)."""
    from numerics.synthetic.model import readout_weight

    return _compare(trained.weights, footing, readout_weight(trained.model))


def _grid_folder(args: argparse.Namespace) -> Any:
    """The folder of the grid figures, checked before any training."""
    from paper_checks.compare_figure import GRID_FIGURES
    from paper_checks.output_files import figure_files, prepare_folder

    require("matplotlib", purpose="--figures")
    return prepare_folder("--figures", args.figures, figure_files(GRID_FIGURES.values()), args.force)


def _grid_figures(args: argparse.Namespace, directory: Any) -> None:
    """Train the quick synthetic grid and draw every row over depth (at the middle width) and over width
    (at the middle depth), each model compared at the grid's n and the task's T (unless given)."""
    from numerics.synthetic.defaults import DEFAULT_MARGIN as SYNTHETIC_MARGIN
    from paper_checks.compare_figure import GRID_FIGURES, bounds_over_grid
    from paper_checks.output_files import complete_or_removed, figure_files
    from paper_checks.scaling import QUICK_GRID, train_grid_models

    models = train_grid_models(QUICK_GRID)
    footing = _footing(args, QUICK_GRID.n_train, SYNTHETIC_MARGIN, models[0].task.seq_len)
    results = [_trained_rows(trained, footing) for trained in models]
    fixed = {"depth": _middle(QUICK_GRID.widths), "width": _middle(QUICK_GRID.depths)}
    with complete_or_removed(directory, figure_files(GRID_FIGURES.values())):
        for axis, name in GRID_FIGURES.items():
            caption = bounds_over_grid(results, axis, fixed[axis], directory / name)
            if not args.json:
                print(f"figure written to {directory / name}: {caption}")


def _margin_after_training(trained: Any, delta: float) -> dict[str, Any]:
    """The assembled bound at the margin chosen after training (theory.margin_union): every dyadic margin's
    training ramp risk plus GAP, and the best."""
    from numerics.synthetic.margin_choice import best_margin, margin_choices

    choices = margin_choices(trained, delta=delta)
    return {"best": best_margin(choices).as_dict(), "margins": [choice.as_dict() for choice in choices]}


def _print(args: argparse.Namespace, model: str, result: Any, measured: dict[str, Any]) -> int:
    if args.json:
        document = {
            "model": model,
            "L": result.num_layers,
            "N": result.hidden_size,
            "heads": result.num_heads,
            "footing": {"n": result.n, "delta": result.delta, "margin": result.margin, "T": result.tokens},
            "rows": [r.as_json() for r in result.rows],
            "positive_p": {
                name: {"matrices_at_positive_p": k, "matrices": total}
                for name, (k, total) in result.positive_p.items()
            },
        }
        if measured:
            document["measured"] = measured
        print(json_text(document, f"the comparison of {model}", indent=1))
        return 0
    print(format_table(result))
    if measured:
        print(
            f"measured on {measured['n_test']} held-out samples: ramp gap {measured['ramp_gap']:.4f}, "
            f"0-1 margin gap {measured['margin_gap']:.4f} (each +-{measured['half_width']:.4f})"
        )
    if "margin_after_training" in measured:
        best = measured["margin_after_training"]["best"]
        print(
            f"assembled bound at the margin chosen after training (union over dyadic margins 2^-k, "
            f"k <= {len(measured['margin_after_training']['margins']) - 1}): margin 2^-{best['index']} = "
            f"{best['margin']:g}, training ramp risk {best['train_ramp']:.4f} + GAP {best['gap']:.4f} = "
            f"{best['bound']:.4f} on the 0-1 test error"
        )
    if "pac_bayes" in measured:
        pac = measured["pac_bayes"]
        print(
            f"PAC-Bayes (a different kind of bound: the 0-1 error of the stochastic network N(w, sigma^2 I), "
            f"prior N(w0, sigma^2 I)): e(Q) <= {pac['bound']:.4f} at sigma = {pac['sigma']:.4g} (KL "
            f"{pac['kl']:.4g}, training error of Q {pac['train_error']:.4f} over {pac['draws']} draws, "
            f"union over {pac['grid']} sigmas, delta = {pac['delta']})"
        )
    return 0
