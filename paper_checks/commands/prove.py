"""``specbound prove``: decide an inequality over its whole domain, with a certificate or a witness; or
re-check a saved certificate with the kernel (``--check``).

Exit status: 0 proved / accepted, 1 refuted / rejected, 3 undecided (budget exhausted), 2 malformed
statement, domain or certificate (or one undefined somewhere on its domain, as typed), 4 proved but with
--coq a file coqc did not accept with no hypothesis.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from paper_checks.commands._coq_options import (
    add_coq_records,
    add_jobs,
    check_coq_file_options,
    coq_lines,
    jobs,
)
from paper_checks.output_files import json_text
from paper_checks.run_metadata import run_block
from theory.errors import InvalidArgument

HELP = "prove or refute an inequality over a whole domain (exit 0 proved, 1 refuted, 3 undecided)"

EPILOG = """\
examples:
  specbound prove "log(1 + x) <= x" --domain "x: (-1, oo)"
  specbound prove "(p+2)*4^(-1/(p+2))*p^(-p/(p+2)) <= 2" --domain "p: (0, 2]"
  specbound prove "x*Phi(x) <= x" --domain "x: >= 0" --json > result.json
  specbound prove --check result.json

domain syntax: "x: [0, 10], p: (0, 2], t: (0, oo), y: real, z: >= 0, N: integer >= 1, k: integer in [1, 8]"
functions: exp log ln sqrt erf erfc atan tanh Abs Max Min floor ceiling Piecewise((a, x < 0), (b, True)),
           Phi (normal cdf), phi (density), diff(f, x); ^ is a power and decimals are exact
           (1.13 = 113/100); join inequalities with 'and'. sign and Heaviside are refused (they jump).
exit status: 0 proved (a certificate the kernel re-checked) or accepted, 1 refuted (a witness point where
the gap's ball is below 0) or rejected (the failing box named), 3 undecided (budget ran out; the boxes
left are listed), 2 malformed statement, domain or certificate, or a statement undefined at a point of
its domain as typed (x/x at x = 0), 4 proved but, with --coq, coqc did not accept every file with no
hypothesis (rejected, resting on hypotheses, or not translatable; the JSON's "coq_verdict" says which).
Any internal error is one line and exit 2, never 1."""


def register(parser: argparse.ArgumentParser) -> None:
    """STATEMENT, --domain, --budget, --max-boxes, --no-solver, --json, --check."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = EPILOG
    parser.add_argument(
        "statement", nargs="?", help='the inequality, e.g. "exp(x) >= 1 + x" (several: join with "and")'
    )
    parser.add_argument("--domain", help='every variable\'s set, e.g. "x: [0, 10], N: integer >= 1"')
    parser.add_argument(
        "--budget",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="CPU-time budget in seconds, of the whole run (60; also of --check)",
    )
    parser.add_argument("--max-boxes", type=int, default=20000, metavar="N", help="box budget (20000)")
    parser.add_argument(
        "--no-solver",
        action="store_true",
        help="never ask z3 (the solver extra) for witnesses or split points to check (asked by default "
        "when installed and --budget >= 1)",
    )
    parser.add_argument("--json", action="store_true", help="print the result (with certificates) as JSON")
    parser.add_argument(
        "--check",
        metavar="CERT.json",
        help="re-check a saved certificate (or a --json result) with the kernel",
    )
    parser.add_argument(
        "--coq",
        metavar="FILE.v",
        help="write the proof as a Coq file and check it with coqc (needs coq and libcoq-interval)",
    )
    parser.add_argument(
        "--no-coq-check", action="store_true", help="with --coq: write the Coq file without running coqc"
    )
    parser.add_argument("--force", action="store_true", help="let --coq replace existing Coq files")
    add_jobs(parser)


def run(args: argparse.Namespace) -> int:
    """Prove (the kernel has re-checked every certificate of a proof), print, exit with the verdict; or
    re-check a saved certificate."""
    from theory.prover.cpu_budget import seconds, whole_run

    budget = seconds("--budget", args.budget)
    with whole_run(budget, f"checking {args.check}" if args.check is not None else "the proof"):
        return _check(Path(args.check)) if args.check is not None else _prove(args, budget)


def _prove(args: argparse.Namespace, budget: float) -> int:
    from theory.prover import prove
    from theory.prover.box import count_of_boxes

    if args.statement is None or args.domain is None:
        raise InvalidArgument("give a STATEMENT and --domain, or --check CERT.json")
    if args.max_boxes < 1:
        raise InvalidArgument(f"--max-boxes={args.max_boxes} must be at least 1")
    from theory.prover.coq.report import exit_status

    _check_coq_target(args)
    result = prove(args.statement, args.domain, budget, args.max_boxes, not args.no_solver)  # stops at budget
    exported = _export(result, args)
    status = exit_status(result.exit_status, exported or [])
    if args.json:
        document = result.to_json()
        add_coq_records(document, exported)
        document["exit_status"] = status
        document["run"] = run_block(args)
        print(json_text(document, "the prover's result"))
        return status
    print(f"{result.status}: {result.statement}  over  {result.domain}")
    for part in result.parts:
        line = f"  [{part.status}] {part.text}: {count_of_boxes(part.boxes)}, {part.seconds:.2f} CPU s"
        if part.certificate is not None:
            line += f"; certificate of {count_of_boxes(len(part.certificate.boxes))} re-checked by the kernel"
        print(line)
        if part.witness is not None:
            point = ", ".join(f"{k} = {v}" for k, v in part.witness.point.items())
            gap = list(part.witness.gap_enclosure)
            print(f"      witness: {point}; gap (rhs - lhs, or lhs - rhs for >=) in {gap}")
        for proposal in part.proposals:
            point = ", ".join(f"{k} = {v}" for k, v in proposal.point.items())
            print(f"      {proposal.solver} proposed a {proposal.kind} point {point}: {proposal.outcome}")
        for box in part.remaining[:5]:
            print(f"      left undecided: {_approximate(box.to_json())}")
        if len(part.remaining) > 5:
            print(f"      ... and {count_of_boxes(len(part.remaining) - 5)} more ({part.reason})")
        elif part.reason and part.status != "proved":
            print(f"      ({part.reason})")
    if exported is not None:
        for text in coq_lines(exported, f"the statement is {result.status}", status, result.exit_status):
            print(f"  {text}")
    return status


def _check_coq_target(args: argparse.Namespace) -> None:
    """With --coq FILE.v, before proving: coqc is installed (unless --no-coq-check), and FILE.v and every
    FILE_<k>.v beside it can be written (:func:`~paper_checks.output_files.check_family`: an existing
    plain file only with --force, never a link or a special file)."""
    if args.coq is None:
        return
    import re

    from paper_checks.output_files import check_family

    target = check_coq_file_options(args)
    check_family("--coq", target, rf"{re.escape(target.stem)}_\d+\.v", force=args.force)


def _export(result: Any, args: argparse.Namespace) -> list[dict[str, Any]] | None:
    """With --coq: one Coq file per proved inequality (FILE.v, or FILE_1.v, FILE_2.v, ... for several),
    checked by coqc unless --no-coq-check; nothing for a statement not proved. None without --coq."""
    if args.coq is None:
        return None
    from paper_checks.output_files import complete_or_removed
    from theory.prover.coq.files import certificate_export, export_files

    target = Path(args.coq)
    if result.status != "proved":
        return []
    parts = result.parts
    paths = (
        [target]
        if len(parts) == 1
        else [target.with_name(f"{target.stem}_{index}.v") for index in range(1, len(parts) + 1)]
    )
    exports = [
        certificate_export(part.certificate.to_json(), path, part.text)
        for part, path in zip(parts, paths, strict=True)
    ]
    with complete_or_removed(target.parent, [path.name for path in paths]):  # Ctrl-C: no partial set
        return export_files(exports, not args.no_coq_check, args.force, jobs(args))


def _check(path: Path) -> int:
    """Re-check every certificate of the file (:mod:`theory.recheck`): after "accepted:" only what the
    kernel checked (the statement and its domain), re-derived from the checked data."""
    from theory.prover.box import count_of_boxes
    from theory.prover.safe_files import read_json
    from theory.recheck import recheck_document

    document = read_json(path, f"the certificate {path}", InvalidArgument)
    status = 0
    for verdict in recheck_document(document):
        notes = [f'titled "{verdict.label}"'] if verdict.label else []
        notes += [count_of_boxes(verdict.boxes)] if verdict.boxes else []
        aside = f" ({'; '.join(notes)})" if notes else ""
        if verdict.accepted:
            print(f"accepted: {verdict.statement}  over  {verdict.domain}{aside}: {verdict.reason}")
        else:
            claimed = f" {verdict.statement!r}" if verdict.statement else ""
            print(f"REJECTED:{claimed}{aside}: {verdict.reason}")
            status = 1
    return status


def _approximate(box: dict[str, list[str]]) -> str:
    from fractions import Fraction

    import mpmath

    def short(text: str) -> str:
        if "oo" in text or len(text) < 12:
            return text
        value = Fraction(text)
        return mpmath.nstr(mpmath.mpf(value.numerator) / value.denominator, 6)

    return ", ".join(f"{name} in [{short(lo)}, {short(hi)}]" for name, (lo, hi) in box.items())
