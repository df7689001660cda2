"""``specbound growth EXPR --in L``: the growth class of an expression as L -> oo; with ``--versus``, which
of two grows faster and the crossover depth L0 from which the slower stays below the faster.

Exit status: 0 decided (no crossover or a crossover proved or derived), 3 otherwise (refuted: no crossover
found; or the growth rules or the prover could not decide), 2 malformed input.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from theory.errors import InvalidArgument

if TYPE_CHECKING:
    from theory.derive.crossover import Crossover

HELP = "the growth class of an expression in one variable; with --versus, which grows faster and where"

EPILOG = """\
examples:
  specbound growth "sqrt(L) * log(L)^(1/2)" --in L
  specbound growth "exp(rho * L) * L" --in L --assume "rho: (0, oo)"
  specbound growth "alpha * L^p" --in L --assume "alpha: bounded" --assume "p: (0, 2)"
  specbound growth "100 * sqrt(L) * log(L)^(1/2)" --versus "L^(3/2)" --in L --integer
  specbound growth --edelman-at minilm-l6 --integer --certificate l2_below_edelman.json

the class is e^(rate L) L^power (ln L)^log_power (ln ln L)^loglog_power, compared in that order.
--assume NAME: bounded declares a positive constant; NAME: SET a parameter in a set (--domain syntax).
The crossover (--versus, expressions of L alone) is the smallest L0 >= --from from which the slower
expression is <= the faster for every L >= L0: proved by the prover over [L0, oo) (or over [L0, X] and,
for [X, oo), its log form in u = ln L: then "derived"), refuted just below L0 (a witness point).
--edelman-at MODEL compares two gaps in depth L, the project's l2 bound and Edelman et al. 2022's gap
(constants 1), both at n = 1000, T = 16, delta = 1/10, margin 1 (the regimes table's), at the model's
per-layer constants (its width N; every layer matrix as large as its largest spectral norm, S_p at --p
and Frobenius norm, rounded up to 3 significant digits; bounded alpha), with their crossover depth.
Ceilings and logarithms of sums in L (the l2 bound's shell counts) enter the certificate through the
kernel's change of variables (t = ceiling(z) - z in [0, 1), r = X / L^d bounded)."""


def register(parser: argparse.ArgumentParser) -> None:
    """EXPR, --in, --edelman-at, --p, --assume, --versus, --integer, --from, --budget, --no-crossover,
    --json, --certificate."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = EPILOG
    parser.add_argument(
        "expr", nargs="?", metavar="EXPR", help='the expression, e.g. "sqrt(L) * log(L)^(1/2)"'
    )
    parser.add_argument("--in", dest="variable", metavar="L", help="the variable that grows")
    parser.add_argument(
        "--edelman-at",
        metavar="MODEL",
        help="the project's l2 bound versus Edelman's gap in depth L at MODEL's constants (an alias or path)",
    )
    parser.add_argument(
        "--p", default="0", metavar="P", help="with --edelman-at: the Schatten index in [0, 2] (0: the rank)"
    )
    parser.add_argument(
        "--assume",
        action="append",
        default=[],
        metavar="'NAME: bounded|SET'",
        help="a parameter (repeatable)",
    )
    parser.add_argument("--versus", metavar="EXPR2", help="compare with a second expression")
    parser.add_argument("--integer", action="store_true", help="the crossover over integers L")
    parser.add_argument(
        "--from", dest="start", default="1", metavar="L_MIN", help="smallest L considered (1)"
    )
    parser.add_argument(
        "--budget",
        type=float,
        default=20.0,
        metavar="SECONDS",
        help="CPU seconds of the crossover's proofs (20); the whole run stops at twice this plus 2 s",
    )
    parser.add_argument(
        "--no-crossover", action="store_true", help="with --versus: compare the classes only (no prover)"
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument(
        "--certificate",
        metavar="OUT.json",
        help="with --versus or --edelman-at: write the crossover's kernel certificate (when proved)",
    )
    parser.add_argument("--force", action="store_true", help="let --certificate replace an existing file")


CROSSOVER_BUDGETS = 2
"""The whole run's CPU limit in budgets (and the grace): the crossover's searches share one budget (a
quarter for the point below, half for the tail), and the kernel's re-checks of their certificates and the
tail's log form (sympy) run beside them (16.5 CPU s at the default 20 for minilm-l6 at p = 1)."""


def run(args: argparse.Namespace) -> int:
    """Decide the class (and the comparison and crossover), print, exit with the verdict; the whole run
    (the model's constants, reading, the classes, the crossover) within CROSSOVER_BUDGETS times --budget
    CPU seconds and :data:`~theory.prover.cpu_budget.GRACE` (:func:`~theory.prover.cpu_budget.whole_run`),
    whatever it computes."""
    from theory.prover.cpu_budget import seconds, whole_run

    budget = seconds("--budget", args.budget)
    with whole_run(CROSSOVER_BUDGETS * budget, "growth"):
        return _run(args, budget)


def _run(args: argparse.Namespace, budget: float) -> int:
    from theory.growth_comparison import NOT_ASKED, compare_growth
    from theory.prover.numbers import rational

    document: dict[str, Any] = {}
    if args.certificate is not None:
        _certificate_target(args)
    if args.edelman_at is not None:
        if args.expr is not None or args.versus is not None or args.assume:
            raise InvalidArgument("--edelman-at MODEL takes no EXPR, --versus or --assume (it builds both)")
        from paper_checks.commands._depth_constants import edelman_versus_l2

        args.expr, args.versus, document["constants"] = edelman_versus_l2(args.edelman_at, args.p)
        args.variable = "L"
    elif args.expr is None or args.variable is None:
        raise InvalidArgument("give EXPR and --in VARIABLE (or --edelman-at MODEL)")
    start = rational(args.start, "--from")
    result = compare_growth(
        args.expr,
        args.variable,
        versus=args.versus,
        assumptions=tuple(args.assume),
        integer=args.integer,
        start=start,
        budget=budget,
        find_crossover=not args.no_crossover,
    )
    document.update(result.to_json())
    status = 0 if result.decided else 3
    lines = [f"{q.text}:  {c.text(args.variable)}" for q, c in result.classified]
    if "constants" in document and result.classified:
        given = ", ".join(f"{k} = {v}" for k, v in document["constants"].items())
        lines.insert(0, f"two gaps: the l2 bound (first) versus Edelman's (second, constants 1) at {given}")
    if result.undecided is not None:
        lines.append(f"undecided: {result.undecided}")
    if result.order is not None:
        lines.append("same growth class" if result.faster is None else f"grows faster: {result.faster.text}")
    if result.crossover_skipped is not None:
        why = (
            "--no-crossover"
            if result.crossover_skipped == NOT_ASKED
            else "the expressions have parameters (--assume)"
        )
        lines.append(f"crossover not computed: {why}")
    found = result.crossover
    if found is None:
        return _finish(args, document, status, "\n".join(lines))
    lines.extend(_crossover_lines(found))
    if found.tail is not None:
        lines.append(
            f"  [{found.tail.head.status}] on [L0, X] by the prover; [{found.tail.log_form.status}] for "
            f"u = ln {args.variable} >= {found.tail.u1}: {found.tail.log_form.text} (identity by sympy: "
            f"{found.tail.identity})"
        )
    if args.certificate is not None:
        _write_certificate(args, result.certificate)
        lines.append(f"  certificate written to {args.certificate} (check it: specbound prove --check FILE)")
    return _finish(args, document, status, "\n".join(lines))


def _crossover_lines(found: Crossover) -> list[str]:
    """The crossover's answer: "for every L ..." only when one kernel certificate proved it; a derived
    answer (kernel certificates joined by sympy's identity) says so; a refutation names its point; an
    undecided claim is printed as not proved."""
    from theory.derive.crossover import CROSSOVER, NO_CROSSOVER, NOT_FOUND

    claim, variable, start = f"{found.lower} <= {found.upper}", found.variable, found.start
    outcome = found.outcome
    where = start if found.threshold is None else found.threshold
    approx = "" if where.denominator == 1 and abs(where) < 10**6 else f"~{float(where):.6g}; "
    if outcome in (NO_CROSSOVER, CROSSOVER):
        head = "no crossover" if outcome == NO_CROSSOVER else "crossover"
        if found.status == "proved":
            lines = [f"{head}: {claim} for every {variable} >= {where} ({approx}proved)"]
        else:
            lines = [
                f"{head} (derived, not one kernel certificate): {claim} from {variable} = {where} on "
                f"({approx}by kernel certificates joined by sympy's identity, below)"
            ]
    elif outcome == NOT_FOUND and found.refutation is not None:  # "refuted" has its witness
        point = found.refutation.point[variable]
        lines = [
            f"no crossover found: {claim} fails at {variable} = {point} (~{float(point):.6g}; refuted there, "
            "beyond every candidate tried)"
        ]
    else:
        lines = [
            f"undecided: {claim} from {variable} = {where} on ({approx}not proved: "
            f"{found.proof.reason or found.status})"
        ]
    if found.below is not None and outcome != NOT_FOUND:
        below = ", ".join(f"{k} = {v}" for k, v in found.below.point.items())
        lines.append(f"  refuted just below: {below} (~{float(found.below.point[variable]):.6g})")
    return lines


def _certificate_target(args: argparse.Namespace) -> Any:
    """The --certificate path, checked (before any work, and again before writing): never an input (the
    checkpoint of --edelman-at), an existing file only with --force."""
    from paper_checks.output_files import check_target, checkpoint_inputs

    inputs = checkpoint_inputs([args.edelman_at]) if args.edelman_at is not None else ()
    return check_target("--certificate", args.certificate, force=args.force, inputs=inputs)


def _write_certificate(args: argparse.Namespace, certificate: dict[str, Any] | None) -> None:
    """Write the one kernel certificate of the crossover's claim over [L0, oo); InvalidArgument without."""
    from paper_checks.output_files import json_text, write_text_atomically

    if certificate is None:
        raise InvalidArgument("no certificate: the crossover's claim is not proved by one kernel certificate")
    text = json_text(certificate, "the certificate") + "\n"
    write_text_atomically(_certificate_target(args), text, exclusive=not args.force)


def _finish(args: argparse.Namespace, document: dict[str, Any], status: int, text: str) -> int:
    if args.json:
        from paper_checks.output_files import json_text

        document["exit_status"] = status
        print(json_text(document, "the growth result"))
    else:
        print(text)
    return status
