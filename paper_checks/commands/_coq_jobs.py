"""``--jobs N`` of the commands that run coqc (``prove``, ``theory`` and ``derive`` with ``--coq``): how
many coqc processes run at once (each compiles several files: :mod:`theory.prover.coq.coqc`)."""

from __future__ import annotations

import argparse

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
