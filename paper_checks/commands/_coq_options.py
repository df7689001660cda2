"""The ``--coq`` options shared by the commands that run coqc (``prove``, ``theory`` and ``derive``):
``--jobs N`` (how many coqc processes run at once, each compiling several files:
:mod:`theory.prover.coq.coqc`), the checks made before any work, and the Coq records' place in the
command's JSON and text."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from theory.errors import InvalidArgument


def add_jobs(parser: argparse.ArgumentParser) -> None:
    """The ``--jobs`` option (default 1)."""
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="with --coq: coqc processes at once (1; each compiles several files)",
    )


def jobs(args: argparse.Namespace) -> int:
    """``--jobs``, checked to be at least 1 (exit 2 otherwise)."""
    if args.jobs < 1:
        raise InvalidArgument(f"--jobs={args.jobs} must be at least 1")
    return int(args.jobs)


def check_coq_file_options(args: argparse.Namespace) -> Path:
    """``--coq FILE.v`` before any work: FILE ends in ``.v``, ``--jobs`` is valid, and coqc is installed
    (unless ``--no-coq-check``); the caller then checks that FILE can be written."""
    from theory.prover.coq.coqc import coqc_path

    target = Path(args.coq)
    if target.suffix != ".v":
        raise InvalidArgument(f"--coq={args.coq} must name a Coq file ending in .v")
    jobs(args)
    if not args.no_coq_check:
        coqc_path()  # a missing coqc is reported before anything is written
    return target


def add_coq_records(document: dict[str, Any], exported: list[dict[str, Any]] | None) -> None:
    """With --coq: the Coq files' records and coqc's overall verdict in the command's JSON ``document``."""
    if exported is not None:
        from theory.prover.coq.report import coq_verdict

        document["coq"] = exported
        document["coq_verdict"] = coq_verdict(exported)


def coq_lines(exported: list[dict[str, Any]], what: str, status: int, decided_status: int) -> list[str]:
    """The text lines of the Coq files' records; ``what`` names what was not exported ("the statement is
    refuted") when nothing was, and a ``status`` other than the decision's own (``decided_status``) says
    that coqc did not accept with no hypothesis."""
    from theory.prover.coq.report import coq_verdict, line

    lines = [line(record) for record in exported]
    if not exported:
        lines.append(f"coq: nothing exported ({what}: there is no proof to export)")
    elif status != decided_status:
        lines.append(f"coq: not accepted ({coq_verdict(exported)}): exit status {status}")
    return lines
