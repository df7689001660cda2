"""Exact arithmetic in a real quadratic field Q(sqrt d): numbers a + b sqrt(d), a and b rational, d > 1 a
square-free integer, sqrt(d) > 0 the real root.

Q(sqrt d) is a subfield of the reals: sums, differences, products and quotients by nonzero elements stay
in it ((a + b r)^-1 = (a - b r) / (a^2 - b^2 d), the norm a^2 - b^2 d != 0 for (a, b) != 0 since sqrt(d)
is irrational), and its order is the reals' order, decided exactly: a + b sqrt(d) has the sign of a and
b when they agree (or one is 0), else that of a when a^2 > b^2 d and that of b when a^2 < b^2 d. The
kernel's univariate polynomial decision (Yun, Sturm) runs on such coefficients unchanged, as it only needs
a field ordered as the reals. Provenance: standard (quadratic fields; sqrt(d) irrational for d not a
square).
"""

from __future__ import annotations

from fractions import Fraction

Rational = int | Fraction


class Quadratic:
    """a + b sqrt(d) (exact); compares with and combines with rationals and elements of the same field."""

    __slots__ = ("a", "b", "d")

    def __init__(self, a: Rational, b: Rational, d: int) -> None:
        self.a, self.b, self.d = Fraction(a), Fraction(b), d

    def _lift(self, other: object) -> Quadratic:
        if isinstance(other, Quadratic):
            if other.d != self.d:
                raise ArithmeticError("numbers of two quadratic fields")
            return other
        if isinstance(other, int | Fraction):
            return Quadratic(other, 0, self.d)
        raise TypeError(f"not a number of Q(sqrt {self.d}): {other!r}")

    def __add__(self, other: object) -> Quadratic:
        o = self._lift(other)
        return Quadratic(self.a + o.a, self.b + o.b, self.d)

    __radd__ = __add__

    def __neg__(self) -> Quadratic:
        return Quadratic(-self.a, -self.b, self.d)

    def __sub__(self, other: object) -> Quadratic:
        return self + (-self._lift(other))

    def __rsub__(self, other: object) -> Quadratic:
        return self._lift(other) - self

    def __mul__(self, other: object) -> Quadratic:
        o = self._lift(other)
        return Quadratic(self.a * o.a + self.b * o.b * self.d, self.a * o.b + self.b * o.a, self.d)

    __rmul__ = __mul__

    def inverse(self) -> Quadratic:
        norm = self.a * self.a - self.b * self.b * self.d
        if norm == 0:
            raise ZeroDivisionError("division by 0 in Q(sqrt d)")
        return Quadratic(self.a / norm, -self.b / norm, self.d)

    def __truediv__(self, other: object) -> Quadratic:
        return self * self._lift(other).inverse()

    def __rtruediv__(self, other: object) -> Quadratic:
        return self._lift(other) * self.inverse()

    def sign(self) -> int:
        """-1, 0 or 1: the sign of the real number a + b sqrt(d)."""
        sa, sb = (self.a > 0) - (self.a < 0), (self.b > 0) - (self.b < 0)
        if sb == 0 or sa == sb:
            return sa
        if sa == 0:
            return sb
        return sa if self.a * self.a > self.b * self.b * self.d else sb

    def _compare(self, other: object) -> int:
        return (self - self._lift(other)).sign()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, int | Fraction | Quadratic) and self._compare(other) == 0

    def __hash__(self) -> int:
        return hash((self.a, self.b, self.d))

    def __lt__(self, other: object) -> bool:
        return self._compare(other) < 0

    def __le__(self, other: object) -> bool:
        return self._compare(other) <= 0

    def __gt__(self, other: object) -> bool:
        return self._compare(other) > 0

    def __ge__(self, other: object) -> bool:
        return self._compare(other) >= 0

    def __repr__(self) -> str:
        return f"{self.a} + {self.b}*sqrt({self.d})"
