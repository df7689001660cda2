"""Every bound of :mod:`theory.comparison` on one model's weights, on one footing (``specbound compare``).

One spectra pass (:func:`numerics.bounds.proxies.proxies`) feeds every row: the published bounds'
gaps (theory.comparison's formulas at the stated n, delta, margin, T), the assembled bound's GAP_TERM
(:func:`numerics.bounds.assembled.assembled_bound`), the authors' proxies B_ours and B_Edelman exactly as
their code computes them, and two labelled theory-consistent variants of the proxies:

- ``B_ours, N_i = max(rows, cols)``: the summand C_p(W; s, N_i) with each matrix's own larger dimension
  (the covering of an N x 4N matrix counts 4N, as the assembled bound's MATRIX_TERM does) instead of N;
- ``B_Edelman, QK_h / sqrt(d_h)`` (and B_ours likewise): the attention logits are X QK_h X^T / sqrt(d_h)
  in a BERT layer, so the matrix the softmax sees is QK_h / sqrt(d_h); every QK_h spectrum is scaled so.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from dataclasses import dataclass

import mpmath

from numerics.bounds.assembled import assembled_bound, check_inputs
from numerics.bounds.composition import ProxyReport
from numerics.bounds.proxies import proxies
from numerics.bounds.schatten import MpmathSpectra, schatten_power_sum
from numerics.formulas.evaluate import DEFAULT_DPS, evaluate
from numerics.spectra.matrices import NamedMatrix
from numerics.spectra.model import SpectraOptions, model_spectra
from numerics.spectra.spectrum import Spectrum
from theory import assembled as assembled_theory
from theory import baselines, comparison
from theory.errors import UnknownName
from theory.grid import grid_fractions
from theory.kinds import MatrixKind
from theory.proxy import EDELMAN_LAYER_WEIGHT, L_PHI_VALUE, OURS_PROXY, SUMMAND

ATTENTION = (MatrixKind.QK, MatrixKind.VT)


@dataclass(frozen=True)
class Row:
    """One bound on the footing: ``gap`` (None for a proxy, which is a complexity without n or delta),
    the complexity it is a function of, and what it rests on."""

    name: str
    gap: mpmath.mpf | None
    complexity: mpmath.mpf | None
    formula: str
    provenance: str
    reference: str
    constants: str
    assumptions: str

    def as_json(self) -> dict[str, object]:
        """JSON values (numbers as floats when finite in float64, else 17-digit strings)."""
        return {
            "name": self.name,
            "gap": _number(self.gap),
            "complexity": _number(self.complexity),
            "formula": self.formula,
            "provenance": self.provenance,
            "reference": self.reference,
            "constants": self.constants,
            "assumptions": self.assumptions,
        }


def _number(value: mpmath.mpf | None) -> float | str | None:
    if value is None:
        return None
    as_float = float(value)
    return as_float if abs(as_float) != float("inf") else mpmath.nstr(value, 17)


@dataclass(frozen=True)
class Comparison:
    """The rows of one model at one footing (n, delta, margin, T)."""

    source: str
    num_layers: int
    hidden_size: int
    num_heads: int
    n: int
    delta: float
    margin: float
    tokens: int
    rows: tuple[Row, ...]
    positive_p: dict[str, tuple[int, int]]
    """Per post hoc bound ("B_ours", "assembled bound"): (matrices at p > 0, matrices)."""

    def row(self, name: str) -> Row:
        """The row called ``name`` (:class:`~theory.errors.UnknownName` if none)."""
        for row in self.rows:
            if row.name == name:
                return row
        raise UnknownName(f"no row {name!r}; the rows are {[row.name for row in self.rows]}")


def _value_path(report: ProxyReport) -> list[tuple[mpmath.mpf, mpmath.mpf]]:
    """(spectral norm, (2,1) norm) of every link of BFT17's chain: per layer the value map sum_h Vt_h
    (both norms bounded by the sums over heads, triangle inequality), M_in, M_out."""
    chain = []
    for layer in range(report.num_layers):
        rows = [r for r in report.matrices if r.matrix.layer == layer]
        values = [r.spectrum for r in rows if r.matrix.kind is MatrixKind.VT]
        chain.append((mpmath.fsum(s.spectral_norm for s in values), mpmath.fsum(s.norm_21 for s in values)))
        for kind in (MatrixKind.M_IN, MatrixKind.M_OUT):
            for r in rows:
                if r.matrix.kind is kind:
                    chain.append((mpmath.mpf(r.spectrum.spectral_norm), mpmath.mpf(r.spectrum.norm_21)))
    return chain


def bft_complexity(report: ProxyReport, dps: int) -> mpmath.mpf:
    """R_A of BFT17 eq. (1.2) on the chain of :func:`_value_path` with rho = L_phi once per layer (GELU)
    and the read-out (||w|| <= 1: spectral and (2,1) norm 1)."""
    chain = [*_value_path(report), (mpmath.mpf(1), mpmath.mpf(1))]
    terms = mpmath.fsum(evaluate(baselines.BFT_TERM, dps=dps, n21=b, C2=c) for c, b in chain)
    rho = mpmath.mpf(L_PHI_VALUE.p) / L_PHI_VALUE.q
    product = mpmath.fprod([c for c, _ in chain]) * rho**report.num_layers
    return evaluate(baselines.BFT_SPECTRAL_COMPLEXITY, dps=dps, P_sigma=product, S_21=terms)


def edelman_complexity(report: ProxyReport, dps: int) -> mpmath.mpf:
    """(sum_l alpha_l^{2/3} xi_l)^{3/2}: the theorem's complexity from the proxy's own alpha_l and xi_l
    (B_Edelman is (1 + this^{2/3})^{3/2})."""
    inner = mpmath.fsum(
        evaluate(EDELMAN_LAYER_WEIGHT, dps=dps, alpha=a) * xi
        for a, xi in zip(report.alphas, report.xis, strict=True)
    )
    return evaluate(comparison.MAUREY_COMPLEXITY, dps=dps, X=inner)


def trauger_tewari_complexity(report: ProxyReport, dps: int) -> mpmath.mpf:
    """(sum over matrices (alpha_l gamma ||W||_{1,1})^{2/3})^{3/2} with the proxies' alpha and gamma."""
    inner = mpmath.fsum(
        evaluate(
            comparison.TRAUGER_TEWARI_TERM, dps=dps, alpha=r.alpha, gamma=r.gamma, M11=r.spectrum.norm_11
        )
        for r in report.matrices
    )
    return evaluate(comparison.MAUREY_COMPLEXITY, dps=dps, X=inner)


def parameter_count(report: ProxyReport) -> int:
    """The trained weights the matrices are made of: per head 2 N d_h for QK_h (Wq, Wk rows) and as many
    for Vt_h (Wv, Wo), rows x cols for M_in and M_out, and the read-out's N (biases, LayerNorm and
    embeddings not counted)."""
    head_dim = report.hidden_size // report.num_heads
    total = report.hidden_size
    for row in report.matrices:
        rows, cols = row.spectrum.shape
        total += 2 * rows * head_dim if row.matrix.kind in ATTENTION else rows * cols
    return total


def ours_widest(report: ProxyReport, dps: int) -> mpmath.mpf:
    """B_ours with N_i = max(rows, cols) in every summand (the feed-forward matrices' 4N), the post hoc
    p re-chosen per matrix over the same grid."""
    arithmetic = MpmathSpectra()
    leading = mpmath.mpf(0)
    for row in report.matrices:
        width = max(row.spectrum.shape)
        if width == report.hidden_size:
            leading += row.contribution
            continue
        leading += min(
            evaluate(
                SUMMAND, dps=dps, p=p, S=schatten_power_sum(arithmetic, row.spectrum, p), s=row.scale, N=width
            )
            for p in grid_fractions(report.m)
        )
    return evaluate(OURS_PROXY, dps=dps, Sigma=leading, L=report.num_layers)


def _scaled_norm_11(spec: Spectrum, factor: float) -> float:
    return spec.norm_11 * factor


def logit_scaled(
    spectra: Sequence[tuple[NamedMatrix, Spectrum]], head_dim: int
) -> list[tuple[NamedMatrix, Spectrum]]:
    """The spectra with every QK_h divided by sqrt(d_h) (singular values and every norm)."""
    factor = head_dim**-0.5
    scaled = []
    for matrix, spec in spectra:
        if matrix.kind is MatrixKind.QK:
            spec = dataclasses.replace(
                spec,
                singular_values=spec.singular_values * factor,
                spectral_norm=spec.spectral_norm * factor,
                frobenius_norm=spec.frobenius_norm * factor,
                nuclear_norm=spec.nuclear_norm * factor,
                norm_21=spec.norm_21 * factor,
                entrywise_sum=functools.partial(_scaled_norm_11, spec, factor),
            )
        scaled.append((matrix, spec))
    return scaled


OUTSIDE = "LayerNorm, residual connections, biases and embeddings are outside it"


def compare_bounds(
    weights: object,
    *,
    n: int,
    delta: float,
    margin: float,
    T: int,
    dps: int = DEFAULT_DPS,
    readout_weight: object = None,
) -> Comparison:
    """Every row of ``specbound compare`` on ``weights`` (anything :func:`model_spectra` reads) at n
    samples of T tokens, confidence delta and margin ``margin`` (in (0, 1])."""
    check_inputs(n, delta, margin, T)
    spectra = model_spectra(weights, SpectraOptions(entrywise_norms=True))
    options = SpectraOptions(dps=dps)
    report = proxies(spectra, options)
    head_dim = report.hidden_size // report.num_heads
    scaled = proxies(logit_scaled(spectra.matrices, head_dim), options, source=spectra.source)
    footing = {"n": n, "delta": delta, "gamma_m": margin}
    bft = bft_complexity(report, dps)
    width = max(max(r.spectrum.shape) for r in report.matrices)
    edelman = edelman_complexity(report, dps)
    tt = trauger_tewari_complexity(report, dps)
    count = parameter_count(report)
    assembled = assembled_bound(
        report, n=n, delta=delta, margin=margin, T=T, dps=dps, readout_weight=readout_weight
    )
    exact = "exact (the authors' bounds.py)"
    variant = "reconstructed (theory-consistent variant of the authors' proxy)"
    proxy_note = "a complexity without n, delta, margin: not a gap"
    rows = (
        Row(
            "BFT17 spectral complexity",
            evaluate(comparison.BFT_GAP, dps=dps, R=bft, T=T, W=width, **footing),
            bft,
            comparison.BFT_GAP.description,
            "standard (the lemma); reconstructed (its use on a transformer)",
            comparison.BFT_SOURCE,
            "as stated",
            "norms fixed a priori; a feed-forward theorem: applied to the chain of value maps "
            "(sum_h Vt_h, norms summed over heads), M_in, M_out of each layer and the read-out, rho = "
            f"1.13 per layer; the query-key matrices and the softmax are outside it, and {OUTSIDE}",
        ),
        Row(
            "Edelman et al. 2022",
            evaluate(comparison.EDELMAN_GAP, dps=dps, R=edelman, T=T, **footing),
            edelman,
            comparison.EDELMAN_GAP.description,
            "reconstructed",
            comparison.EDELMAN_SOURCE,
            "constants 1",
            "norms fixed a priori; single-head attention with (2,1)-norm Maurey covers composed with the "
            f"proxy's alpha_l and xi_l (heads summed); {OUTSIDE}",
        ),
        Row(
            "Trauger-Tewari 2024",
            evaluate(comparison.TRAUGER_TEWARI_GAP, dps=dps, R=tt, N=report.hidden_size, **footing),
            tt,
            comparison.TRAUGER_TEWARI_GAP.description,
            "reconstructed (flagged: a shape, the theorem was not read)",
            comparison.TT_SOURCE,
            "constants 1",
            f"norms fixed a priori; (1,1)-norm covers, no sequence length; {OUTSIDE}",
        ),
        Row(
            "parameter count",
            evaluate(
                comparison.PARAMETER_COUNT_GAP,
                dps=dps,
                P=count,
                b=comparison.BITS_PER_WEIGHT,
                n=n,
                delta=delta,
            ),
            mpmath.mpf(count),
            comparison.PARAMETER_COUNT_GAP.description + f", b = {comparison.BITS_PER_WEIGHT}",
            "standard",
            comparison.COUNT_SOURCE,
            "as stated",
            "any architecture with these P weights stored in b bits (0-1 loss, no margin); the weights "
            "of the layer matrices and the read-out are counted, not biases, LayerNorm or embeddings",
        ),
        Row(
            "assembled bound",
            assembled.gap,
            assembled.sigma,
            assembled_theory.GAP_TERM.description,
            "reconstructed",
            assembled_theory.SOURCE,
            "as stated",
            "post hoc p per matrix and peeled norms (union bound); the margin fixed a priori; covers the "
            f"synthetic class (projections after each sub-block, GELU, read-out); {OUTSIDE}",
        ),
        Row(
            "B_ours (authors' proxy)",
            None,
            report.ours,
            OURS_PROXY.description,
            exact,
            "authors' code",
            "proxy",
            proxy_note,
        ),
        Row(
            "B_Edelman (authors' proxy)",
            None,
            report.edelman,
            "B_Edelman = (1 + Xi)^{3/2}",
            exact,
            "authors' code",
            "proxy",
            proxy_note,
        ),
        Row(
            "B_ours, N_i = max(rows, cols)",
            None,
            ours_widest(report, dps),
            "B_ours with C_p(W; s, N_i), N_i = max(rows, cols)",
            variant,
            "authors' code, N_i as in Thm 4.1",
            "proxy",
            proxy_note,
        ),
        Row(
            "B_ours, QK_h / sqrt(d_h)",
            None,
            scaled.ours,
            "B_ours with every QK_h divided by sqrt(d_h)",
            variant,
            "authors' code, BERT's logit scaling",
            "proxy",
            proxy_note,
        ),
        Row(
            "B_Edelman, QK_h / sqrt(d_h)",
            None,
            scaled.edelman,
            "B_Edelman with every QK_h divided by sqrt(d_h)",
            variant,
            "authors' code, BERT's logit scaling",
            "proxy",
            proxy_note,
        ),
    )
    return Comparison(
        source=report.source,
        num_layers=report.num_layers,
        hidden_size=report.hidden_size,
        num_heads=report.num_heads,
        n=n,
        delta=delta,
        margin=margin,
        tokens=T,
        rows=rows,
        positive_p={
            "B_ours": (sum(r.p_opt > 0 for r in report.matrices), len(report.matrices)),
            "assembled bound": (sum(m.p > 0 for m in assembled.matrices), len(assembled.matrices)),
        },
    )
