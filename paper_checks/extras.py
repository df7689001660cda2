"""The optional packages a command line will need, read from its parsed arguments and checked before any
work: a missing one stops the command at once with one line naming the package and the extra, instead of
after the models are trained or the table is written.

:data:`NEEDS` is the one table (command, option, modules, what for); README.md's extras table lists the
same rows (tests/unit/paper_checks/test_extras.py compares them, and each module's extra with
:data:`theory.errors.OPTIONAL_MODULES`, the table the import guards use). The check only looks modules up
(``importlib.util.find_spec``); nothing is imported.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from theory.errors import MissingDependency, missing_package
from theory.records import record


def checkpoint_modules(spec: str) -> tuple[str, ...]:
    """The optional modules reading the checkpoint ``spec`` needs, from its name alone: safetensors for a
    ``.safetensors`` file (or a folder holding one), onnx for ``.onnx``, torch for a PyTorch pickle (``.bin``,
    ``.pt``, ``.pth``); none for a folder of checkpoint folders (each is checked when it is read) and for an
    alias (``minilm-l6``: its loader names the model package to install, which it needs first).

    >>> [checkpoint_modules(spec) for spec in ("w/model.safetensors", "w/m.onnx", "minilm-l3")]
    [('safetensors',), ('onnx',), ()]
    """
    from numerics.loading.aliases import ALIASES  # only for commands that read a checkpoint

    if spec in ALIASES:
        return ()
    path = Path(spec)
    names = [path.name]
    if path.is_dir():
        try:
            names = [child.name for child in path.iterdir()]
        except OSError:  # unreadable: the loader says so in its own words
            return ()
    suffixes = {Path(name).suffix for name in names}
    if ".safetensors" in suffixes or "model.safetensors.index.json" in names:
        return ("safetensors",)
    if ".onnx" in suffixes:
        return ("onnx",)
    if suffixes & {".bin", ".pt", ".pth"}:
        return ("torch",)
    return ()


@record
class Need:
    """``command`` given ``option`` (None: the command itself) imports ``modules`` when ``applies`` to its
    parsed arguments; ``purpose`` names it in the message."""

    command: str
    option: str | None
    modules: Callable[[argparse.Namespace], tuple[str, ...]]
    purpose: str


def _always(*modules: str) -> Callable[[argparse.Namespace], tuple[str, ...]]:
    return lambda args: modules


def _when(dest: str, *modules: str) -> Callable[[argparse.Namespace], tuple[str, ...]]:
    """``modules`` when the option stored in ``dest`` was given (not None, not False)."""
    return lambda args: modules if getattr(args, dest, None) not in (None, False) else ()


def _checkpoints(*dests: str) -> Callable[[argparse.Namespace], tuple[str, ...]]:
    """What reading the checkpoints named in ``dests`` (a string or a list of them) needs."""

    def modules(args: argparse.Namespace) -> tuple[str, ...]:
        specs: list[str] = []
        for dest in dests:
            value = getattr(args, dest, None)
            specs += [] if value is None else [value] if isinstance(value, str) else list(value)
        return tuple(dict.fromkeys(m for spec in specs for m in checkpoint_modules(spec)))

    return modules


def _parquet_out(args: argparse.Namespace) -> tuple[str, ...]:
    return ("pandas", "pyarrow") if str(getattr(args, "out", "")).endswith(".parquet") else ()


def _scaling_training(args: argparse.Namespace) -> tuple[str, ...]:
    """``scaling`` trains its synthetic grid unless ``--grid none`` (the default when a DIR is named)."""
    return ("torch",) if (args.grid or ("none" if args.paths else "full")) != "none" else ()


def _crossover(args: argparse.Namespace) -> tuple[str, ...]:
    """``growth``'s crossover (with ``--versus`` or ``--edelman-at``) is decided by the prover."""
    compared = args.versus is not None or args.edelman_at is not None
    return ("flint",) if compared and not args.no_crossover and not args.assume else ()


NEEDS: tuple[Need, ...] = (
    Need("bound", None, _checkpoints("model"), "reading the checkpoint"),
    Need("bound", "--certify", _when("certify", "flint"), "--certify"),
    Need("bound", "--parquet", _when("parquet", "pandas", "pyarrow"), "--parquet"),
    Need("bound", "--device", _when("device", "torch"), "--device"),
    Need("inspect", None, _checkpoints("model"), "reading the checkpoint"),
    Need("compare", None, _checkpoints("model"), "reading the checkpoint"),
    Need("sweep", None, _checkpoints("checkpoints"), "reading the checkpoints"),
    Need("sweep", "--out F.parquet", _parquet_out, "--out F.parquet"),
    Need("sweep", "--scheduler", _when("scheduler", "distributed"), "--scheduler"),
    Need("sweep", "--figures", _when("figures", "matplotlib"), "--figures"),
    Need("check", "--report", _when("report", "matplotlib"), "--report (its figures)"),
    Need("check", "--certify", _when("certify", "flint"), "--certify"),
    Need("gap", None, _always("torch"), "specbound gap (it trains a model)"),
    Need("correlate", None, _always("torch"), "specbound correlate (it trains its models)"),
    Need("correlate", "--report", _when("report", "matplotlib"), "--report (its figures)"),
    Need("correlate", "--scheduler", _when("scheduler", "distributed"), "--scheduler"),
    Need("scaling", None, _scaling_training, "specbound scaling (it trains its synthetic grid)"),
    Need("scaling", "DIR", _checkpoints("paths"), "reading the checkpoints"),
    Need("scaling", "--figures", _when("figures", "matplotlib"), "--figures"),
    Need("prove", None, _always("flint"), "the prover (its interval arithmetic)"),
    Need("derive", None, _always("flint"), "the prover (its interval arithmetic)"),
    Need("growth", "--versus", _crossover, "the crossover (decided by the prover)"),
    Need("growth", "--edelman-at", _checkpoints("edelman_at"), "reading the checkpoint"),
)
"""Every optional package a command's arguments need: one row per (command, option)."""

DEGRADES: dict[str, str] = {"check": "models", "theory": "certify"}
"""Commands that run without an extra and say what they left out: ``check`` reports the claims on real
and trained models as crashed (naming the package), ``theory`` prints no prover verdicts."""


def first_missing(args: argparse.Namespace) -> MissingDependency | None:
    """The first optional module the parsed ``args`` will need that is not installed, as the error to
    print (None when everything is there)."""
    import importlib.util

    for need in NEEDS:
        if need.command != args.command:
            continue
        for module in need.modules(args):
            try:
                found = importlib.util.find_spec(module)
            except (ImportError, ValueError):  # a parent package missing, or None in sys.modules
                found = None
            if found is None:
                return missing_package(module, need.purpose)
    return None


def check_extras(args: argparse.Namespace) -> None:
    """Raise :class:`~theory.errors.MissingDependency` for the first module ``args`` need and lack."""
    missing = first_missing(args)
    if missing is not None:
        raise missing
