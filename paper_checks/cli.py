"""The ``specbound`` command line: one subcommand per module of :mod:`paper_checks.commands`.

A command module defines ``HELP`` (one line), ``register(parser)`` to add its arguments and
``run(args) -> int``. Errors derived from :class:`theory.errors.SpecboundError` are printed as one
message and exit with status 2; anything else is a bug and keeps its traceback. Every command runs
with numpy's OpenBLAS single-threaded (see :mod:`numerics.blas`: its threads spin on a busy machine).
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence

from numerics.blas import single_threaded_blas
from numerics.progress import configure as configure_progress
from paper_checks import run_metadata
from theory.errors import SpecboundError


def _command_modules() -> dict[str, object]:
    import paper_checks.commands as package

    modules = {}
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        if not info.name.startswith("_"):
            modules[info.name] = importlib.import_module(f"paper_checks.commands.{info.name}")
    return modules


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="specbound",
        description="Verify the spectrum-adaptive generalization bounds for transformers "
        "(Sakai and Imaizumi, arXiv:2605.07297), symbolically and on real weights.",
    )
    parser.add_argument("--version", action="version", version=f"specbound {run_metadata.version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, module in _command_modules().items():
        command = sub.add_parser(name, help=module.HELP, description=module.HELP)  # type: ignore[attr-defined]
        module.register(command)  # type: ignore[attr-defined]
        command.add_argument("--quiet", action="store_true", help="no progress on stderr")
        command.set_defaults(run=module.run)  # type: ignore[attr-defined]
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``specbound`` with ``argv`` (default: the process arguments); returns the exit status."""
    args = build_parser().parse_args(argv)
    configure_progress(quiet=args.quiet, stage_lines=True)
    try:
        with single_threaded_blas():
            return int(args.run(args))
    except SpecboundError as error:
        print(f"specbound {args.command}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"specbound {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader (e.g. `| head`) closed the pipe: stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    finally:
        configure_progress()  # back to the library's default (a bar on a terminal only)


if __name__ == "__main__":
    sys.exit(main())
