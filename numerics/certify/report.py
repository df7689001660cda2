"""Certified results as JSON intervals and as text lines (what ``specbound bound --certify`` shows).

Every interval is a pair of floats rounded outward (a matrix's own certificate is such a pair already; a
composed quantity's arb ball is rounded by :func:`numerics.certify.balls.outward`),
so ``lo <= exact <= hi`` holds for the printed numbers themselves; an endpoint beyond float64's range is
written as the ball in arb's own notation (a string), never as inf.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import reduce
from typing import TYPE_CHECKING, Any

from numerics.certify.balls import PRECISION, flint_context, outward
from numerics.certify.certified import TAKEN_PATHS, CertifiedMatrixProxy, CertifiedProxies
from numerics.certify.rank import RankInterval
from theory.kinds import MatrixKind

if TYPE_CHECKING:
    from flint import arb

METHOD = (
    "float64 SVD/QR or Gram eigendecomposition + a-posteriori Weyl and multiplicative certificates "
    "(residuals and orthogonality defects from float64 products with rigorous error bounds, every "
    "operation rounded outward, or formed in arb where that path is loose), giving float intervals; "
    f"theory formulas evaluated over them in arb balls at {PRECISION} bits"
)


def interval_json(ball: arb) -> dict[str, Any]:
    """{"lo", "hi"}: floats rounded outward, or the ball as a string when it exceeds float64."""
    lo, hi = outward(ball)
    if abs(lo) == float("inf") or abs(hi) == float("inf"):
        text = ball.str(20)
        return {"lo": text, "hi": text}
    return {"lo": lo, "hi": hi}


def rank_json(rank: RankInterval) -> dict[str, int]:
    """{"lo", "hi"} of a rank interval."""
    return {"lo": rank.lo, "hi": rank.hi}


def verdict(decided: bool | None) -> str:
    """ "yes", "no" or "undecided"."""
    return "undecided" if decided is None else ("yes" if decided else "no")


def matrix_intervals(contribution: CertifiedMatrixProxy) -> dict[str, Any]:
    """The ``*_interval`` keys of one matrix row, plus the grid points that may attain its minimum."""
    certified = contribution.spectrum
    return {
        "rank_interval": rank_json(certified.rank),
        "exact_rank_interval": rank_json(certified.exact_rank),
        "spectral_norm_interval": interval_json(certified.spectral_norm),
        "frobenius_norm_interval": interval_json(certified.frobenius_norm),
        "norm_21_interval": interval_json(certified.norm_21),
        "alpha_interval": interval_json(contribution.alpha),
        "gamma_interval": interval_json(contribution.gamma),
        "scale_interval": interval_json(contribution.scale),
        "contribution_interval": interval_json(contribution.contribution),
        "p_opt_candidates": [float(p) for p in contribution.choice.candidates],
        "p_opt_decided": contribution.choice.decided,
        "certificate_path": certified.path,
    }


def path_counts(certified: CertifiedProxies) -> dict[str, int]:
    """How many matrices each certificate path (TAKEN_PATHS) certified; every key always present."""
    counts = dict.fromkeys(TAKEN_PATHS, 0)
    for contribution in certified.matrices:
        counts[contribution.spectrum.path] += 1
    return counts


def _key(layer: int, head: int, kind: str) -> tuple[int, int, str]:
    return (layer, head, kind)


def add_intervals(payload: dict[str, Any], certified: CertifiedProxies) -> dict[str, Any]:
    """``payload`` (the ``bound`` JSON) with intervals next to each value and the interval verdicts.

    Matrix rows are matched by (layer, head, kind); a row's float ``p_opt`` not among the certified
    candidates is counted in ``certification.float_p_opt_outside_candidates`` (0 when consistent).
    """
    by_key = {
        _key(c.spectrum.matrix.layer, c.spectrum.matrix.head, c.spectrum.matrix.kind.value): c
        for c in certified.matrices
    }
    outside = 0
    for row in payload["matrices"]:
        contribution = by_key[_key(row["layer"], row["head"], row["kind"])]
        row.update(matrix_intervals(contribution))
        outside += row["p_opt"] not in row["p_opt_candidates"]
    payload["proxies"]["ours_interval"] = interval_json(certified.ours)
    payload["proxies"]["edelman_interval"] = interval_json(certified.edelman)
    payload["verdicts"] = {"ours_below_edelman": verdict(certified.ours_below_edelman)}
    payload["certification"] = {
        "method": METHOD,
        "precision_bits": PRECISION,
        "matrices": len(certified.matrices),
        "ranks_decided": sum(c.spectrum.rank.decided for c in certified.matrices),
        "p_opt_decided": sum(c.choice.decided for c in certified.matrices),
        "float_p_opt_outside_candidates": outside,
        "certificate_paths": path_counts(certified),
    }
    return payload


def _text(ball: arb) -> str:
    """``[lo, hi]`` rounded outward to floats, or the ball in arb's notation beyond float64."""
    interval = interval_json(ball)
    if isinstance(interval["lo"], str):
        return interval["lo"]
    return f"[{interval['lo']!r}, {interval['hi']!r}]"


def _span(balls: Iterable[arb]) -> arb:
    """A ball containing every ball of ``balls`` (at the working precision, not python-flint's default)."""
    with flint_context():
        return reduce(lambda x, y: x.union(y), balls)


def summary_lines(certified: CertifiedProxies) -> list[str]:
    """Text: per layer and kind the rank and contribution intervals, then both proxies and the verdict."""
    header = ("layer", "kind", "rank", "p candidates", "contributions within")
    table = [header]
    for layer in range(certified.num_layers):
        for kind in MatrixKind:
            rows = [
                c
                for c in certified.matrices
                if c.spectrum.matrix.layer == layer and c.spectrum.matrix.kind is kind
            ]
            if not rows:
                continue
            ranks = sorted({str(c.spectrum.rank) for c in rows})
            points = sorted({p for c in rows for p in c.choice.candidates})
            table.append(
                (
                    str(layer),
                    kind.value,
                    "/".join(ranks),
                    ", ".join(str(p) for p in points),
                    _text(_span(c.contribution for c in rows)),
                )
            )
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    lines = [
        "",
        f"certified ({METHOD}); every interval contains the exact value for the stored weights",
        "",
    ]
    lines += ["  ".join(cell.rjust(w) for cell, w in zip(line, widths, strict=True)) for line in table]
    contributions = certified.matrices
    lines += [
        "",
        f"B_ours     in {_text(certified.ours)}",
        f"B_Edelman  in {_text(certified.edelman)}",
        f"B_ours < B_Edelman: {verdict(certified.ours_below_edelman)} (decided by the intervals)",
        f"ranks decided for {sum(c.spectrum.rank.decided for c in contributions)}/{len(contributions)} "
        f"matrices, post hoc p decided for {sum(c.choice.decided for c in contributions)}/"
        f"{len(contributions)}",
        "certificates: "
        + ", ".join(f"{count} by the {path} path" for path, count in path_counts(certified).items()),
    ]
    return lines


def model_summary(certified: CertifiedProxies) -> dict[str, Any]:
    """The interval-decided facts about one model that the claims of docs/claims.md use.

    - ``ours_below_edelman`` (claim 11 on one model): B_ours < B_Edelman by the intervals;
    - ``attention_rank_at_most_head_dim`` (claim 10): every exact rank interval of QK_h, Vt_h ends at <= d_h
      (structural, rank(A B^T) <= d_h; d_h is the width of the head's thin factors, which a config's
      ``head_dim`` may set apart from N / H);
    - ``feed_forward_full_rank`` (claim 10): every M_in, M_out has numerical rank (the authors' definition,
      the one S_0 uses) min(rows, cols): yes when every interval is decided at full rank, no when one
      certainly is not, else undecided (an exact zero singular value can only be certified as "at most e",
      so the exact rank of a deficient matrix is never decided: the numerical rank is);
    - ``p0_optimal`` (claim 10): how many matrices have p = 0 as the only candidate ("certainly"), among
      several ("possibly"), or not at all ("not").
    """
    contributions = certified.matrices
    per_head = [c.spectrum for c in contributions if c.spectrum.matrix.kind.per_head]
    dense = [c.spectrum for c in contributions if not c.spectrum.matrix.kind.per_head]
    full = [min(c.enclosure.rows, c.enclosure.cols) for c in dense]
    if all(c.rank.lo == f for c, f in zip(dense, full, strict=True)):
        feed_forward = "yes"
    elif any(c.rank.hi < f for c, f in zip(dense, full, strict=True)):
        feed_forward = "no"
    else:
        feed_forward = "undecided"
    zero = [c.choice.candidates for c in contributions]
    return {
        "source": certified.source,
        "ours_interval": interval_json(certified.ours),
        "edelman_interval": interval_json(certified.edelman),
        "ours_below_edelman": verdict(certified.ours_below_edelman),
        "attention_rank_at_most_head_dim": "yes"
        if all(c.exact_rank.hi <= c.matrix.left.shape[1] for c in per_head)
        else "no",
        "feed_forward_full_rank": feed_forward,
        "p0_optimal": {
            "certainly": sum(1 for c in zero if c == (0,)),
            "possibly": sum(1 for c in zero if 0 in c and len(c) > 1),
            "not": sum(1 for c in zero if 0 not in c),
            "of": len(zero),
        },
    }
