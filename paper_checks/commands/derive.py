"""``specbound derive FILE``: decide every step of a derivation file and certify the whole chain.

Exit status: 0 proved or derived (every step holds; "derived" when an identity is sympy's only), 1 a step
refuted (the first failing step and a witness are printed), 3 a step undecided, 2 a malformed file, 4
proved or derived but, with --coq, coqc did not accept the file with no hypothesis.
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
from theory.errors import InvalidArgument

HELP = "decide every step of a derivation file E0 = E1 <= E2 ... (exit 0 proved, 1 refuted, 3 undecided)"

EPILOG = """\
examples:
  specbound derive docs/examples/log_below_quadratic.toml
  specbound derive docs/examples/log_below_quadratic.toml --certificate chain.json
  specbound prove --check chain.json
  specbound derive docs/examples/log_below_quadratic.toml --coq chain.v

the format (TOML): [variables] name = "set" in the --domain syntax of `specbound prove`; [assumptions]
name = "inequality"; [definitions] name = "expression"; then [[steps]]: the first with expr only (E0),
each next one with relation (= <= < >= >), expr, and optionally name and uses = ["assumption",
"lemma:NAME", "file:earlier.toml"], or by = "lemma:NAME" (or piece:NAME, file:PATH, an assumption) with
substitution = { x = "expression" } and factor = "f": the step's gap is f times the fact's at the
substitution, f >= 0 and the substitution's ranges kernel-proved. See docs/derive.md.
exit status: 0 proved or derived, 1 refuted, 3 undecided, 2 a malformed file, 4 proved or derived but,
with --coq, coqc did not accept the file with no hypothesis (rejected, over its time limit, resting on
hypotheses, or a step not translatable; the JSON's "coq_verdict" says which)."""


def register(parser: argparse.ArgumentParser) -> None:
    """FILE, --budget, --json, --certificate."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = EPILOG
    parser.add_argument("file", metavar="FILE", help="the derivation file (TOML, see docs/derive.md)")
    parser.add_argument(
        "--budget",
        type=float,
        default=20.0,
        metavar="SECONDS",
        help="CPU seconds of the whole run (20): reading, every step, every referenced file; the steps "
        "left when it runs out are undecided, and the run ends within 2 s more",
    )
    parser.add_argument("--json", action="store_true", help="print the verdicts (and certificate) as JSON")
    parser.add_argument(
        "--certificate", metavar="OUT.json", help="write the chain's certificate (proved or derived only)"
    )
    parser.add_argument(
        "--coq",
        metavar="FILE.v",
        help="write the derivation as a Coq file (each step a lemma) and check it with coqc "
        "(needs coq and libcoq-interval)",
    )
    parser.add_argument(
        "--no-coq-check", action="store_true", help="with --coq: write the Coq file without running coqc"
    )
    parser.add_argument(
        "--force", action="store_true", help="let --certificate and --coq replace an existing file"
    )
    add_jobs(parser)


def run(args: argparse.Namespace) -> int:
    """Decide the file, print per step, write the certificate when asked: the whole run within --budget
    CPU seconds and :data:`~theory.prover.cpu_budget.GRACE` (:func:`~theory.prover.cpu_budget.whole_run`)."""
    from theory.errors import require
    from theory.prover.cpu_budget import seconds, whole_run

    budget = seconds("--budget", args.budget)
    require("flint", purpose="the prover (its interval arithmetic)")
    with whole_run(budget, "derive"):
        return _run(args, budget)


def _run(args: argparse.Namespace, budget: float) -> int:
    from paper_checks.output_files import check_target, json_text, write_text_atomically
    from theory.derive import derive
    from theory.paper_proofs import facts
    from theory.prover.box import count_of_boxes
    from theory.prover.coq.report import exit_status
    from theory.prover.counts import counted
    from theory.prover.cpu_budget import deciding

    if args.certificate is not None:
        check_target("--certificate", args.certificate, force=args.force, inputs=[Path(args.file)])
    _check_coq_target(args)
    with deciding():
        result = derive(Path(args.file), budget, facts())
    certificate = result.certificate()
    if args.certificate is not None:
        if certificate is None:
            raise InvalidArgument(f"no certificate: the derivation is {result.status}, not proved")
        target = check_target("--certificate", args.certificate, force=args.force, inputs=result.inputs)
        text = json_text(certificate, "the certificate") + "\n"
        write_text_atomically(target, text, exclusive=not args.force)
    exported = _export(certificate, result, args)
    status = exit_status(result.exit_status, exported or [])
    if args.json:
        from paper_checks.run_metadata import run_block

        document = result.to_json()
        add_coq_records(document, exported)
        document["exit_status"] = status
        document["run"] = run_block(args)
        print(json_text(document, "the derivation's result"))
        return status
    print(f"{result.status}: {result.conclusion}  over  {result.derivation.domain.to_text()}")
    if result.hypotheses:
        print(f"  under the assumptions {', '.join(result.hypotheses)}")
    for outcome in result.steps:
        step = outcome.step
        how = {
            "exact": "kernel exact normal form",
            "sympy": "sympy normal form only",
            "prover": "prover",
            "fact": f"by {step.by.name if step.by else ''}",
        }
        print(
            f"  [{outcome.status}] {step.name} (line {step.line}): {step.relation} {step.text}  "
            f"({how[outcome.method]}, {count_of_boxes(outcome.boxes)}, {outcome.seconds:.2f} CPU s)"
        )
        if outcome.witness is not None:
            point = ", ".join(f"{k} = {v}" for k, v in outcome.witness.point.items())
            print(f"      witness: {point}; gap in {list(outcome.witness.gap_enclosure)}")
        if outcome.reason and outcome.status != "proved":
            print(f"      ({outcome.reason})")
    failure = result.first_failure
    if failure is not None:
        print(f"first failing step: {failure.step.name} (line {failure.step.line})")
    elif certificate is not None:
        kind = "every step kernel-checked" if result.status == "proved" else "identities by sympy only"
        steps = f"certificate: {counted(len(certificate['steps']), 'step')} ({kind})"
        if args.certificate is not None:
            print(
                f"{steps}, written to {args.certificate}; "
                f"re-check with specbound prove --check {args.certificate}"
            )
        else:
            print(f"{steps}; not written (--certificate FILE writes it for specbound prove --check FILE)")
    if exported is not None:
        for text in coq_lines(exported, f"the derivation is {result.status}", status, result.exit_status):
            print(text)
    return status


def _check_coq_target(args: argparse.Namespace) -> None:
    """With --coq FILE.v, before deriving: coqc is installed (unless --no-coq-check) and FILE.v can be
    written (not an input; an existing plain file only with --force)."""
    if args.coq is None:
        return
    from paper_checks.output_files import check_target

    check_coq_file_options(args)
    check_target("--coq", args.coq, force=args.force, inputs=[Path(args.file)])


def _export(certificate: Any, result: Any, args: argparse.Namespace) -> list[dict[str, Any]] | None:
    """With --coq: the derivation's Coq file, checked by coqc unless --no-coq-check (nothing for a
    derivation neither proved nor derived). None without --coq."""
    if args.coq is None:
        return None
    if certificate is None:
        return []
    from paper_checks.output_files import check_target, complete_or_removed
    from theory.prover.coq.derivation import export_derivation
    from theory.prover.coq.files import Export, export_files

    target = check_target("--coq", args.coq, force=args.force, inputs=result.inputs)
    title = str(certificate.get("title") or "")
    export = Export(
        target,
        lambda assumed: export_derivation(certificate, title, assumed),
        lambda: export_derivation(certificate, title, probe=True),
    )
    with complete_or_removed(target.parent, [target.name]):  # Ctrl-C: no half-checked file left
        return export_files([export], not args.no_coq_check, args.force, jobs(args))
