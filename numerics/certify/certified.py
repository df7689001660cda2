"""Certified proxies: every quantity of docs: proxies as a ball that provably contains its exact value.

Pipeline (each step rigorous, each number a ball):

1. per matrix, enclosures of its singular values and its (2,1) norm, by default from float64 products
   with rigorous error bounds (:mod:`numerics.certify.fast`), per matrix falling back to products in
   arb (:mod:`numerics.certify.enclosure` for M_in/M_out, :mod:`numerics.certify.thin` for QK_h/Vt_h,
   :mod:`numerics.certify.norms`; :func:`certify_matrix` says when), and the numerical rank as an
   interval (:mod:`numerics.certify.rank`); every result is a float interval rounded outward, so the
   default path runs the layers without a ball library and python-flint is first imported by step 2;
2. S_p = sum_i sigma_i^p over the enclosures for p > 0 (x -> x^p is increasing, so each term lies in
   [lo^p, hi^p]); S_0 = the rank interval (exact definition, docs: notation);
3. head and layer Lipschitz factors, alpha_l, gamma, s, the summand on the grid P_m, xi_l and both
   proxies: the one composition of :func:`numerics.bounds.composition.compose_proxies` (theory's
   Formulas, provenance ``exact``) in arb (:class:`ArbSpectralArithmetic`);
4. the post hoc minimum over P_m of balls c_p is the ball [min_p lo_p, min_p hi_p]; every p with
   lo_p <= min_p hi_p may attain it (the set is a single p when the choice is decided);
5. verdicts (B_ours < B_Edelman) are decided by the balls, or reported as undecided.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import dataclasses
import functools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import reduce
from typing import TYPE_CHECKING

import numpy as np

from numerics.bounds.composition import MatrixProxy, ProxyReport, compose_proxies
from numerics.bounds.schatten import schatten_power_sum
from numerics.certify.balls import arb_type, flint_context, interval, outward
from numerics.certify.directed import down, product_up
from numerics.certify.enclosure import SingularValueEnclosure, certify_dense
from numerics.certify.fast import (
    APRIORI_BOUNDS,
    FloatCertificate,
    certify_dense_fast,
    certify_gram_fast,
    certify_product_fast,
    norm_21_dense_fast,
    norm_21_product_apriori,
    norm_21_product_fast,
)
from numerics.certify.float_bounds import FastPathUnavailable
from numerics.certify.interval_eval import ArbArithmetic, interval_evaluator, to_ball
from numerics.certify.norms import norm_21_dense, norm_21_product
from numerics.certify.rank import RankInterval, certified_numerical_rank, certified_rank
from numerics.certify.thin import Factorization, batched_qr, certify_product
from numerics.formulas.generated import GRID_M, SUMMAND
from numerics.loading.stream import Checkpoint
from numerics.loading.weights import TransformerWeights
from numerics.progress import progress
from numerics.spectra.gram import GRAM_RTOL
from numerics.spectra.matrices import NamedMatrix, Place, layer_matrices
from numerics.spectra.model import DEFAULT_OPTIONS, ModelSpectra, SpectraOptions, model_spectra
from theory.errors import CertificationFailed, InvalidArgument
from theory.grid import grid_fractions

if TYPE_CHECKING:
    from flint import arb


APRIORI_PATH = "float-apriori"
"""Certificate path: products formed once in float64 and bounded a priori (Higham's gamma_k,
:data:`numerics.certify.fast.APRIORI_BOUNDS`): a dense matrix through its Gram matrix, a product through
its QR factors and core; the cheapest, taken by AUTO_PATH only."""
GRAM_PATH = "float-gram"
"""Certificate path of a dense matrix: its Gram matrix's eigendecomposition, products formed in float64 with
rigorous error bounds (:func:`numerics.certify.fast.certify_gram_fast`); taken by AUTO_PATH only."""
FLOAT_PATH = "float-bounds"
"""Certificate path: products formed in float64 with rigorous error bounds (:mod:`numerics.certify.fast`)."""
ARB_PATH = "arb"
"""Certificate path: products formed in arb (:mod:`numerics.certify.enclosure`, :mod:`~.thin`)."""
AUTO_PATH = "auto"
"""The float-bounds path, falling back per matrix to arb (see :func:`certify_matrix`)."""
PATHS = (AUTO_PATH, FLOAT_PATH, ARB_PATH)
"""The paths a caller may ask for."""
TAKEN_PATHS = (APRIORI_PATH, GRAM_PATH, FLOAT_PATH, ARB_PATH)
"""The paths a certified matrix may report, cheapest first."""


@dataclass(frozen=True, eq=False)
class CertifiedMatrix:
    """One matrix with certified spectrum: singular-value enclosures, rank intervals and (2,1) norm
    (``norm_21_bounds``: floats lo <= ||W||_{2,1} <= hi); ``path`` is the certificate path that produced
    them (one of TAKEN_PATHS)."""

    matrix: NamedMatrix
    enclosure: SingularValueEnclosure
    rank: RankInterval
    exact_rank: RankInterval
    norm_21_bounds: tuple[float, float]
    path: str = ARB_PATH

    @property
    def norm_21(self) -> arb:
        """A ball containing ||W||_{2,1} (the float bounds, exactly)."""
        arb = arb_type()

        return interval(arb(self.norm_21_bounds[0]), arb(self.norm_21_bounds[1]))

    @property
    def spectral_norm(self) -> arb:
        """A ball containing C2(W) = sigma_1."""
        return self.enclosure.spectral_norm

    @property
    def frobenius_norm(self) -> arb:
        """A ball containing ||W||_F = (sum_i sigma_i^2)^{1/2}."""
        with flint_context():
            return schatten_power_sum(ArbSpectra(), self, 2).sqrt()


def certify_matrix(
    matrix: NamedMatrix,
    factorizations: tuple[Factorization, Factorization] | None = None,
    *,
    path: str = AUTO_PATH,
) -> CertifiedMatrix:
    """Certify one named matrix (a thin product through its core, a dense one through its SVD).

    ``path``: FLOAT_PATH (products bounded in floating point, :mod:`numerics.certify.fast`), ARB_PATH
    (products in arb), or AUTO_PATH: first the a priori certificate (APRIORI_PATH), then for a dense
    matrix the Gram certificate with split products (GRAM_PATH,
    :func:`numerics.certify.fast.certify_gram_fast`), then the float path, then the arb path, each taken
    unless it does not apply to the input (exponent range), is loose (:mod:`numerics.certify.fast`) or
    leaves the authors' numerical rank undecided. All are rigorous; the choice only trades time for width.
    ``factorizations`` are optional precomputed QR factors of a product's two factors. Errors are
    re-raised with the matrix label.
    """
    if path not in PATHS:
        raise InvalidArgument(f"path={path!r} is not one of {', '.join(PATHS)}")
    try:
        if path != ARB_PATH:
            try:
                fast_result = _float_certified(matrix, factorizations, path)
            except FastPathUnavailable:
                if path == FLOAT_PATH:
                    raise
            else:
                if fast_result is not None:
                    return fast_result
        if matrix.right is not None:
            enclosure = certify_product(matrix.left, matrix.right, factorizations)
            norm_21 = outward(norm_21_product(matrix.left, matrix.right))
        else:
            dense = matrix.dense()  # a gated M_in's two column blocks side by side
            enclosure = certify_dense(dense)
            norm_21 = outward(norm_21_dense(dense))
    except CertificationFailed as error:
        raise CertificationFailed(f"matrix {matrix.label}: {error}") from None
    return CertifiedMatrix(
        matrix, enclosure, certified_numerical_rank(enclosure), certified_rank(enclosure), norm_21, ARB_PATH
    )


def _float_certified(
    matrix: NamedMatrix, factorizations: tuple[Factorization, Factorization] | None, path: str
) -> CertifiedMatrix | None:
    """The first float certificate :func:`certify_matrix` accepts on ``path`` (AUTO_PATH: a priori, then for
    a dense matrix Gram with split products, then SVD), or None; FastPathUnavailable when the float path
    does not apply at all. On AUTO_PATH a product's (2,1) norm is bounded a priori too."""
    left, right = matrix.left, matrix.right
    candidates: list[tuple[str, Callable[[], FloatCertificate]]]
    auto = path == AUTO_PATH
    if right is not None:
        norm_21 = norm_21_product_apriori(left, right) if auto else norm_21_product_fast(left, right)
        candidates = [(FLOAT_PATH, lambda: certify_product_fast(left, right, factorizations))]
        if auto:
            candidates.insert(
                0,
                (
                    APRIORI_PATH,
                    lambda: certify_product_fast(left, right, factorizations, bounds=APRIORI_BOUNDS),
                ),
            )
    else:
        dense = matrix.dense()  # a gated M_in's two column blocks side by side, as the arb path takes it
        norm_21 = norm_21_dense_fast(dense)
        candidates = [(FLOAT_PATH, lambda: certify_dense_fast(dense))]
        if auto:
            candidates[:0] = [
                (APRIORI_PATH, lambda: certify_gram_fast(dense, bounds=APRIORI_BOUNDS)),
                (GRAM_PATH, lambda: certify_gram_fast(dense)),
            ]
    for taken, certify in candidates:
        try:
            fast = certify()
        except FastPathUnavailable:
            if taken == FLOAT_PATH:
                raise
            continue
        numerical = certified_numerical_rank(fast.enclosure)
        if path == FLOAT_PATH or not (fast.loose or not numerical.decided):
            exact = certified_rank(fast.enclosure)
            return CertifiedMatrix(matrix, fast.enclosure, numerical, exact, norm_21, taken)
    return None


class ArbSpectra(ArbArithmetic):
    """The arb :class:`numerics.bounds.schatten.SchattenArithmetic` of a :class:`CertifiedMatrix`: each
    sigma_i in [lo, hi] with lo >= 0 (the enclosure's floats, exactly) contributes [lo^p, hi^p]
    (monotonicity of x^p for p > 0; 0^p = 0);
    structural zeros contribute nothing; S_0 is the numerical (or, ``exact``, the exact) rank interval.

    >>> import numpy as np
    >>> from numerics.bounds.schatten import schatten_power_sum
    >>> from numerics.spectra.matrices import NamedMatrix
    >>> from theory.proxy import MatrixKind
    >>> c = certify_matrix(NamedMatrix(0, -1, MatrixKind.M_IN, np.diag([4.0, 1.0])))
    >>> s = ArbSpectra()
    >>> schatten_power_sum(s, c, Fraction(1, 2)).contains(3), schatten_power_sum(s, c, 0).contains(2)
    (True, True)
    """

    def rank(self, spectrum: CertifiedMatrix, exact: bool) -> arb:
        """The rank interval as a ball: the authors' numerical rank, or with ``exact`` the exact rank."""
        arb = arb_type()

        rank = spectrum.exact_rank if exact else spectrum.rank
        return interval(arb(rank.lo), arb(rank.hi))

    def power_terms(self, spectrum: CertifiedMatrix, exponent: arb) -> Iterator[arb]:
        """[lo^p, hi^p] for every singular-value enclosure [lo, hi]."""
        arb = arb_type()

        enclosure = spectrum.enclosure
        for low, high in zip(enclosure.lower.tolist(), enclosure.upper.tolist(), strict=True):
            lower, upper = arb(low), arb(high)
            low_power = arb(0) if not lower > 0 else lower**exponent
            yield interval(low_power, upper**exponent)


def grid_schatten_sums(certified: CertifiedMatrix, points: tuple[Fraction, ...]) -> tuple[arb, ...]:
    """:func:`numerics.bounds.schatten.schatten_power_sum` (:class:`ArbSpectra`) at every grid point
    p = k / q (common denominator q), sharing the work:
    sigma^{k/q} = (sigma^{1/q})^k for sigma >= 0, so each enclosure endpoint needs one q-th root and the
    powers follow by ball multiplication (inclusion-isotone, so each ball still contains its power).

    The lower ends and the upper ends are summed apart: sum_i lo_i^p <= S_p <= sum_i hi_i^p (x -> x^p is
    increasing on [0, oo) for p > 0, and lo_i <= sigma_i <= hi_i), so S_p lies in the union of the two
    sums' balls. That is the interval arb would reach by summing the per-value unions [lo_i^p, hi_i^p],
    without rounding each union's radius up (30 bits) on every addition, and with additions in place of
    the unions (each about three times an addition's cost).

    >>> import numpy as np
    >>> from numerics.spectra.matrices import NamedMatrix
    >>> from theory.proxy import MatrixKind
    >>> c = certify_matrix(NamedMatrix(0, -1, MatrixKind.M_IN, np.diag([4.0, 1.0])))
    >>> sums = grid_schatten_sums(c, (Fraction(0), Fraction(1, 2), Fraction(1)))
    >>> [s.contains(v) for s, v in zip(sums, (2, 3, 5))]
    [True, True, True]
    """
    q = math.lcm(*(p.denominator for p in points))
    steps = [int(p * q) for p in points]
    if any(not 0 <= k <= 2 * q for k in steps):
        raise InvalidArgument(f"grid points {points} are not in [0, 2]")
    with flint_context():
        enclosure = certified.enclosure
        lower, upper = (_power_sums(x.tolist(), q, max(steps)) for x in (enclosure.lower, enclosure.upper))
        arb = arb_type()
        return tuple(
            interval(arb(certified.rank.lo), arb(certified.rank.hi)) if k == 0 else lower[k].union(upper[k])
            for k in steps
        )


def _power_sums(values: list[float], q: int, top: int) -> list[arb]:
    """[sum_i x_i^{k/q} for k = 0, ..., top] as balls, for the floats x_i >= 0 (entry 0 unused: 0): one
    q-th root per value (arb's root of 0 is nan, so 0 contributes 0), then its powers by multiplication.
    Call inside :func:`numerics.certify.balls.flint_context`."""
    arb = arb_type()

    zero, one = arb(0), arb(1)  # balls are immutable: shared as every value's starting ones
    totals = [zero] * (top + 1)
    for value in values:
        if not value > 0:
            continue
        root, power = arb(value).root(q), one
        for k in range(1, top + 1):
            power = power * root
            totals[k] += power
    return totals


@dataclass(frozen=True, eq=False, kw_only=True)
class BallChoice:
    """The post hoc choice of one matrix over P_m in balls: ``values[i]`` is the ball of the summand at
    ``points[i]``, ``minimum`` contains min_{p in P_m} C_p and ``candidates`` are the grid points whose
    ball reaches below the smallest upper end (those that may attain it)."""

    points: tuple[Fraction, ...]
    values: tuple[arb, ...]
    minimum: arb
    candidates: tuple[Fraction, ...]

    @property
    def decided(self) -> bool:
        """True when exactly one grid point can attain the minimum."""
        return len(self.candidates) == 1


class ArbSpectralArithmetic(ArbSpectra):
    """Arb balls with the post hoc minimum over the grid ``points`` of certified enclosures (the
    :class:`numerics.bounds.composition.SpectralArithmetic` of :func:`certify_proxies`): the minimum of
    balls c_p is the ball [min_p lo_p, min_p hi_p] (step 4 of the module docstring)."""

    def __init__(self, points: tuple[Fraction, ...]) -> None:
        self.points = points

    def post_hoc(self, spectrum: CertifiedMatrix, scale: arb, hidden_size: int) -> tuple[BallChoice, arb]:
        """(the :class:`BallChoice` of the matrix, the ball of its minimum): SUMMAND's ball at every grid
        point (:func:`interval_evaluate`'s, its argument check made once per matrix)."""
        summand = interval_evaluator(SUMMAND, ("p", "S", "s", "N"))
        with flint_context():
            hidden = to_ball(hidden_size, "N")
            values = tuple(
                summand(to_ball(p, "p"), sums, scale, hidden)
                for p, sums in zip(self.points, grid_schatten_sums(spectrum, self.points), strict=True)
            )
        minimum = reduce(lambda x, y: x.min(y), values)
        top = minimum.upper()
        candidates = tuple(p for p, v in zip(self.points, values, strict=True) if v.lower() <= top)
        return BallChoice(points=self.points, values=values, minimum=minimum, candidates=candidates), minimum


CertifiedMatrixProxy = MatrixProxy["arb", CertifiedMatrix, BallChoice]
"""One matrix's certified share of the proxies (a row of :data:`CertifiedProxies`)."""

CertifiedProxies = ProxyReport["arb", CertifiedMatrix, BallChoice]
"""B_ours and B_Edelman of a model as balls (:func:`certify_proxies`); ``ours_below_edelman`` is True /
False when the balls decide B_ours < B_Edelman, None when undecided."""


def grid_size(num_layers: int, hidden_size: int) -> int:
    """m = ceil(L + ln N) from theory's GRID_M, decided in ball arithmetic (else CertificationFailed)."""
    what = f"m = ceil(L + ln N) for L={num_layers}, N={hidden_size}"
    return ArbArithmetic().integer(GRID_M, what, L=num_layers, N=hidden_size)


def certify_matrices(
    weights: TransformerWeights | Checkpoint, *, show_progress: bool = False, path: str = AUTO_PATH
) -> list[CertifiedMatrix]:
    """Every matrix of the bound (:func:`numerics.spectra.matrices.extract_matrices` order) certified, one
    layer at a time.

    A lazily opened checkpoint is streamed: each layer is read, certified and dropped before the next is
    read, and its certified matrices keep their place and shape, not their values
    (:meth:`NamedMatrix.released`), so memory holds one layer plus the enclosures, as the plain run does.
    A layer's dense matrices are certified first and (streamed) released before the per-head work, so the
    dense certificates' temporaries and the heads' QR factors are never held together. The QR factors of
    a layer's per-head products come from stacked LAPACK calls (:func:`batched_qr`: the per-call overhead
    of small QRs dominates on a loaded machine), :data:`QR_BATCH` products at a time; each is certified
    per matrix.
    """
    streamed = isinstance(weights, Checkpoint)
    kv_heads = weights.kv_heads
    # the loop runs over indices and reads each layer in its body: an iterator of layers (enumerate's
    # reused tuple, a progress generator's loop variable) would hold the previous layer during the next read
    indices = range(weights.num_layers)
    certified: list[CertifiedMatrix] = []
    for index in progress(indices, label="certify", unit="layer") if show_progress else indices:
        layer = weights.layer(index) if isinstance(weights, Checkpoint) else weights.layers[index]
        matrices = list(layer_matrices(index, layer, weights.num_heads, kv_heads))
        del layer  # the matrices' views keep what is needed, released with them
        certified.extend(_certified_layer(matrices, path, streamed))
        del matrices
    return certified


def _certified_layer(
    matrices: list[NamedMatrix],
    path: str,
    streamed: bool,
    certified_before: dict[Place, CertifiedMatrix] | None = None,
) -> list[CertifiedMatrix]:
    """One layer's matrices certified (:func:`certify_matrices`), in their order; ``streamed``: each
    released as soon as it is certified (``matrices`` is updated in place, so the caller's list lets go
    too), the dense ones before the per-head QR factors are formed. A matrix stored narrower than float64
    is upcast (exactly) only while it is certified. ``certified_before``: certificates already taken, by
    place (:class:`LayerCertificates`), not taken again."""
    done: dict[int, CertifiedMatrix] = {}
    before = certified_before or {}

    def settle(position: int, certified: CertifiedMatrix) -> None:
        if streamed:
            matrices[position] = matrices[position].released()
            certified = dataclasses.replace(certified, matrix=matrices[position])
        done[position] = certified

    for position in range(len(matrices)):  # by index: no loop variable keeps a released matrix alive
        place = matrices[position].place()
        if place in before:
            settle(position, before.pop(place))
        elif matrices[position].right is None:
            settle(position, certify_matrix(_float64(matrices[position]), path=path))
    products = [position for position, x in enumerate(matrices) if x.right is not None]
    for start in range(0, len(products), QR_BATCH):
        batch = products[start : start + QR_BATCH]
        factors = [matrices[i].left for i in batch] + [matrices[i].right for i in batch]
        qrs = batched_qr([x for x in factors if x is not None])
        del factors
        for number, position in enumerate(batch):
            factorizations = (qrs[number], qrs[len(batch) + number])
            settle(position, certify_matrix(_float64(matrices[position]), factorizations, path=path))
        del qrs, factorizations
    return [done[i] for i in range(len(matrices))]


QR_BATCH = 4
"""Products per stacked QR call of :func:`_certified_layer`: the Q factors of a batch are held together
(a whole layer's would be the largest allocation of its certificates), and a few products per call keep
the per-call overhead small."""


CertifiedValues = tuple[SingularValueEnclosure, RankInterval, RankInterval, tuple[float, float], str]
"""A :class:`CertifiedMatrix` without its matrix (enclosure, rank, exact rank, (2,1) norm, path): what a
streamed layer's certificates send back (:meth:`LayerCertificates.finish`)."""


def _float64(matrix: NamedMatrix) -> NamedMatrix:
    """``matrix`` with its arrays upcast to float64 (exact; a stored layer may be float16/32)."""
    return dataclasses.replace(
        matrix,
        left=matrix.left.astype(np.float64, copy=False),
        right=None if matrix.right is None else matrix.right.astype(np.float64, copy=False),
        second_block=None
        if matrix.second_block is None
        else matrix.second_block.astype(np.float64, copy=False),
    )


def point_values(certified: CertifiedMatrix) -> np.ndarray | None:
    """Floats inside the enclosures of a dense matrix's singular values (the intervals' midpoints, checked
    to lie inside), when the enclosures decide what the float spectrum is used for, else None: the
    authors' numerical rank is decided and every interval [lo, hi] has lo > 0 and hi^2 <= (1 + GRAM_RTOL)
    lo^2 (decided with stepped products, :mod:`numerics.certify.directed`), so for every p in (0, 2] each
    sigma_i^p, hence S_p, is known to relative GRAM_RTOL ((hi / lo)^p <= (hi / lo)^2), the acceptance rule
    of :mod:`numerics.spectra.gram`'s Gram values."""
    enclosure = certified.enclosure
    if not certified.rank.decided or len(enclosure.lower) != min(certified.matrix.shape):
        return None
    values = enclosure.lower + (enclosure.upper - enclosure.lower) / 2
    limit = down(1 + GRAM_RTOL)
    for low, high, value in zip(
        enclosure.lower.tolist(), enclosure.upper.tolist(), values.tolist(), strict=True
    ):
        if not (low > 0 and product_up(high, high) <= down(limit * down(low * low)) and low <= value <= high):
            return None
    return values


@dataclass
class LayerCertificates:
    """The certificates of one streamed layer, taken during the spectra's read (the
    :class:`numerics.spectra.model.LayerExtra` of :func:`certified_spectra`): each dense matrix is
    certified while its float spectrum is taken, which then takes the enclosures' points
    (:func:`point_values`) instead of its own SVD; the rest once every spectrum is taken. The
    certificates are floats, so worker processes send them back as they are."""

    path: str
    index: int
    """The layer's index (its matrices also carry it)."""
    dense: dict[Place, CertifiedMatrix] = dataclasses.field(default_factory=dict)

    def dense_values(self, matrix: NamedMatrix) -> np.ndarray | None:
        """Certify the dense float64 ``matrix`` now (kept by place, on its released matrix); its
        :func:`point_values`."""
        certified = certify_matrix(matrix, path=self.path)
        self.dense[matrix.place()] = dataclasses.replace(certified, matrix=matrix.released())
        return point_values(certified)

    def finish(self, matrices: list[NamedMatrix]) -> list[CertifiedValues]:
        """Every matrix of the layer certified (:func:`_certified_layer`, each released once done)."""
        done = _certified_layer(matrices, self.path, streamed=True, certified_before=self.dense)
        _release_free_memory()  # the layer's temporaries are freed: their pages go back before the next read
        return [(c.enclosure, c.rank, c.exact_rank, c.norm_21_bounds, c.path) for c in done]


def certified_spectra(checkpoint: Checkpoint, options: SpectraOptions = DEFAULT_OPTIONS) -> ModelSpectra:
    """The :class:`numerics.spectra.model.ModelSpectra` of ``checkpoint`` (:func:`model_spectra`) whose
    one read of each layer (``options.jobs`` workers) also certifies its matrices on
    ``options.certify_path`` (:class:`LayerCertificates`): both :func:`numerics.bounds.proxies.proxies`
    and :func:`certify_proxies` take the record, so every layer is read once for both, and a dense
    matrix's float singular values are its certificate's points where those decide every S_p and the
    rank (``svd_path`` "certificate"), else its SVD's."""
    extra = functools.partial(LayerCertificates, options.certify_path)
    return model_spectra(checkpoint, options, layer_extra=extra)


CERTIFIED_BACKEND = "certified"
"""The ``backend`` of a :class:`ModelSpectra` of certified enclosures (:class:`CertifiedMatrix`)."""


def _from_spectra(spectra: ModelSpectra) -> ModelSpectra[CertifiedMatrix]:
    """The certified matrices a :func:`certified_spectra` record carries, on its (released) matrices."""
    if spectra.layer_extras is None:
        raise InvalidArgument(
            "these spectra carry no certificates: take them with certified_spectra, or pass the checkpoint"
        )
    values = [item for layer in spectra.layer_extras for item in layer]
    certified = [
        CertifiedMatrix(matrix, *item) for (matrix, _), item in zip(spectra.matrices, values, strict=True)
    ]
    return spectra.with_matrices([(item.matrix, item) for item in certified], CERTIFIED_BACKEND)


def _release_free_memory() -> None:
    """Hand the C heap's free pages back to the system (glibc's ``malloc_trim(0)``; elsewhere nothing).

    The layers' certificates free their float64 temporaries, but the C allocator keeps the freed pages
    resident, scattered between live blocks: the next layer's read (:meth:`LayerCertificates.finish`
    trims after each layer) or python-flint's import and the composition after the last layer would
    otherwise stack on them and set the run's peak resident set. A cost choice, not part of any
    certificate."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):
        return
    trim(0)


def certify_proxies(
    weights: TransformerWeights | Checkpoint | ModelSpectra, options: SpectraOptions = DEFAULT_OPTIONS
) -> CertifiedProxies:
    """Both BERT proxies of ``weights`` (docs: proxies) as certified balls, with the options record of
    :func:`numerics.bounds.proxies.proxies` (``m``: the grid P_m, None for ceil(L + ln N);
    ``certify_path``; ``certify_progress``).

    ``weights`` may be a lazily opened checkpoint: it is certified layer by layer
    (:func:`certify_matrices`), or the record of :func:`certified_spectra`, whose one read already
    certified every layer. Cost: one certificate per matrix (float64 SVD or QR plus a few BLAS
    products with rigorous error bounds, or arb products on the ``certify_path`` of
    :func:`certify_matrix`); see ``benchmarks/certify_speed.py``.
    """
    if isinstance(weights, ModelSpectra):
        _release_free_memory()  # the layers are done: before python-flint's first import
    m = grid_size(weights.num_layers, weights.hidden_size) if options.m is None else options.m
    if isinstance(weights, ModelSpectra):
        certified = _from_spectra(weights)
    else:
        matrices = certify_matrices(
            weights, show_progress=options.certify_progress, path=options.certify_path
        )
        certified = ModelSpectra.of(
            [(item.matrix, item) for item in matrices], source=weights.source, backend=CERTIFIED_BACKEND
        )
    return compose_proxies(ArbSpectralArithmetic(grid_fractions(m)), certified, m=m)
