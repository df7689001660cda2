"""Numbers read from text (options, domains, certificates, derivation files): one reader, bounded sizes.

Python's ``Fraction("1e1000000000")`` and ``int`` build the exact integer (minutes of CPU, gigabytes),
and ``float`` turns ``1e400`` into ``inf`` and a quotient ``1e300/1e-300`` into an OverflowError. Every
number specbound reads from text goes through :func:`exact_number` (an unsigned decimal literal) or
:func:`rational` (a signed literal or quotient of two): at most :data:`MAX_DIGITS` characters, an
exponent within +-:data:`MAX_DIGITS`, and a value of magnitude within 10^+-:data:`MAX_DIGITS` (so that it
is also a finite float); anything else raises :class:`~theory.errors.InvalidArgument` with one line.
Provenance: not applicable (input handling).
"""

from __future__ import annotations

import re
from fractions import Fraction

from theory.errors import InvalidArgument

MAX_DIGITS = 300
"""Digits of one number literal (mantissa and exponent together), and the largest decimal exponent of a
value read (10^300 < 1.8e308, the largest float)."""

_NUMBER = re.compile(r"(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")
_LARGEST = Fraction(10) ** MAX_DIGITS


class NumberOutOfRange(InvalidArgument):
    """A number literal longer than MAX_DIGITS, or of a magnitude beyond 10^+-MAX_DIGITS."""


def exact_number(text: str, where: str = "number") -> Fraction:
    """An exact rational from an unsigned decimal literal ("1.13", "1e-6", "3"), within MAX_DIGITS;
    :class:`~theory.errors.InvalidArgument` when ``text`` is no decimal literal, :class:`NumberOutOfRange`
    when it is too large."""
    if len(text) > MAX_DIGITS:
        raise NumberOutOfRange(f"{where}: {text[:20]}... has more than {MAX_DIGITS} digits")
    if not _NUMBER.fullmatch(text):
        raise InvalidArgument(f"{where}: {text!r} is not a decimal number")
    mantissa, _, exponent = text.lower().partition("e")
    if exponent and abs(int(exponent)) > MAX_DIGITS:
        raise NumberOutOfRange(f"{where}: {text} is out of range (exponent beyond +-{MAX_DIGITS})")
    return Fraction(mantissa) * Fraction(10) ** int(exponent or 0)


def rational(text: str, where: str = "number") -> Fraction:
    """An exact rational from text such as "-1/3", "0.25", "1e-6/7": an optional sign, then a decimal
    literal or a quotient of two (:func:`exact_number`), of magnitude at most 10^MAX_DIGITS and, unless
    0, at least 10^-MAX_DIGITS. InvalidArgument (one line naming ``where``) otherwise."""
    cleaned = text.strip().replace(" ", "")
    numerator, _, denominator = cleaned.partition("/")
    sign = -1 if numerator[:1] == "-" else 1
    try:
        value = sign * exact_number(numerator[1:] if numerator[:1] in "+-" else numerator, where)
        if denominator:
            value /= exact_number(denominator, where)
    except NumberOutOfRange:
        raise
    except (ValueError, ZeroDivisionError):
        raise InvalidArgument(
            f"{where}: {text.strip()[:40]!r} is not a rational number (write e.g. 1/3, 0.25, -2)"
        ) from None
    if value and not 1 / _LARGEST <= abs(value) <= _LARGEST:
        raise NumberOutOfRange(f"{where}: {text.strip()[:40]} is out of range (beyond 10^+-{MAX_DIGITS})")
    return value
