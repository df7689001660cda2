"""The assembled bound, reconstructed Theorem 3.1, evaluated on a model's weights (one place for it).

Provenance: reconstructed (``theory.assembled``: the paper's Theorem 3.1 was not read; each step is a
cited standard lemma or derived there, with our conservative constants). It is stated for the synthetic
transformers of ``numerics.synthetic`` (projections Pi after each sub-block, GELU, unit read-out); on a
BERT checkpoint it is only a number of the same shape, not a guarantee.

With probability >= 1 - delta over n samples of T tokens, for every network of the class,

    P(y f(x) <= 0) <= empirical ramp risk at ``margin``
                      + GAP_TERM(Sigma, n, delta, margin, m, K, T, N_max, Q, P).

What is fed to theory.assembled's formulas, all evaluated in mpmath (``theory.assembled`` docstring):
per matrix the spectral norm rounded up to its shell 2^{j/(4L)}, the input bound b, gamma, alpha (from the
rounded norms, with the assembled head factor ``theory.assembled.HEAD_LIPSCHITZ``), the scale
s = 2 K b gamma alpha / margin and N_i = max(rows, cols); the post hoc p of each matrix minimises
MATRIX_TERM(p, Shat(p), s, N_i) over P_m, Shat(p) being S_p (at p = 0 the exact rank, every nonzero
sigma_i, not the authors' tolerance rank) rounded up to a power of two; P sums PEEL_COST over the 2K
shell indices. The K matrices are the L (2H + 2) of the layers and the read-out w (:class:`ReadOut`,
gamma = b = alpha = 1), K = ``theory.assembled.MATRIX_COUNT``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import numpy as np

from numerics.bounds.composition import Number, ProxyReport, depth_factors
from numerics.bounds.proxies import default_grid_m, matrix_spectra
from numerics.bounds.schatten import schatten_power_sum
from numerics.formulas.arithmetic import MpmathArithmetic
from numerics.formulas.evaluate import (
    DEFAULT_DPS,
    argument_names,
    check_dps,
    evaluate,
    to_mpf,
)
from numerics.loading.weights import TransformerWeights
from numerics.spectra.matrices import NamedMatrix
from numerics.spectra.spectrum import Spectrum, spectrum
from theory import assembled as theorem
from theory.errors import InvalidArgument
from theory.formula import Formula
from theory.proxy import L_PHI_VALUE, MatrixKind, grid
from theory.version import installed_version

LABEL = "reconstructed Theorem 3.1"
READOUT_LABEL = "readout.w"


@dataclass(frozen=True, eq=False)
class ReadOut:
    """The read-out w of the network class as an N x 1 matrix: the K-th matrix the assembled bound covers.

    ``vector`` is the effective read-out w / max(1, ||w||) (the forward pass divides by max(1, ||w||)), so
    its norm is <= 1; make one with :func:`readout`.
    """

    vector: np.ndarray
    label: str = READOUT_LABEL

    @property
    def shape(self) -> tuple[int, int]:
        """(N, 1)."""
        return (int(self.vector.shape[0]), 1)

    def dense(self) -> np.ndarray:
        """The N x 1 matrix."""
        return self.vector.reshape(-1, 1)


def readout(w: object, hidden_size: int) -> ReadOut:
    """The effective read-out w / max(1, ||w||) of a trained model, or the class's worst case.

    ``w`` is the read-out weight (N entries, any shape with N elements) or None: a model without a trained
    read-out (a BERT checkpoint) is bounded over the whole class ||w|| <= 1, whose worst case e_1
    (spectral norm 1, rank 1, S_p = 1) dominates every member's shells; a zero read-out is bounded the same
    way.

    >>> readout(np.array([3.0, 4.0]), 2).vector.tolist()
    [0.6, 0.8]
    >>> readout(None, 3).vector.tolist()
    [1.0, 0.0, 0.0]
    """
    worst = np.zeros(hidden_size, dtype=np.float64)
    worst[0] = 1.0
    if w is None:
        return ReadOut(worst)
    vector = np.asarray(w, dtype=np.float64).reshape(-1)
    if vector.shape != (hidden_size,):
        raise InvalidArgument(
            f"read-out w has {vector.size} entries, expected the hidden size {hidden_size} (an N x 1 matrix)"
        )
    if not np.isfinite(vector).all():
        raise InvalidArgument("read-out w has NaN or infinite entries; the model diverged or is damaged")
    norm = float(np.linalg.norm(vector))
    return ReadOut(worst) if norm == 0 else ReadOut(vector / max(1.0, norm))


@dataclass(frozen=True, eq=False)
class AssembledMatrix:
    """One matrix's share of the assembled bound: rounded norm, sensitivities, chosen p and term."""

    matrix: NamedMatrix | ReadOut
    spectral_shell: int
    rounded_norm: mpmath.mpf
    input_bound: mpmath.mpf
    gamma: mpmath.mpf
    alpha: mpmath.mpf
    scale: mpmath.mpf
    dimension: int
    p: Fraction
    schatten_shell: int
    term: mpmath.mpf


@dataclass(frozen=True, eq=False)
class AssembledBound:
    """GAP_TERM of reconstructed Theorem 3.1 and every quantity it was computed from.

    ``bound(empirical_ramp_risk)`` is the right-hand side of the theorem: the measured empirical ramp
    risk at ``margin`` plus ``gap``.
    """

    label: str
    matrices: tuple[AssembledMatrix, ...]
    sigma: mpmath.mpf
    n: int
    delta: mpmath.mpf
    margin: mpmath.mpf
    tokens: int
    m: int
    matrix_count: int
    max_dimension: int
    sensitivity: mpmath.mpf
    peel_cost: mpmath.mpf
    gap: mpmath.mpf
    dps: int
    signature: str

    def bound(self, empirical_ramp_risk: object) -> mpmath.mpf:
        """empirical ramp risk + GAP_TERM (the theorem's upper bound on the 0-1 test error)."""
        with mpmath.workdps(self.dps):
            risk = to_mpf(empirical_ramp_risk, "empirical_ramp_risk")
            if not 0 <= risk <= 1:
                raise InvalidArgument(f"empirical_ramp_risk={empirical_ramp_risk!r} is outside [0, 1]")
            return risk + self.gap


def check_inputs(n: object, delta: object, margin: object, tokens: object) -> None:
    for name, value in (("n", n), ("T", tokens)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise InvalidArgument(f"{name}={value!r} must be a positive integer")
    if n * tokens < 2:  # type: ignore[operator]
        raise InvalidArgument(f"n * T = {n} * {tokens} must be >= 2 (the log factor Lambda needs it)")
    if not isinstance(delta, int | float) or not 0 < delta < 1:
        raise InvalidArgument(f"delta={delta!r} must be in (0, 1)")
    if not isinstance(margin, int | float) or not 0 < margin <= 1:
        raise InvalidArgument(f"margin={margin!r} must be in (0, 1] (fixed before training)")


def sensitivity_and_scale(
    matrix: NamedMatrix | ReadOut,
    rounded_norms: Mapping[tuple[int, int, MatrixKind], Number],
    alphas: Sequence[Number],
    count: int,
    margin: object,
    evaluate_formula: Callable[..., Number],
) -> tuple[Number, Number, Number, Number]:
    """(gamma_i, b_i, alpha_i, s_i) of one matrix (theory.assembled, reconstructed Theorem 3.1).

    gamma_i = GAMMA_SYNTHETIC[kind] and b_i = INPUT_BOUND[kind] from the rounded spectral norms of the
    matrix's layer (and of its head's Vt), alpha_i = alphas[layer]; for the read-out w: READOUT_GAMMA,
    READOUT_INPUT_BOUND and READOUT_DEPTH_FACTOR. Then s_i = SCALE(K, b_i, gamma_i, alpha_i, margin).
    Generic over the arithmetic: ``evaluate_formula(formula, **values)`` is mpmath here and arb in
    numerics.certify.
    """
    if isinstance(matrix, ReadOut):
        gamma = evaluate_formula(theorem.READOUT_GAMMA)
        b = evaluate_formula(theorem.READOUT_INPUT_BOUND)
        alpha = evaluate_formula(theorem.READOUT_DEPTH_FACTOR)
        scale = evaluate_formula(theorem.SCALE, K=count, b=b, gamma=gamma, alpha=alpha, gamma_m=margin)
        return gamma, b, alpha, scale
    layer = matrix.layer
    available = {
        "L_phi": L_PHI_VALUE,
        "C_in": rounded_norms[layer, -1, MatrixKind.M_IN],
        "C_out": rounded_norms[layer, -1, MatrixKind.M_OUT],
    }
    if matrix.kind.per_head:
        available["C_V"] = rounded_norms[layer, matrix.head, MatrixKind.VT]

    def by_name(formula: Formula) -> Number:
        return evaluate_formula(formula, **{str(a): available[str(a)] for a in formula.args})

    gamma = by_name(theorem.GAMMA_SYNTHETIC[matrix.kind])
    b = by_name(theorem.INPUT_BOUND[matrix.kind])
    alpha = alphas[layer]
    scale = evaluate_formula(theorem.SCALE, K=count, b=b, gamma=gamma, alpha=alpha, gamma_m=margin)
    return gamma, b, alpha, scale


def gap_arguments(
    sigma: object,
    n: int,
    delta: object,
    margin: object,
    m: int,
    count: int,
    tokens: int,
    max_dimension: int,
    sensitivity: object,
    peel_cost: object,
) -> dict[str, object]:
    """The arguments of ``theory.assembled.GAP_TERM`` by symbol name (one mapping for every caller).

    Sigma = sum of the per-matrix terms, K = ``count`` matrices, T = ``tokens``, N_max, Q = the largest
    sensitivity, P = the peeling cost; see ``theory.assembled.assembled_inputs_doc()``.
    """
    return {
        "Sigma": sigma,
        "n": n,
        "delta": delta,
        "gamma_m": margin,
        "m": m,
        "K": count,
        "T": tokens,
        "N_max": max_dimension,
        "Q": sensitivity,
        "P": peel_cost,
    }


ShellKey = tuple[int, int, MatrixKind] | str
"""A matrix's key in the shell tables: (layer, head, kind), or READOUT_LABEL for the read-out."""


def matrix_key(matrix: NamedMatrix | ReadOut) -> ShellKey:
    """(layer, head, kind) of a layer matrix, READOUT_LABEL for the read-out (keys of the shell tables)."""
    return matrix.label if isinstance(matrix, ReadOut) else (matrix.layer, matrix.head, matrix.kind)


def layer_norms(norms: Mapping[ShellKey, Number]) -> dict[tuple[int, int, MatrixKind], Number]:
    """The rounded norms of the layer matrices only (the depth factors do not involve the read-out)."""
    return {key: value for key, value in norms.items() if not isinstance(key, str)}


def grid_terms(
    spec: Spectrum, scale: mpmath.mpf, dimension: int, points: Sequence[Fraction], dps: int
) -> list[tuple[Fraction, int, mpmath.mpf]]:
    """(p, j, MATRIX_TERM(p, Shat_j, s, N)) at every grid point p: the Schatten sum S_p of ``spec``
    rounded up to its shell Shat_j (SCHATTEN_SHELL), then the per-matrix entropy coefficient of
    theory.assembled (reconstructed Theorem 3.1) at that shell, scale ``scale`` and dimension N.

    S_0 is the exact rank (:func:`numerics.bounds.schatten.exact_rank`: every nonzero sigma_i), not the
    authors' tolerance rank: the p = 0 term 3 N rank covers the matrix only if the rank counts all of
    its nonzero singular values."""
    sums = [schatten_power_sum(spec, q, dps=dps, exact=True) for q in points]
    return shell_terms(sums, scale, dimension, points, dps)


def shell_terms(
    schatten_sums: Sequence[mpmath.mpf],
    scale: mpmath.mpf,
    dimension: int,
    points: Sequence[Fraction],
    dps: int,
) -> list[tuple[Fraction, int, mpmath.mpf]]:
    """(p, j, MATRIX_TERM(p, Shat_j, s, N)) for given Schatten sums S_p, one per grid point (S_0 the exact
    rank): each rounded up to its shell Shat_j = 2^j (SCHATTEN_SHELL), then theory.assembled's MATRIX_TERM."""
    options = []
    for q, schatten in zip(points, schatten_sums, strict=True):
        j, rounded = _shell(theorem.SCHATTEN_SHELL_INDEX, theorem.SCHATTEN_SHELL, schatten, dps)
        options.append((q, j, evaluate(theorem.MATRIX_TERM, dps=dps, p=q, S=rounded, s=scale, N=dimension)))
    return options


def _shell(index_formula: Formula, shell_formula: Formula, value: mpmath.mpf, dps: int, **extra: object):
    """(j, shell(j)) with shell(j) >= value: the index formula, raised by one if rounding fell short."""
    j = int(evaluate(index_formula, dps=dps, **{argument_names(index_formula)[0]: value}, **extra))
    while (rounded := evaluate(shell_formula, dps=dps, j=j, **extra)) < value:
        j += 1
    return j, rounded


def _spectra_of(source: ProxyReport | TransformerWeights | Sequence[tuple[NamedMatrix, Spectrum]]):
    if isinstance(source, ProxyReport):
        return tuple((row.matrix, row.spectrum) for row in source.matrices), source.m
    if isinstance(source, TransformerWeights):
        return matrix_spectra(source), None
    return tuple(source), None


def assembled_bound(
    report_or_weights: ProxyReport | TransformerWeights | Sequence[tuple[NamedMatrix, Spectrum]],
    *,
    n: int,
    delta: float,
    margin: float,
    T: int,
    m: int | None = None,
    dps: int = DEFAULT_DPS,
    readout_weight: object = None,
) -> AssembledBound:
    """GAP_TERM of reconstructed Theorem 3.1 for these weights, with n samples of T tokens.

    ``report_or_weights``: a :class:`ProxyReport` (its spectra are reused, and its grid m unless ``m`` is
    given), :class:`TransformerWeights`, or the output of :func:`matrix_spectra`. ``margin`` is the ramp
    margin fixed before training, in (0, 1]; ``delta`` in (0, 1). ``readout_weight``: the trained
    read-out w (N entries; see :func:`readout`), None for the class's worst case ||w|| = 1.
    """
    check_dps(dps)
    check_inputs(n, delta, margin, T)
    spectra, report_m = _spectra_of(report_or_weights)
    num_layers = 1 + max(matrix.layer for matrix, _ in spectra)
    num_heads = len({matrix.head for matrix, _ in spectra if matrix.head >= 0})
    hidden_size = spectra[0][0].shape[0]
    m = m if m is not None else report_m or default_grid_m(num_layers, hidden_size)
    points = [Fraction(int(q.p), int(q.q)) for q in grid(m)]
    count = int(evaluate(theorem.MATRIX_COUNT, dps=dps, L=num_layers, H=num_heads))
    out = readout(readout_weight, hidden_size)
    entries: list[tuple[NamedMatrix | ReadOut, Spectrum]] = [*spectra, (out, spectrum(out.dense()))]

    with mpmath.workdps(dps):
        shells = {}
        for matrix, spec in entries:
            shells[matrix_key(matrix)] = _shell(
                theorem.SPECTRAL_SHELL_INDEX,
                theorem.SPECTRAL_SHELL,
                to_mpf(spec.spectral_norm, "C"),
                dps,
                L=num_layers,
            )
        rounded = layer_norms({key: value for key, (_, value) in shells.items()})
        alphas = depth_factors(MpmathArithmetic(dps), rounded, num_layers, theorem.HEAD_LIPSCHITZ)
        rows = []
        for matrix, spec in entries:
            gamma, b, alpha, scale = sensitivity_and_scale(
                matrix, rounded, alphas, count, margin, functools.partial(evaluate, dps=dps)
            )
            dimension = max(spec.shape)
            best = min(grid_terms(spec, scale, dimension, points, dps), key=lambda option: option[2])
            spectral_shell, norm = shells[matrix_key(matrix)]
            rows.append(
                AssembledMatrix(
                    matrix,
                    spectral_shell,
                    norm,
                    b,
                    gamma,
                    alpha,
                    scale,
                    dimension,
                    best[0],
                    best[1],
                    best[2],
                )
            )
        sigma = mpmath.fsum(row.term for row in rows)
        peel = mpmath.fsum(
            evaluate(theorem.PEEL_COST, dps=dps, j=row.spectral_shell)
            + evaluate(theorem.PEEL_COST, dps=dps, j=row.schatten_shell)
            for row in rows
        )
        sensitivity = max(
            evaluate(
                theorem.SENSITIVITY,
                dps=dps,
                C=row.rounded_norm,
                b=row.input_bound,
                gamma=row.gamma,
                alpha=row.alpha,
            )
            for row in rows
        )
        max_dimension = max(row.dimension for row in rows)
        gap = evaluate(
            theorem.GAP_TERM,
            dps=dps,
            **gap_arguments(sigma, n, delta, margin, m, count, T, max_dimension, sensitivity, peel),
        )
    signature = f"bound:{LABEL}|grid:m={m}|eval:mpmath-dps={dps}|version:{installed_version()}"
    return AssembledBound(
        LABEL, tuple(rows), sigma, n, to_mpf(delta, "delta"), to_mpf(margin, "margin"), T, m, count,
        max_dimension, sensitivity, peel, gap, dps, signature,
    )  # fmt: skip
