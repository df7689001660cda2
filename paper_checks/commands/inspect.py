"""``specbound inspect [MODEL]``: the shape of a checkpoint and the spectral norms of its layers.

Per layer: the spectral norm (largest singular value, float64 LAPACK SVD of the exact upcast) of
Wq, Wk, Wv, Wo, Win, Wout, and max_h ||QK_h||_2 with QK_h = Wq[hs,:]^T Wk[hs,:] (docs: matrices,
exact), computed from its thin factors (a d_h x d_h core, see :mod:`numerics.spectra.spectrum`). A gated
feed-forward W_down (act(W_gate x) * W_up x) shows both its input matrices, W_gate and W_up, and the input
norm the bound uses, sigma_1(M_in) = sigma_1([W_gate; W_up]) (for a plain block M_in = Win^T). A
mixture-of-experts layer shows every expert's block (one row each, ``E0``, ..., ``Eshared``) and the
router's norm (read, outside the bound).
"""

from __future__ import annotations

import argparse
import functools
from typing import TYPE_CHECKING

from numerics.loading.coverage import Coverage, coverage_lines
from paper_checks.commands._model import add_model_arguments
from paper_checks.output_files import json_text
from paper_checks.run_metadata import run_block, weights_sha256
from theory.kinds import MatrixKind

if TYPE_CHECKING:
    import numpy as np

    from numerics.loading.weights import TransformerWeights

HELP = "show L, N, heads, FFN size and per-layer spectral norms of a checkpoint (alias, HF folder, file)"

METHOD = "float64 LAPACK SVD of the exact upcast; QK_h via thin QR factors and a d_h x d_h core SVD"
_HEADERS = {"wq": "Wq", "wk": "Wk", "wv": "Wv", "wo": "Wo", "w_in": "Win", "w_out": "Wout"}
_GATED_HEADERS = {
    "wq": "Wq",
    "wk": "Wk",
    "wv": "Wv",
    "wo": "Wo",
    "w_gate": "Wgate",
    "w_in": "Wup",
    "m_in": "M_in=[Wgate;Wup]",
    "w_out": "Wdown",
}


def register(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``inspect``."""
    add_model_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print the same data as JSON")


def inspect_model(model: str, weights: TransformerWeights) -> dict:
    """The report ``inspect`` prints of ``weights`` (loaded from ``model``): sizes, source and per-layer
    spectral norms (JSON-ready, stable keys).

    Keys: model, source, L, N, heads, head_dim, ffn, method, and layers: a list of {layer, wq, wk, wv,
    wo, w_in, w_out, m_in, qk_max, qk_max_head}, with w_gate too for a gated feed-forward (w_in is then its
    up projection and m_in = sigma_1([W_gate; W_up]), the input norm the bound uses). A mixture layer has,
    instead of w_in, w_out, w_gate and m_in, ``experts``: one {expert, w_in, w_out, w_gate, m_in} per
    expert (expert -1 for a shared one), and ``router`` (and ``shared_expert_gate``), the spectral
    norms of the routing matrices the bound holds fixed.
    """
    from numerics.loading.families import weights_coverage
    from numerics.spectra.matrices import extract_matrices
    from numerics.spectra.spectrum import spectrum

    qk_norms: dict[int, list[float]] = {}
    m_in: dict[tuple[int, int | None], float] = {}
    for matrix in extract_matrices(weights):
        if matrix.kind is MatrixKind.QK:
            qk_norms.setdefault(matrix.layer, []).append(spectrum(matrix, weights.source).spectral_norm)
        elif matrix.kind is MatrixKind.M_IN:
            m_in[matrix.layer, matrix.expert] = spectrum(matrix, weights.source).spectral_norm
    layers = []
    for index, layer in enumerate(weights.layers):
        norm = functools.partial(_spectral_norm, index, weights.source)
        row: dict[str, object] = {"layer": index}
        row.update({name: norm(name, getattr(layer, name)) for name in ("wq", "wk", "wv", "wo")})
        blocks = []
        for expert, block in layer.feed_forwards():
            label = f"expert.{expert}." if expert is not None else ""
            entry: dict[str, object] = {name: norm(label + name, array) for name, array in block.items()}
            entry["m_in"] = m_in[index, expert]
            if expert is not None:
                entry = {"expert": expert, **entry}
            blocks.append(entry)
        if layer.experts:
            row["experts"] = blocks
            for name in ("router", "shared_expert_gate"):
                if getattr(layer, name) is not None:
                    row[name] = norm(name, getattr(layer, name))
        else:
            row.update(blocks[0])
        heads = qk_norms[index]
        top = max(range(len(heads)), key=heads.__getitem__)
        row["qk_max"], row["qk_max_head"] = heads[top], top
        layers.append(row)
    return {
        "model": model,
        "source": weights.source,
        "L": weights.num_layers,
        "N": weights.hidden_size,
        "heads": weights.num_heads,
        "head_dim": weights.head_dim,
        "ffn": weights.ffn_size,
        "method": METHOD,
        "layers": layers,
        "family": weights.family,
        "kv_heads": weights.kv_heads,
        "coverage": [record.as_json() for record in weights_coverage(weights)],
    }


def _norm_text(value: float) -> str:
    """A norm in a table cell: four decimals below 1e5, else four significant decimals in e-notation."""
    return f"{value:.4f}" if abs(value) < 1e5 else f"{value:.4e}"


def _spectral_norm(layer: int, source: str, name: str, array: np.ndarray) -> float:
    """sigma_1 of the array ``name`` of layer ``layer`` of ``source`` (named so in errors)."""
    from numerics.spectra.spectrum import spectrum

    return spectrum(array, f"layer {layer} {name} of {source}").spectral_norm


def _blocks(row: dict) -> list[dict]:
    """The feed-forward blocks of a layer's row: its experts, or the row itself for a dense layer."""
    return row.get("experts", [row])


def format_table(report: dict) -> str:
    """The report as text: a header with the sizes, then one row of spectral norms per layer.

    Columns are as wide as their widest cell (norms of any size stay separated by at least two spaces).
    """
    from numerics.spectra.matrices import expert_label

    gated = any("w_gate" in block for row in report["layers"] for block in _blocks(row))
    columns = _GATED_HEADERS if gated else _HEADERS
    header = ["layer", *columns.values(), "max_h QK_h (head)"]
    rows = []
    for row in report["layers"]:
        for number, block in enumerate(_blocks(row)):
            cells = {**row, **block} if number == 0 else block  # attention once, on the layer's first row
            expert = block.get("expert")
            rows.append(
                [
                    str(row["layer"]) + ("" if expert is None else f" {expert_label(expert)}"),
                    *(_norm_text(cells[name]) if name in cells else "" for name in columns),
                    f"{_norm_text(row['qk_max'])} ({row['qk_max_head']})" if number == 0 else "",
                ]
            )
    widths = [max(len(line[i]) for line in [header, *rows]) for i in range(len(header))]
    lines = [
        f"model   {report['model']}",
        f"source  {report['source']}",
        f"L={report['L']}  N={report['N']}  heads={report['heads']} (d_h={report['head_dim']})  "
        f"FFN={report['ffn']}",
        f"spectral norms ({report['method']})",
    ]
    lines += [
        "  ".join(cell.rjust(width) for cell, width in zip(line, widths, strict=True))
        for line in [header, *rows]
    ]
    routers = [f"{row['layer']}: {_norm_text(row['router'])}" for row in report["layers"] if "router" in row]
    if routers:
        lines.append(
            f"router sigma_1 (read, held fixed, outside the bound) per mixture layer  {', '.join(routers)}"
        )
    coverage = [Coverage(**record) for record in report.get("coverage", ())]
    return "\n".join(lines + (["", *coverage_lines(tuple(coverage))] if coverage else []))


def run(args: argparse.Namespace) -> int:
    """Print the inspection report of ``args.model`` as a table, or as JSON with ``--json``."""
    from numerics.loading import load_weights

    weights = load_weights(args.model, num_heads=args.num_heads, family=args.family)
    report = inspect_model(args.model, weights)
    report["run"] = run_block(args, {args.model: weights_sha256(weights)})
    print(json_text(report, f"the inspection of {args.model}") if args.json else format_table(report))
    return 0
