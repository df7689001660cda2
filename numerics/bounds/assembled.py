"""The assembled bound, reconstructed Theorem 3.1, evaluated on a model's weights (one place for it).

Provenance: reconstructed (``theory.assembled``: the paper's Theorem 3.1 was not read; each step is a
cited standard lemma or derived there, with our conservative constants). It is stated for the synthetic
transformers of ``numerics.synthetic`` (projections Pi after each sub-block, GELU, unit read-out); on a
BERT checkpoint it is only a number of the same shape, not a guarantee.

With probability >= 1 - delta over n samples of T tokens, for every network of the class,

    P(y f(x) <= 0) <= empirical ramp risk at ``margin``
                      + GAP_TERM(Sigma, n, delta, margin, m, K, T, N_max, Q, P).

What is fed to theory.assembled's formulas (``theory.assembled`` docstring), composed once by
:func:`compose_assembled` over an :class:`AssembledArithmetic` (mpmath here, :func:`assembled_bound`; arb
balls in :func:`numerics.certify.assembled.certify_assembled`):
per matrix the spectral norm rounded up to its shell 2^{j/(4L)}, the input bound b, gamma, alpha (from the
rounded norms, with the assembled head factor ``theory.assembled.HEAD_LIPSCHITZ``), the scale
s = 2 K b gamma alpha / margin and N_i = max(rows, cols); the post hoc p of each matrix minimises
MATRIX_TERM(p, Shat(p), s, N_i) over P_m, Shat(p) being S_p (at p = 0 the exact rank, every nonzero
sigma_i, not the authors' tolerance rank) rounded up to a power of two; P sums PEEL_COST over the 2K
shell indices. The K matrices are the L (2H + 2) of the layers and the read-out w (:class:`ReadOut`,
gamma = b = alpha = 1), K = ``theory.assembled.MATRIX_COUNT``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Generic, Protocol, TypeVar

import mpmath
import numpy as np

from numerics.bounds.composition import Number, ProxyReport, Spectral, depth_factors
from numerics.bounds.schatten import MpmathSpectra, schatten_power_sum
from numerics.formulas.arithmetic import Arithmetic
from numerics.formulas.evaluate import DEFAULT_DPS, argument_names, check_dps
from numerics.formulas.generated import GRID_M
from numerics.loading.weights import TransformerWeights
from numerics.spectra.matrices import NamedMatrix
from numerics.spectra.model import GIVEN_BACKEND, ModelSpectra, model_spectra
from numerics.spectra.spectrum import Spectrum, spectrum
from theory import assembled as theorem
from theory.errors import InvalidArgument
from theory.formula import Formula
from theory.grid import grid_fractions
from theory.proxy import L_PHI_VALUE, MatrixKind
from theory.records import record
from theory.version import installed_version

SpectralIn = TypeVar("SpectralIn", contravariant=True)

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


@dataclass(frozen=True, eq=False, kw_only=True)
class AssembledMatrix(Generic[Number, Spectral]):
    """One matrix's share of the assembled bound in one arithmetic: its spectrum (a Spectrum in mpmath, a
    certified enclosure in arb), rounded norm, sensitivities, chosen p (with every grid point that may
    attain the minimum: one in mpmath) and term."""

    matrix: NamedMatrix | ReadOut
    spectrum: Spectral
    spectral_shell: int
    rounded_norm: Number
    input_bound: Number
    gamma: Number
    alpha: Number
    scale: Number
    dimension: int
    p: Fraction
    candidates: tuple[Fraction, ...]
    schatten_shell: int
    term: Number


@dataclass(frozen=True, eq=False, kw_only=True)
class AssembledBound(Generic[Number, Spectral]):
    """GAP_TERM of reconstructed Theorem 3.1 in one arithmetic and every quantity it was computed from.

    ``bound(empirical_ramp_risk)`` is the right-hand side of the theorem: the measured empirical ramp
    risk at ``margin`` plus ``gap``. ``dps`` and ``signature`` describe an mpmath evaluation (None and ""
    for balls).
    """

    label: str
    matrices: tuple[AssembledMatrix[Number, Spectral], ...] = field(repr=False)  # the repr stays short
    sigma: Number
    n: int
    delta: Number
    margin: Number
    tokens: int
    m: int
    matrix_count: int
    max_dimension: int
    sensitivity: Number
    peel_cost: Number
    gap: Number
    arithmetic: Arithmetic[Number] = field(repr=False)
    dps: int | None = None
    signature: str = ""
    margin_index: int | None = None
    """With the margin chosen after training (theory.margin_union): k, the bound's ``margin`` being the
    dyadic 2^-k <= the measured margin and ``peel_cost`` including PEEL_COST(k); None for a margin fixed in
    advance."""

    def bound(self, empirical_ramp_risk: object) -> Number:
        """empirical ramp risk + GAP_TERM (the theorem's upper bound on the 0-1 test error)."""
        with self.arithmetic.context():
            risk = self.arithmetic.number(empirical_ramp_risk, "empirical_ramp_risk")
            if not (risk >= 0 and risk <= 1):
                raise InvalidArgument(f"empirical_ramp_risk={empirical_ramp_risk!r} is outside [0, 1]")
            return risk + self.gap


class AssembledArithmetic(Arithmetic[Number], Protocol[Number, SpectralIn]):
    """An :class:`~numerics.formulas.arithmetic.Arithmetic` with what the assembled bound needs of spectra."""

    def readout_spectrum(self, out: ReadOut) -> Any:
        """What the arithmetic knows of the read-out's spectrum (its one singular value ||w||)."""
        ...

    def shell(self, index: Formula, shell: Formula, value: Number, **extra: object) -> tuple[int, Number]:
        """(j, shell(j)) with shell(j) >= value (certainly, for balls): the index formula's j, raised."""
        ...

    def schatten_sums(self, spectrum: SpectralIn, points: Sequence[Fraction]) -> list[Number]:
        """S_p of the matrix at every grid point, S_0 the exact rank (every nonzero sigma_i)."""
        ...

    def least(
        self, options: Sequence[tuple[Fraction, int, Number]]
    ) -> tuple[tuple[Fraction, int, Number], tuple[Fraction, ...]]:
        """The chosen (p, j, term) among the grid ``options``, and the grid points that may attain the
        minimum."""
        ...


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


def dyadic_margin(margin: float) -> tuple[int, float]:
    """(k, 2^-k) with k = MARGIN_SHELL_INDEX(margin) = ceil(log2(1/margin)) (theory.margin_union), decided
    exactly: the smallest k >= 0 with 2^-k <= margin (a float is a dyadic rational, so no rounding)."""
    exact, k = Fraction(margin), 0
    while Fraction(1, 2**k) > exact:
        k += 1
    return k, 2.0**-k


@record(eq=False, kw_only=True)
class AssembledSetting:
    """Where reconstructed Theorem 3.1 is evaluated, besides the model's spectra: n samples of T tokens,
    confidence 1 - delta, the ramp ``margin``, the grid P_m (``m`` None: ceil(L + ln N)), with the margin
    chosen after training ``margin_index`` k (the margin is then the dyadic 2^-k, theory.margin_union;
    None for a margin fixed in advance), and the read-out w (``readout_weight``, N entries; None for the
    class's worst case, :func:`readout`). Make one with :meth:`of`, which checks the values."""

    n: int
    delta: float
    margin: float
    T: int
    m: int | None = None
    margin_index: int | None = None
    readout_weight: object = None

    @classmethod
    def of(
        cls,
        *,
        n: int,
        delta: float,
        margin: float,
        T: int,
        m: int | None = None,
        readout_weight: object = None,
        margin_after_training: bool = False,
    ) -> AssembledSetting:
        """The setting, its values checked (:func:`check_inputs`); with ``margin_after_training`` the
        measured ``margin`` is replaced by the dyadic 2^-k <= it (:func:`dyadic_margin`)."""
        check_inputs(n, delta, margin, T)
        margin_index = None
        if margin_after_training:
            margin_index, margin = dyadic_margin(margin)
        return cls(
            n=n,
            delta=delta,
            margin=margin,
            T=T,
            m=m,
            margin_index=margin_index,
            readout_weight=readout_weight,
        )


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


def shell_options(
    arithmetic: AssembledArithmetic[Number, Any],
    schatten_sums: Sequence[Number],
    scale: Number,
    dimension: int,
    points: Sequence[Fraction],
) -> list[tuple[Fraction, int, Number]]:
    """(p, j, MATRIX_TERM(p, Shat_j, s, N)) for given Schatten sums S_p, one per grid point (S_0 the exact
    rank): each rounded up to its shell Shat_j = 2^j (SCHATTEN_SHELL), then theory.assembled's MATRIX_TERM."""
    options = []
    for q, schatten in zip(points, schatten_sums, strict=True):
        j, rounded = arithmetic.shell(theorem.SCHATTEN_SHELL_INDEX, theorem.SCHATTEN_SHELL, schatten)
        options.append((q, j, arithmetic.evaluate(theorem.MATRIX_TERM, p=q, S=rounded, s=scale, N=dimension)))
    return options


def compose_assembled(
    arithmetic: AssembledArithmetic[Number, Spectral],
    spectra: ModelSpectra[Any],
    setting: AssembledSetting,
) -> AssembledBound[Number, Spectral]:
    """GAP_TERM of reconstructed Theorem 3.1 over the K matrices of ``spectra`` and the read-out of
    ``setting`` (the K-th, last) in ``arithmetic`` (module docstring): shells of the spectral norms, depth
    factors of the rounded norms, per matrix gamma, b, alpha, s and the post hoc term over P_m, then
    Sigma = sum_i term_i, P = sum_i (PEEL_COST(j_i) + PEEL_COST(j'_i)), Q = max_i SENSITIVITY_i and
    GAP_TERM, at the setting's n, delta, margin, T and m (None: ceil(L + ln N)); its ``margin_index`` k
    (the margin then being 2^-k, theory.margin_union) adds PEEL_COST(k) to P."""
    if any(matrix.expert is not None for matrix, _ in spectra.matrices):
        raise InvalidArgument(
            "the assembled bound (reconstructed Theorem 3.1) counts K = L (2H + 2) + 1 matrices of dense "
            "layers; a mixture-of-experts model has only the proxies (specbound bound)"
        )
    num_layers, num_heads, hidden_size = spectra.num_layers, spectra.num_heads, spectra.hidden_size
    out = readout(setting.readout_weight, hidden_size)
    entries: list[tuple[NamedMatrix | ReadOut, Any]] = [
        *spectra.matrices,
        (out, arithmetic.readout_spectrum(out)),
    ]
    n, delta, margin, T, m = setting.n, setting.delta, setting.margin, setting.T, setting.m
    margin_index = setting.margin_index
    with arithmetic.context():
        if m is None:
            m = arithmetic.integer(GRID_M, "m = ceil(L + ln N)", L=num_layers, N=hidden_size)
        points = grid_fractions(m)
        count = arithmetic.integer(theorem.MATRIX_COUNT, "K", L=num_layers, H=num_heads)
        shells = {
            matrix_key(matrix): arithmetic.shell(
                theorem.SPECTRAL_SHELL_INDEX,
                theorem.SPECTRAL_SHELL,
                arithmetic.number(spec.spectral_norm, "C"),
                L=num_layers,
            )
            for matrix, spec in entries
        }
        rounded = layer_norms({key: value for key, (_, value) in shells.items()})
        alphas = depth_factors(arithmetic, rounded, num_layers, theorem.HEAD_LIPSCHITZ)
        rows = []
        for matrix, spec in entries:
            gamma, b, alpha, scale = sensitivity_and_scale(
                matrix, rounded, alphas, count, margin, arithmetic.evaluate
            )
            dimension = max(matrix.shape)
            sums = arithmetic.schatten_sums(spec, points)
            options = shell_options(arithmetic, sums, scale, dimension, points)
            (q, j, term), candidates = arithmetic.least(options)
            spectral_shell, norm = shells[matrix_key(matrix)]
            rows.append(
                AssembledMatrix(
                    matrix=matrix,
                    spectrum=spec,
                    spectral_shell=spectral_shell,
                    rounded_norm=norm,
                    input_bound=b,
                    gamma=gamma,
                    alpha=alpha,
                    scale=scale,
                    dimension=dimension,
                    p=q,
                    candidates=candidates,
                    schatten_shell=j,
                    term=term,
                )
            )
        sigma = arithmetic.total(row.term for row in rows)
        peel = arithmetic.total(
            arithmetic.evaluate(theorem.PEEL_COST, j=row.spectral_shell)
            + arithmetic.evaluate(theorem.PEEL_COST, j=row.schatten_shell)
            for row in rows
        )
        if margin_index is not None:
            peel = peel + arithmetic.evaluate(theorem.PEEL_COST, j=margin_index)
        sensitivity = arithmetic.maximum(
            arithmetic.evaluate(
                theorem.SENSITIVITY, C=row.rounded_norm, b=row.input_bound, gamma=row.gamma, alpha=row.alpha
            )
            for row in rows
        )
        max_dimension = max(row.dimension for row in rows)
        gap = arithmetic.evaluate(
            theorem.GAP_TERM,
            **gap_arguments(sigma, n, delta, margin, m, count, T, max_dimension, sensitivity, peel),
        )
        return AssembledBound(
            label=LABEL,
            matrices=tuple(rows),
            sigma=sigma,
            n=n,
            delta=arithmetic.number(delta, "delta"),
            margin=arithmetic.number(margin, "margin"),
            tokens=T,
            m=m,
            matrix_count=count,
            max_dimension=max_dimension,
            sensitivity=sensitivity,
            peel_cost=peel,
            gap=gap,
            arithmetic=arithmetic,
            margin_index=margin_index,
        )


class MpmathAssembledArithmetic(MpmathSpectra):
    """The mpmath :class:`AssembledArithmetic` of :func:`assembled_bound`: shells by the index formula,
    Schatten sums of the stored spectrum, and the grid point of the smallest term (the first on ties)."""

    def readout_spectrum(self, out: ReadOut) -> Spectrum:
        """The read-out's float64 spectrum (:func:`numerics.spectra.spectrum.spectrum` of N x 1 w)."""
        return spectrum(out.dense())

    def shell(
        self, index: Formula, shell: Formula, value: mpmath.mpf, **extra: object
    ) -> tuple[int, mpmath.mpf]:
        """(j, shell(j)) with shell(j) >= value: the index formula, raised by one if rounding fell short;
        j = 0 for value 0 (a pruned head's norm or rank: every shell contains it, j = 0 peels cheapest)."""
        if not value > 0:
            return 0, self.evaluate(shell, j=0, **extra)
        j = int(self.evaluate(index, **{argument_names(index)[0]: value}, **extra))
        while (rounded := self.evaluate(shell, j=j, **extra)) < value:
            j += 1
        return j, rounded

    def schatten_sums(self, spectrum: Spectrum, points: Sequence[Fraction]) -> list[mpmath.mpf]:
        """S_p at every grid point, S_0 the exact rank (:func:`numerics.bounds.schatten.exact_rank`: every
        nonzero sigma_i, not the authors' tolerance rank: the p = 0 term 3 N rank covers the matrix only
        if the rank counts all of its nonzero singular values)."""
        return [schatten_power_sum(self, spectrum, q, exact=True) for q in points]

    def least(
        self, options: Sequence[tuple[Fraction, int, mpmath.mpf]]
    ) -> tuple[tuple[Fraction, int, mpmath.mpf], tuple[Fraction, ...]]:
        """The option of the smallest term (the first, i.e. the smallest p, on ties); it alone attains it."""
        best = min(options, key=lambda option: option[2])
        return best, (best[0],)


def grid_terms(
    spec: Spectrum, scale: mpmath.mpf, dimension: int, points: Sequence[Fraction], dps: int
) -> list[tuple[Fraction, int, mpmath.mpf]]:
    """(p, j, MATRIX_TERM(p, Shat_j, s, N)) at every grid point p in mpmath: :func:`shell_options` of the
    stored spectrum's Schatten sums (:meth:`MpmathAssembledArithmetic.schatten_sums`)."""
    arithmetic = MpmathAssembledArithmetic(dps)
    with arithmetic.context():
        return shell_options(arithmetic, arithmetic.schatten_sums(spec, points), scale, dimension, points)


def shell_terms(
    schatten_sums: Sequence[mpmath.mpf],
    scale: mpmath.mpf,
    dimension: int,
    points: Sequence[Fraction],
    dps: int,
) -> list[tuple[Fraction, int, mpmath.mpf]]:
    """:func:`shell_options` in mpmath at ``dps`` digits for given Schatten sums."""
    arithmetic = MpmathAssembledArithmetic(dps)
    with arithmetic.context():
        return shell_options(arithmetic, schatten_sums, scale, dimension, points)


def assembled_bound(
    report_or_weights: ProxyReport
    | TransformerWeights
    | Sequence[tuple[NamedMatrix, Spectrum]]
    | ModelSpectra[Any],
    *,
    n: int,
    delta: float,
    margin: float,
    T: int,
    m: int | None = None,
    dps: int = DEFAULT_DPS,
    readout_weight: object = None,
    margin_after_training: bool = False,
) -> AssembledBound[mpmath.mpf, Spectrum]:
    """GAP_TERM of reconstructed Theorem 3.1 for these weights, with n samples of T tokens, in mpmath.

    ``report_or_weights``: a :class:`ProxyReport` (its spectra are reused, and its grid m unless ``m`` is
    given), or anything :func:`numerics.spectra.model.model_spectra` reads (:class:`TransformerWeights`,
    the output of :func:`numerics.spectra.model.matrix_spectra`, a ModelSpectra). ``margin`` is the ramp
    margin fixed before training, in (0, 1]; ``delta`` in (0, 1). ``readout_weight``: the trained
    read-out w (N entries; see :func:`readout`), None for the class's worst case ||w|| = 1. With
    ``margin_after_training``, ``margin`` may be measured after training: the bound is theory.margin_union's,
    GAP_TERM at the dyadic margin 2^-k <= ``margin`` (:func:`dyadic_margin`) with PEEL_COST(k) added to P,
    to be added to the empirical ramp risk at ``margin`` itself.
    """
    check_dps(dps)
    setting = AssembledSetting.of(
        n=n,
        delta=delta,
        margin=margin,
        T=T,
        m=m,
        readout_weight=readout_weight,
        margin_after_training=margin_after_training,
    )
    if isinstance(report_or_weights, ProxyReport):
        rows = [(row.matrix, row.spectrum) for row in report_or_weights.matrices]
        spectra = ModelSpectra.of(rows, source=report_or_weights.source, backend=GIVEN_BACKEND)
        if m is None:
            setting = dataclasses.replace(setting, m=report_or_weights.m)
    else:
        spectra = model_spectra(report_or_weights)
    bound = compose_assembled(MpmathAssembledArithmetic(dps), spectra, setting)
    signature = f"bound:{LABEL}|grid:m={bound.m}|eval:mpmath-dps={dps}|version:{installed_version()}"
    return dataclasses.replace(bound, dps=dps, signature=signature)
