"""The ``specbound`` command line: one subcommand per module of :mod:`paper_checks.commands`.

A command module defines ``HELP`` (one line), ``register(parser)`` to add its arguments and
``run(args) -> int``. Errors derived from :class:`theory.errors.SpecboundError`, and OSErrors, are
printed as one line and exit with status 2; any other exception is an internal error (a bug), printed as
one line naming it and exit status 2 too: a crash is never status 1, which ``prove`` and ``check`` give a
refuted statement or claim. Every command runs
with numpy's OpenBLAS single-threaded (see :mod:`numerics.spectra.blas`: its threads spin on a busy machine).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import os
import pkgutil
import signal
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path

from numerics.progress import configure as configure_progress
from numerics.safe_io import os_problem
from numerics.spectra.blas import single_threaded_blas
from paper_checks import run_metadata
from paper_checks.extras import check_extras
from paper_checks.output_files import Terminated, sigterm_as_interrupt
from theory.errors import SpecboundError, missing_dependency


def command_names() -> tuple[str, ...]:
    """The subcommands: the public modules of :mod:`paper_checks.commands` (listed, not imported)."""
    import paper_checks.commands as package

    return tuple(
        sorted(info.name for info in pkgutil.iter_modules(package.__path__) if not info.name.startswith("_"))
    )


def build_parser(commands: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered, or only those named in ``commands`` (one
    for a run, none for a bare ``--version``).

    A command module is imported only when it is registered, so ``main(["bound", ...])`` does not import
    what the other commands need; and a command module imports at its top only what its options need
    (its ``run`` imports the implementation), so even the full parser (``--help``) imports no numpy,
    mpmath or sympy (tests/unit/paper_checks/test_startup.py).
    """
    parser = argparse.ArgumentParser(
        prog="specbound",
        description="Verify the spectrum-adaptive generalization bounds for transformers "
        "(Sakai and Imaizumi, arXiv:2605.07297), symbolically and on real weights.",
    )
    parser.add_argument("--version", action="version", version=f"specbound {run_metadata.version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in command_names() if commands is None else commands:
        module = importlib.import_module(f"paper_checks.commands.{name}")
        command = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.register(command)
        command.add_argument("--quiet", action="store_true", help="no progress on stderr")
        command.set_defaults(run=module.run)
    return parser


def _commands_needed(argv: Sequence[str]) -> tuple[str, ...]:
    """The subcommands the parser of ``argv`` needs: the one ``argv`` names (its first word, the top-level
    options take no value); none for a bare ``--version``; else all (help, an error listing them)."""
    first = next((word for word in argv if not word.startswith("-")), None)
    names = command_names()
    if first in names:
        return (first,)
    if first is None and "--version" in argv and not {"-h", "--help"} & set(argv):
        return ()
    return names


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``specbound`` with ``argv`` (default: the process arguments); returns the exit status.

    Exit 2 with one line on stderr for a SpecboundError, an OSError (a file that cannot be read or
    written, stdout on a full disk), a MemoryError or any other exception (an internal error), 130 on
    Ctrl-C, 143 on SIGTERM (raised as an interrupt,
    so it cleans up as Ctrl-C does), 0 quietly when the reader of stdout went away. Run as the program
    (``argv`` None: the process ends with the command), the cyclic collector's youngest generation is
    collected every :data:`COLLECTOR_THRESHOLD` allocations from here on.
    """
    if argv is None:
        threshold = gc.get_threshold()
        gc.set_threshold(COLLECTOR_THRESHOLD, *threshold[1:])
        argv = sys.argv[1:]
    return _run(list(argv))


COLLECTOR_THRESHOLD = 100_000
"""Allocations between two collections of the cyclic collector's youngest generation in a ``specbound``
process (CPython's default: 700). A command's start-up imports numpy, mpmath and the command's modules:
some 40 000 objects that live to the end of the process, which at the default threshold the collector
traverses in about 60 collections that find no garbage (22-29 ms of CPU on a BERT-mini ``bound``, measured
with ``gc.callbacks``). Garbage cycles are still collected, at most this many allocations later; the
interpreter's collection at exit is unchanged."""


def _run(argv: list[str]) -> int:
    """:func:`main` on ``argv``."""
    args = build_parser(_commands_needed(argv)).parse_args(argv)
    configure_progress(quiet=args.quiet, stage_lines=_is_long(args))
    try:
        check_extras(args)  # a missing optional package stops here, before any work
        with single_threaded_blas(), sigterm_as_interrupt():
            status = int(args.run(args))
            sys.stdout.flush()  # a full disk or a closed pipe shows here, inside the handlers below
            return status
    except SpecboundError as error:  # exit 3 for OutOfBudget (theory.prover.cpu_budget): undecided
        _error_line(args.command, str(error))
        return getattr(error, "exit_status", 2)
    except Terminated:
        _error_line(args.command, "terminated")
        return 128 + signal.SIGTERM
    except ModuleNotFoundError as error:  # an optional package imported without theory.errors.require
        missing = missing_dependency(error)
        _error_line(args.command, internal_error_line(error) if missing is None else str(missing))
        return 2
    except KeyboardInterrupt:
        _error_line(args.command, "interrupted")
        return 130
    except BrokenPipeError:
        # The reader (e.g. `| head`) closed the pipe: stop quietly, as Unix tools do.
        _silence_stdout()
        return 0
    except MemoryError:
        _error_line(args.command, "not enough memory (an input declares more data than this machine holds)")
        return 2
    except OSError as error:
        where = f": {error.filename}" if error.filename else ""
        _silence_stdout()
        _error_line(args.command, f"{os_problem(error)}{where}")
        return 2
    except Exception as error:  # a bug: one line and status 2, never the status of a verdict
        _error_line(args.command, internal_error_line(error))
        return 2

    finally:
        configure_progress()  # back to the library's default (a bar on a terminal only)


def internal_error_line(error: BaseException) -> str:
    """The one line that reports an unexpected exception: its class, its message and where it was raised
    (the innermost frame of the project), so a report of the bug can name it."""
    frames = traceback.extract_tb(error.__traceback__)
    ours = [frame for frame in frames if "/site-packages/" not in frame.filename] or frames
    place = f" at {Path(ours[-1].filename).name}:{ours[-1].lineno}" if ours else ""
    message = str(error)[:300] or "no message"
    return f"internal error ({type(error).__name__}{place}: {message}); a bug in specbound, please report it"


LONG_COMMANDS = ("theory", "check", "scaling", "gap", "correlate", "prove")
"""Commands that report a line per stage on stderr off a terminal (``bound`` only with ``--certify``); the
quick ones stay silent, so a bad input gives exactly one line on stderr."""


def _is_long(args: argparse.Namespace) -> bool:
    return args.command in LONG_COMMANDS or bool(getattr(args, "certify", False))


def _error_line(command: str, message: str) -> None:
    """Print ``specbound COMMAND: error: MESSAGE`` as one line on stderr (newlines in it flattened)."""
    text = " ".join(message.split("\n"))
    with contextlib.suppress(OSError):  # stderr itself is gone: nothing more can be said
        print(f"specbound {command}: error: {text}", file=sys.stderr, flush=True)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush of unwritable output cannot fail."""
    with contextlib.suppress(OSError, ValueError):  # ValueError: a stdout without a descriptor (tests)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


if __name__ == "__main__":
    sys.exit(main())
