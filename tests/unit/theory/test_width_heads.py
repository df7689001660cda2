"""theory.width_heads: the fixed-d_h width table (H = N / 64) against a hand computation in mpmath of both
proxies on the stated spectra, and its growth exponents (ours N^{3/2} at every L, Edelman N^{L+1})."""

from __future__ import annotations

import mpmath
import pytest

from theory import width_heads


def _hand(depth: int, width: int) -> tuple[mpmath.mpf, mpmath.mpf]:
    heads = mpmath.mpf(width) / 64
    ours = depth * (2 * heads * mpmath.sqrt(64 * width) + 2 * width) + mpmath.sqrt(depth)
    factor = mpmath.mpf("1.13") * heads * 1 * (1 + 4 * 1)  # L_phi C_in C_out sum_h C_V (1 + 4 C_QK)
    xi = heads * 2 * (mpmath.sqrt(width) * 8) ** (mpmath.mpf(2) / 3)
    xi += (2 * width) ** (mpmath.mpf(2) / 3) + width ** (mpmath.mpf(2) / 3)
    inner = sum(factor ** (mpmath.mpf(2) * (depth - 1 - k) / 3) * xi for k in range(depth))
    return ours, (1 + inner) ** mpmath.mpf(1.5)


@pytest.mark.parametrize("depth", [1, 2, 6])
def test_both_proxies_match_the_hand_computation(depth):
    for width in (4096, 8192):
        with mpmath.workdps(30):
            ours, edelman = _hand(depth, width)
        assert float(width_heads.ours(depth).subs(width_heads.N, width)) == pytest.approx(
            float(ours), rel=1e-12
        )
        got = width_heads.edelman(depth).subs(width_heads.N, width).evalf(30)
        assert float(got) == pytest.approx(float(edelman), rel=1e-12)


def test_the_table_has_the_stated_exponents():
    local = {1: 1.939, 2: 2.924, 4: 4.923, 6: 6.923, 12: 12.923}
    for row in width_heads.table():
        assert row["ours_exponent"] == "3/2" and row["edelman_exponent"] == str(row["L"] + 1)
        assert row["ours_local"] == 1.452
        assert row["edelman_local"] == local[row["L"]]
        ours, edelman = (_hand(row["L"], w) for w in (4096, 8192))
        assert float(mpmath.log(edelman[1] / ours[1] * ours[0] / edelman[0], 2)) == pytest.approx(
            row["edelman_local"] - row["ours_local"], abs=2e-3
        )
