"""``specbound theory``: every lemma of the bound with its statement, assumptions, provenance and checks."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from theory.prover.lemma_inequalities import LemmaVerdict
    from theory.registry import CheckReport

from paper_checks.commands._coq_options import add_jobs, jobs

HELP = (
    "every lemma of the bound: statement, assumptions, provenance, source, its symbolic self-checks and "
    "the prover's verdict on each of its inequalities"
)


def register(parser: argparse.ArgumentParser) -> None:
    """--json prints {"lemmas": [...]}; --regimes adds the Section 5 depth/width table."""
    parser.add_argument(
        "--json", action="store_true", help="print JSON instead of text (statements in LaTeX)"
    )
    parser.add_argument(
        "--latex",
        action="store_true",
        help="print the statements as LaTeX (default: readable mathematics, Unicode on a UTF-8 terminal)",
    )
    parser.add_argument(
        "--regimes", action="store_true", help="also print the Section 5 growth-exponent table"
    )
    parser.add_argument(
        "--regimes-only",
        action="store_true",
        help="print only the Section 5 growth-exponent table (a few seconds: no lemma checks, no prover)",
    )
    parser.add_argument(
        "--blueprint",
        action="store_true",
        help="print only the blueprint of the assembled bound: its chain as a graph of nodes, each "
        "kernel-checked or cited (a second or so: no lemma checks, no prover; not with --coq)",
    )
    parser.add_argument(
        "--no-prove", action="store_true", help="skip the prover (the inequalities are then not decided)"
    )
    parser.add_argument(
        "--prove-budget",
        type=float,
        default=15.0,
        metavar="SECONDS",
        help="CPU-time budget of the prover per inequality, in seconds (15)",
    )
    parser.add_argument(
        "--coq",
        metavar="DIR",
        help="write every proved inequality as a Coq file in DIR and check it with coqc "
        "(needs coq and libcoq-interval)",
    )
    parser.add_argument(
        "--no-coq-check", action="store_true", help="with --coq: write the Coq files without running coqc"
    )
    parser.add_argument("--force", action="store_true", help="let --coq replace existing Coq files in DIR")
    add_jobs(parser)


STATEMENT_WIDTH = 96
"""Columns a statement may take (after its 4-column indent), so the text fits 100 columns."""
PRETTY_LINES = 7
"""A statement drawn in two dimensions (sympy's pretty printer) at most this tall; taller ones are printed
on one line (sympy's str printer, wrapped), which stays readable where the drawing would not."""


def readable(statement: Any, indent: str = "") -> str:
    """``statement`` as plain mathematics: sympy's two-dimensional drawing (Unicode when stdout is UTF-8)
    when it fits STATEMENT_WIDTH and PRETTY_LINES, else its one-line str form wrapped to STATEMENT_WIDTH."""
    import sympy as sp

    unicode = (sys.stdout.encoding or "").lower().replace("-", "") == "utf8"
    drawn = sp.pretty(statement, use_unicode=unicode, wrap_line=False)
    lines = drawn.splitlines()
    if len(lines) <= PRETTY_LINES and max(map(len, lines)) <= STATEMENT_WIDTH:
        return "\n".join(indent + line.rstrip() for line in lines)
    return "\n".join(
        textwrap.wrap(
            sp.sstr(statement), STATEMENT_WIDTH, initial_indent=indent, subsequent_indent=indent + "  "
        )
    )


LINE_WIDTH = 100
"""Columns of a printed line; a longer one continues on indented lines."""


def wrapped(text: str, indent: str, more: str = "  ") -> str:
    """``text`` after ``indent``, wrapped at LINE_WIDTH, its continuation lines indented by ``more`` again
    (words are never broken, so a long formula or path stays whole)."""
    return textwrap.fill(
        text,
        LINE_WIDTH,
        initial_indent=indent,
        subsequent_indent=indent + more,
        break_long_words=False,
        break_on_hyphens=False,
    )


def run(args: argparse.Namespace) -> int:
    """Print every lemma; a failing check is reported (exit status 0), never raised. With --coq, exit status
    4 (:data:`theory.prover.coq.report.NOT_ACCEPTED`) when coqc did not accept every exported file with no
    hypothesis."""
    from numerics.progress import progress, stage
    from paper_checks.run_metadata import run_block
    from theory.errors import InvalidArgument
    from theory.paper_proofs.theorem_3_1 import theorem_line
    from theory.prover.coq.report import coq_verdict, exit_status, line
    from theory.prover.cpu_budget import seconds
    from theory.registry import run_all_checks

    seconds("--prove-budget", args.prove_budget)
    if args.regimes_only:
        return _regimes_only(args)
    if args.blueprint:
        if args.coq is not None:
            raise InvalidArgument(
                "--blueprint prints the graph only and writes no Coq file: run `theory --blueprint` and "
                "`theory --no-prove --coq DIR` (theorem_3_1.v alone) as two commands"
            )
        return _blueprint(args)
    _check_coq_folder(args)
    report = run_all_checks(
        lambda lemmas: progress(lemmas, len(lemmas), "theory: self-checks", unit="lemma", name=_lemma_name)
    )
    verdicts = _prover_verdicts(report, args)
    exported = _export(verdicts, args)
    exported.update(_export_theorem(args))
    records = [record for group in exported.values() for record in group]
    status = exit_status(0, records)
    if args.json:
        lemmas = []
        for lemma, _ in report.entries:
            record = lemma.to_json()
            if lemma.name in verdicts:
                record["inequalities"] = [verdict.to_json() for verdict in verdicts[lemma.name]]
                for entry in record["inequalities"]:
                    if entry["name"] in exported:
                        entry["coq"] = exported[entry["name"]]
            lemmas.append(record)
        document: dict[str, object] = {"lemmas": lemmas}
        document["helper_controls"] = [r.to_json() for r in report.controls]
        document["summary"] = {"checks": report.total, "failed": len(report.failed), **_counts(verdicts)}
        if args.coq is not None:
            document["summary"]["coq"] = _coq_counts(exported)  # type: ignore[index]
            document["summary"]["coq_verdict"] = coq_verdict(records)  # type: ignore[index]
            document["theorem_3_1"] = exported["theorem_3_1"][0]
        document["run"] = run_block(args)
        if args.regimes:
            from theory.regimes import to_json

            stage("theory: deriving the regime table (sympy limits)")
            document["regimes"] = json.loads(to_json())
        print(json.dumps(document, indent=2))
        return status
    for lemma, results in report.entries:
        heading = f"[step {lemma.step}] {lemma.title}  ({lemma.tag.provenance.value}; {lemma.tag.source})"
        print(wrapped(heading, "", "    "))
        if lemma.tag.derivation is not None:
            print(f"    derived by: {lemma.tag.derivation.operation}")
        if args.latex:
            for part in lemma.statement_latex():
                print(f"    $ {part} $")
        else:
            for part in lemma.statement:
                print(readable(part, indent="    "))
        for assumption in lemma.assumptions:
            print(wrapped(f"assumes: {assumption}", "    "))
        for result in results:
            mark = "pass" if result.verdict else "FAIL"
            print(wrapped(f"[{mark}] {result.name}: {result.description}", "    ", "       "))
            if not result.verdict:
                print(wrapped(f"witness: {result.witness}", "           "))
        for verdict in verdicts.get(lemma.name, ()):
            print(wrapped(f"prover {verdict.line()}", "    ", "    "))
            for record in exported.get(verdict.entry.name, ()):
                print(wrapped(line(record), "      "))
    for result in report.controls:
        mark = "pass" if result.verdict else "FAIL"
        print(f"[helper control] [{mark}] {result.name}" + ("" if result.verdict else f": {result.witness}"))
    print(f"{report.total} checks, {len(report.failed)} failing, over {len(report.entries)} lemmas")
    if verdicts:
        counts = _counts(verdicts)
        print(
            f"prover: {counts['inequalities']} inequalities, {counts['proved']} proved (kernel-checked), "
            f"{counts['refuted']} refuted, {counts['undecided']} undecided"
        )
    if args.coq is not None:
        print(wrapped("theorem 3.1 " + theorem_line(exported["theorem_3_1"][0]), ""))
        counts = _coq_counts(exported)
        print(
            f"coq: {counts['files']} files for {counts['statements']} proved inequalities, "
            f"{counts['accepted']} accepted by coqc, {counts['hypotheses']} with hypotheses, "
            f"{counts['rejected']} rejected, {counts['timeout']} over coqc's time limit, "
            f"{counts['unchecked']} unchecked, "
            f"{counts['untranslated']} not translatable yet"
        )
    if args.regimes:
        from theory.regimes import to_markdown

        stage("theory: deriving the regime table (sympy limits)")
        print(to_markdown())
    return status


def _lemma_name(lemma: Any) -> str:
    return str(lemma.name)


def _regimes_only(args: argparse.Namespace) -> int:
    """``--regimes-only``: the Section 5 table alone (JSON with ``--json``)."""
    from theory.regimes import to_json, to_markdown

    print(to_json() if args.json else to_markdown())
    return 0


def _blueprint(args: argparse.Namespace) -> int:
    """``--blueprint``: the chain's nodes (theory.blueprint), as JSON with ``--json``."""
    from theory import blueprint

    print(json.dumps(blueprint.to_json(), indent=2) if args.json else blueprint.to_text(LINE_WIDTH))
    return 0


def _export_theorem(args: argparse.Namespace) -> dict[str, list[dict[str, Any]]]:
    """With --coq DIR: theorem_3_1.v (the chain proved from its cited premises, theory.blueprint) written
    to DIR and checked by coqc unless --no-coq-check; its record lists the Section's named premises."""
    if args.coq is None:
        return {}
    from pathlib import Path

    from theory.paper_proofs.theorem_3_1 import export_theorem

    return {"theorem_3_1": [export_theorem(Path(args.coq), not args.no_coq_check, replace=args.force)]}


def _prover_verdicts(report: CheckReport, args: argparse.Namespace) -> dict[str, list[LemmaVerdict]]:
    """lemma name -> the prover's verdict on each of its inequalities (empty with --no-prove)."""
    import sys

    from theory.errors import MissingDependency, require

    if args.no_prove:
        return {}
    try:
        require("flint", purpose="deciding the lemma inequalities")
    except MissingDependency as missing:
        print(f"prover skipped: {missing}", file=sys.stderr)
        return {}
    from numerics.progress import progress
    from theory.paper_proofs.inequalities import inequalities_of
    from theory.prover.lemma_inequalities import decide

    verdicts: dict[str, list[LemmaVerdict]] = {}
    entries = report.entries
    named = lambda entry: _lemma_name(entry[0])  # noqa: E731
    for lemma, _ in progress(entries, len(entries), "theory: prover", unit="lemma", name=named):
        for entry in inequalities_of(lemma.name):
            verdicts.setdefault(lemma.name, []).append(decide(entry, args.prove_budget))
    return verdicts


def _check_coq_folder(args: argparse.Namespace) -> None:
    """With --coq DIR, before any work: coqc is installed (unless --no-coq-check), DIR exists (created if
    missing) and is writable, and every file the export may write there (theorem_3_1.v and, with the
    prover on, NAME.v, NAME_<k>.v, NAME_reduction.v for each lemma inequality NAME) that exists already is
    a plain file, replaced only with --force (:func:`~paper_checks.output_files.check_family`)."""
    if args.coq is None:
        return
    import re

    from paper_checks.output_files import check_family, check_target, prepare_folder
    from theory.blueprint import THEOREM_FILE
    from theory.paper_proofs.inequalities import all_lemma_inequalities
    from theory.prover.coq.coqc import coqc_path

    jobs(args)
    if not args.no_coq_check:
        coqc_path()
    directory = prepare_folder("--coq", args.coq, (), force=True)
    check_target("--coq", directory / THEOREM_FILE, force=args.force)
    if args.no_prove:
        return
    for entry in all_lemma_inequalities():
        pattern = rf"{re.escape(entry.name)}_(\d+|reduction)\.v"
        check_family("--coq", directory / f"{entry.name}.v", pattern, force=args.force)


def _export(
    verdicts: dict[str, list[LemmaVerdict]], args: argparse.Namespace
) -> dict[str, list[dict[str, Any]]]:
    """With --coq DIR: inequality name -> the records of its Coq files (one per proved part), written to
    DIR/<name>.v (DIR/<name>_<k>.v for several parts) and checked by coqc unless --no-coq-check, all files
    together (:func:`~theory.prover.coq.files.export_files`: --jobs coqc processes at once); an
    interrupted or failed export removes the files it created (:func:`complete_or_removed`)."""
    from pathlib import Path

    if args.coq is None or not verdicts:
        return {}
    from paper_checks.output_files import complete_or_removed
    from theory.paper_proofs.coq_softmax import REDUCED, reduction_export
    from theory.prover.coq.files import Export, certificate_export, export_files

    directory = Path(args.coq)  # checked before any work (_check_coq_folder)
    proved = [
        verdict
        for group in verdicts.values()
        for verdict in group
        if verdict.status == "proved" and hasattr(verdict.result, "parts")
    ]
    files = {verdict.entry.name: _coq_names(verdict) for verdict in proved}
    exports: list[tuple[str, Export]] = []
    for verdict in proved:
        name, parts = verdict.entry.name, verdict.result.parts
        for part, file in zip(parts, files[name][: len(parts)], strict=True):
            title = f"{name}: {part.text}"
            exports.append((name, certificate_export(_certificate(verdict, part), directory / file, title)))
        if name == REDUCED:  # the softmax bound for every length, a file of its own
            reduction = directory / files[name][-1]
            exports.append((name, reduction_export(verdict.entry, reduction)))
    exported: dict[str, list[dict[str, Any]]] = {}
    with complete_or_removed(directory, [n for names in files.values() for n in names]):
        records = export_files([e for _, e in exports], not args.no_coq_check, args.force, jobs(args))
    for (name, _), record in zip(exports, records, strict=True):
        exported.setdefault(name, []).append(record)
    return exported


def _coq_names(verdict: Any) -> list[str]:
    """The Coq files of a proved inequality: NAME.v (NAME_1.v, NAME_2.v, ... for several parts), and
    NAME_reduction.v for the softmax reduction."""
    from theory.paper_proofs.coq_softmax import REDUCED

    name, count = verdict.entry.name, len(verdict.result.parts)
    names = [f"{name}.v"] if count == 1 else [f"{name}_{index}.v" for index in range(1, count + 1)]
    return [*names, f"{name}_reduction.v"] if name == REDUCED else names


def _certificate(verdict: Any, part: Any) -> dict[str, Any]:
    """The certificate a proved part rests on: its own, or for a chain (whose one part has none) the
    chain certificate."""
    if part.certificate is not None:
        certificate: dict[str, Any] = part.certificate.to_json()
        return certificate
    chain: dict[str, Any] = verdict.result.certificate()
    return chain


def _coq_counts(exported: dict[str, list[dict[str, Any]]]) -> dict[str, int]:
    """The registry's Coq files: proved inequalities, files, and files per coqc status. theorem_3_1.v is
    no registry inequality and is not counted here: it has its own line (JSON: key ``theorem_3_1``)."""
    from theory.prover.coq.report import STATUSES

    records = [record for name, group in exported.items() if name != "theorem_3_1" for record in group]
    counts = {status: sum(r["coq"] == status for r in records) for status in STATUSES}
    statements = len(exported) - ("theorem_3_1" in exported)
    return {"statements": statements, "files": sum(r["file"] is not None for r in records), **counts}


def _counts(verdicts: dict[str, list[LemmaVerdict]]) -> dict[str, int]:
    statuses: list[str] = [v.status for group in verdicts.values() for v in group]
    return {
        "inequalities": len(statuses),
        "proved": statuses.count("proved"),
        "refuted": statuses.count("refuted"),
        "undecided": statuses.count("undecided"),
    }
