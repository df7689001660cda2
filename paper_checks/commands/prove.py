"""``specbound prove``: decide an inequality over its whole domain, with a certificate or a witness.

Exit status: 0 proved, 1 refuted, 3 undecided (budget exhausted), 2 malformed statement or domain.
"""

from __future__ import annotations

import argparse

from paper_checks.output_files import json_text
from paper_checks.run_metadata import run_block
from theory.errors import InvalidArgument

HELP = "prove or refute an inequality over a whole domain (exit 0 proved, 1 refuted, 3 undecided)"

EPILOG = """\
examples:
  specbound prove "log(1 + x) <= x" --domain "x: (-1, oo)"
  specbound prove "(p+2)*4^(-1/(p+2))*p^(-p/(p+2)) <= 2" --domain "p: (0, 2]"
  specbound prove "x*Phi(x) <= x" --domain "x: >= 0" --json

domain syntax: "x: [0, 10], p: (0, 2], t: (0, oo), y: real, z: >= 0, N: integer >= 1, k: integer in [1, 8]"
functions: exp log sqrt erf erfc atan tanh Abs Max Min floor ceiling, Phi (normal cdf), phi (density),
           diff(f, x); ^ is a power and decimals are exact (1.13 = 113/100); join inequalities with 'and'.
exit status: 0 proved (a certificate a separate checker re-verified), 1 refuted (a witness point where
the negation holds in ball arithmetic), 3 undecided (budget ran out; the boxes left are listed),
2 malformed statement or domain."""


def register(parser: argparse.ArgumentParser) -> None:
    """STATEMENT, --domain, --budget, --max-boxes, --json."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = EPILOG
    parser.add_argument("statement", help='the inequality, e.g. "exp(x) >= 1 + x" (several: join with "and")')
    parser.add_argument(
        "--domain", required=True, help='every variable\'s set, e.g. "x: [0, 10], N: integer >= 1"'
    )
    parser.add_argument(
        "--budget", type=float, default=60.0, metavar="SECONDS", help="CPU-time budget in seconds (60)"
    )
    parser.add_argument("--max-boxes", type=int, default=20000, metavar="N", help="box budget (20000)")
    parser.add_argument("--json", action="store_true", help="print the result (with certificates) as JSON")


def run(args: argparse.Namespace) -> int:
    """Prove, re-check every certificate with the separate checker, print, and exit with the verdict."""
    from theory.prover import check_certificate, prove

    if not args.budget > 0:
        raise InvalidArgument(f"--budget={args.budget} must be a positive number of seconds")
    if args.max_boxes < 1:
        raise InvalidArgument(f"--max-boxes={args.max_boxes} must be at least 1")
    result = prove(args.statement, args.domain, args.budget, args.max_boxes)
    checks = [
        check_certificate(part.certificate.to_json()) if part.certificate is not None else None
        for part in result.parts
    ]
    if any(check is not None and not check.accepted for check in checks):
        raise AssertionError(f"the checker rejected a certificate the search produced: {checks}")
    if args.json:
        document = result.to_json()
        document["exit_status"] = result.exit_status
        document["run"] = run_block(args)
        print(json_text(document, "the prover's result"))
        return result.exit_status
    print(f"{result.status}: {result.statement}  over  {result.domain}")
    for part, check in zip(result.parts, checks, strict=True):
        line = f"  [{part.status}] {part.text}: {part.boxes} boxes, {part.seconds:.2f} CPU s"
        if check is not None:
            line += f"; certificate of {check.boxes} boxes re-verified by the checker"
        print(line)
        if part.witness is not None:
            point = ", ".join(f"{k} = {v}" for k, v in part.witness.point.items())
            gap = list(part.witness.gap_enclosure)
            print(f"      witness: {point}; gap (rhs - lhs, or lhs - rhs for >=) in {gap}")
        for box in part.remaining[:5]:
            print(f"      left undecided: {_approximate(box.to_json())}")
        if len(part.remaining) > 5:
            print(f"      ... and {len(part.remaining) - 5} more boxes ({part.reason})")
    return result.exit_status


def _approximate(box: dict[str, list[str]]) -> str:
    from fractions import Fraction

    import mpmath

    def short(text: str) -> str:
        if "oo" in text or len(text) < 12:
            return text
        value = Fraction(text)
        return mpmath.nstr(mpmath.mpf(value.numerator) / value.denominator, 6)

    return ", ".join(f"{name} in [{short(lo)}, {short(hi)}]" for name, (lo, hi) in box.items())
