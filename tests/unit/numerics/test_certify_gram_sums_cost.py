"""The cheaper certified Gram products and grid Schatten sums of `bound --certify` (issue 45 item 5).

Two rules changed how a number is computed, not what it is:

- ``rounded_gram`` of order >= ``UPPER_ONLY_FROM`` forms each block's upper triangle by numpy's own dsyrk
  call (``numerics.spectra.blas.upper_gram``) and mirrors the sum once: checked bit for bit against numpy's
  B^T B, and its a priori bound against the exact Gram matrix in Python integers (a float is an integer
  times a power of two), with a planted mistake (the mirroring skipped) caught;
- ``grid_schatten_sums`` sums the lower and the upper ends apart: each ball must contain
  [sum lo_i^p, sum hi_i^p] computed by mpmath at 60 digits and be no wider than that interval but for
  arb's 30-bit radius rounding, with a planted mistake (the upper ends' sum taken from the lower ends) caught.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest

from numerics.certify import apriori
from numerics.certify.balls import flint_context
from numerics.certify.certified import CertifiedMatrix, grid_schatten_sums
from numerics.certify.enclosure import SingularValueEnclosure
from numerics.certify.interval_eval import interval_evaluate, interval_evaluator
from numerics.certify.rank import RankInterval
from numerics.spectra.blas import cblas_routine, upper_gram
from numerics.spectra.matrices import NamedMatrix
from theory.errors import InvalidArgument
from theory.kinds import MatrixKind

needs_dsyrk = pytest.mark.skipif(cblas_routine("dsyrk") is None, reason="numpy's OpenBLAS has no cblas_dsyrk")


def layouts(rng: np.random.Generator) -> list[np.ndarray]:
    """Blocks of rows as the certificates meet them: C-ordered, Fortran-ordered, a row slice of a
    transposed (Fortran-ordered) matrix, every other row."""
    square = rng.standard_normal((40, 30))
    return [
        square,
        np.asfortranarray(square),
        np.ascontiguousarray(rng.standard_normal((30, 50))).T[5:25],
        square[::2],
    ]


@needs_dsyrk
def test_upper_gram_is_numpys_product_in_the_upper_triangle():
    rng = np.random.default_rng(45)
    for block in layouts(rng):
        k = block.shape[1]
        out = np.full((k, k), 7.0)
        assert upper_gram(block, out)
        upper = np.triu_indices(k)
        assert np.array_equal(out[upper], (block.T @ block)[upper])  # the same BLAS call: the same bits
        assert (out[np.tril_indices(k, -1)] == 7.0).all()  # the strict lower triangle untouched


def test_upper_gram_declines_what_blas_cannot_take():
    rng = np.random.default_rng(46)
    out = np.zeros((6, 6))
    assert not upper_gram(rng.standard_normal((5, 6)).astype(np.float32), out)  # not float64
    assert not upper_gram(rng.standard_normal((1, 6)), out)  # numpy takes another BLAS call for one row
    assert not upper_gram(rng.standard_normal((5, 12))[:, ::2], out)  # no unit stride
    assert not upper_gram(rng.standard_normal((5, 6)), np.zeros((6, 6)).T[:, :])  # output not C-ordered
    assert (out == 0).all()


def exact_gram_error_squared(tall: np.ndarray, gram: np.ndarray) -> Fraction:
    """||gram - T^T T||_F^2 exactly: a float is m 2^e, so T = T_int 2^-s and G~ = G_int 2^-2s in integers."""
    shift = 1100
    t_int = np.array([[int(Fraction(x) * 2**shift) for x in row] for row in tall.tolist()], dtype=object)
    exact = t_int.T.dot(t_int)
    scaled = np.array(
        [[int(Fraction(x) * 2 ** (2 * shift)) for x in row] for row in gram.tolist()], dtype=object
    )
    difference = (scaled - exact).ravel().tolist()
    return Fraction(sum(d * d for d in difference), 2 ** (4 * shift))


def gram_holds(tall: np.ndarray) -> bool:
    gram, bound = apriori.rounded_gram(tall)
    return exact_gram_error_squared(tall, gram) <= Fraction(bound) ** 2


@needs_dsyrk
def test_rounded_gram_upper_path_is_bounded_exactly_and_catches_a_skipped_mirror(monkeypatch):
    monkeypatch.setattr(apriori, "UPPER_ONLY_FROM", 2)  # small enough for an exact check
    rng = np.random.default_rng(47)
    tall = rng.standard_normal((70, 12)) * np.exp2(rng.integers(-8, 8, size=(1, 12)))  # 3 blocks of 32 rows
    assert gram_holds(tall) and gram_holds(np.asfortranarray(tall))
    gram, _ = apriori.rounded_gram(tall)
    reference = sum(block.T @ block for block in (tall[:32], tall[32:64], tall[64:]))
    assert np.array_equal(gram, reference)  # numpy's blocks, added in the same order: the same numbers
    monkeypatch.setattr(apriori._GramBlocks, "mirrored", lambda self, gram: None)  # planted: no mirror
    assert not gram_holds(tall)


def enclosure_of(lower: list[float], upper: list[float]) -> CertifiedMatrix:
    n = len(lower)
    enclosure = SingularValueEnclosure(n, n, np.array(lower), np.array(upper), "planted")
    matrix = NamedMatrix(0, -1, MatrixKind.M_IN, np.zeros((n, n)))
    rank = RankInterval(n, n)
    return CertifiedMatrix(matrix, enclosure, rank, rank, (0.0, 0.0))


def exact(point: object) -> mpmath.mpf:
    """An exact arb point (a ball's end) as an mpmath number (exact at 60 digits: 128-bit mantissas)."""
    mantissa, exponent = point.mid().man_exp()  # type: ignore[attr-defined]
    return mpmath.ldexp(mpmath.mpf(int(mantissa)), int(exponent))


def sums_hold(certified: CertifiedMatrix, points: tuple[Fraction, ...]) -> bool:
    """Every S_p ball contains [sum lo^p, sum hi^p] (mpmath, 60 digits) and is no wider than that interval
    but for arb's 30-bit radius rounding (2^-26 of the width) and 1e-30 relative."""
    lower, upper = certified.enclosure.lower.tolist(), certified.enclosure.upper.tolist()
    with mpmath.workdps(60):
        for p, ball in zip(points, grid_schatten_sums(certified, points), strict=True):
            if p == 0:
                continue
            power = mpmath.mpf(p.numerator) / p.denominator
            low = mpmath.fsum(mpmath.mpf(x) ** power for x in lower if x > 0)
            high = mpmath.fsum(mpmath.mpf(x) ** power for x in upper if x > 0)
            ball_low, ball_high = (
                mpmath.mpf(end.mid().str(50, radius=False)) for end in (ball.lower(), ball.upper())
            )
            slack = (high - low) * mpmath.mpf(2) ** -26 + high * mpmath.mpf("1e-30")  # arb radii: 30 bits
            if not (ball_low <= low and high <= ball_high and ball_high - ball_low <= high - low + slack):
                return False
    return True


def test_grid_sums_enclose_the_exact_ends_tightly_and_catch_a_planted_mistake(monkeypatch):
    import numerics.certify.certified as certified_module

    rng = np.random.default_rng(48)
    lower = np.sort(rng.uniform(0.01, 5.0, 40))[::-1]
    upper = lower * (1 + rng.uniform(0, 1e-9, 40))
    lower[-1] = 0.0  # an exact 0 end contributes 0
    certified = enclosure_of(lower.tolist(), upper.tolist())
    points = tuple(Fraction(k, 6) for k in range(13))
    with flint_context():
        assert sums_hold(certified, points)
        sums = certified_module._power_sums
        monkeypatch.setattr(  # planted: the upper ends' sum taken over the lower ends
            certified_module, "_power_sums", lambda values, q, top: sums(lower.tolist(), q, top)
        )
        assert not sums_hold(certified, points)


def test_interval_evaluator_is_interval_evaluate_with_the_names_checked_once():
    from numerics.formulas.generated import SUMMAND

    summand = interval_evaluator(SUMMAND, ("N", "s", "S", "p"))
    with flint_context():
        ball = summand(9, 7, 4, Fraction(1, 3))
    same = interval_evaluate(SUMMAND, p=Fraction(1, 3), S=4, s=7, N=9)
    assert ball.mid() == same.mid() and ball.rad() == same.rad()
    with mpmath.workdps(40):  # N^((p+1)/(p+2)) S^(1/(p+2)) s^(p/(p+2)) at p = 1/3
        p = mpmath.mpf(1) / 3
        value = mpmath.mpf(9) ** ((p + 1) / (p + 2)) * 4 ** (1 / (p + 2)) * mpmath.mpf(7) ** (p / (p + 2))
        assert exact(ball.lower()) <= value <= exact(ball.upper())
    with pytest.raises(InvalidArgument, match="missing"):
        interval_evaluator(SUMMAND, ("N", "s", "S"))
    with pytest.raises(InvalidArgument, match="unknown"):
        interval_evaluator(SUMMAND, ("N", "s", "S", "p", "q"))
