"""The error hierarchy shared by every layer of specbound.

One root, :class:`SpecboundError`; every error the toolkit raises on purpose derives from it, so a
caller can catch all of them at once and the CLI can print the message and exit with status 2.
Messages name the argument, its value and the valid domain ("p=2.5 is outside [0, 2]").
"""

from __future__ import annotations

from types import ModuleType


class SpecboundError(Exception):
    """Root of every error specbound raises on purpose."""


class InvalidArgument(SpecboundError, ValueError):
    """An argument is outside its domain: p outside [0, 2], a grid m < 1, a zero or non-finite matrix."""


class UnknownName(SpecboundError, KeyError):
    """A name that is not among the known ones (a lemma, a bound, an alpha assumption, a regime, a box
    variable, a table row); the message names it and the known ones."""

    def __str__(self) -> str:
        """The message itself (a KeyError's str() would quote it)."""
        return str(self.args[0]) if self.args else ""


class CheckpointError(SpecboundError):
    """A checkpoint cannot be read: missing path, missing config or weights, truncated or corrupt file."""


class UnsupportedCheckpoint(CheckpointError):
    """A checkpoint was read but is not a BERT-family encoder, or its projections cannot be identified."""


class CertificationFailed(SpecboundError):
    """A rigorous enclosure could not be computed, or is too wide to decide the question asked of it."""


class MissingDependency(SpecboundError):
    """An optional dependency (an extra of the distribution) is needed and not installed."""


OPTIONAL_MODULES: dict[str, tuple[str, str]] = {
    "torch": ("torch", "models"),
    "transformers": ("transformers", "models"),
    "safetensors": ("safetensors", "models"),
    "onnx": ("onnx", "models"),
    "flint": ("python-flint", "certify"),
    "matplotlib": ("matplotlib", "report"),
    "tqdm": ("tqdm", "models"),
    "pandas": ("pandas", "analysis"),
    "pyarrow": ("pyarrow", "analysis"),
    "dask": ("dask[distributed]", "sweep"),
    "distributed": ("dask[distributed]", "sweep"),
    "hypothesis": ("hypothesis", "test"),
    "z3": ("z3-solver", "solver"),
}
"""Every optional top-level module specbound imports: (the distribution pip installs, the extra that
brings it). pyproject.toml's [project.optional-dependencies] must agree
(tests/unit/paper_checks/test_optional.py)."""


def missing_package(module: str, purpose: str, extra: str | None = None) -> MissingDependency:
    """The error for ``module`` missing: it names the package, what needed it (``purpose``) and the extra
    to install (``extra``, default the one of :data:`OPTIONAL_MODULES`)."""
    distribution, default_extra = OPTIONAL_MODULES[module.split(".")[0]]
    return MissingDependency(
        f"{purpose} needs the package {distribution!r}, which is not installed; "
        f"install it with: pip install 'specbound[{extra or default_extra}]'"
    )


def require(module: str, extra: str | None = None, *, purpose: str = "this") -> ModuleType:
    """``module`` imported, or :class:`MissingDependency` naming its package and the extra to install
    (``extra``, default the one of :data:`OPTIONAL_MODULES`); ``purpose`` says what needed it.

    >>> require("math").__name__
    'math'
    """
    import importlib
    import importlib.util

    try:
        found = importlib.util.find_spec(module)
    except (ImportError, ValueError):  # its parent package is missing, or sys.modules holds None for it
        found = None
    if found is None and module.split(".")[0] in OPTIONAL_MODULES:
        raise missing_package(module, purpose, extra)
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        name = error.name or ""
        if module.split(".")[0] in OPTIONAL_MODULES and (module == name or module.startswith(name + ".")):
            raise missing_package(module, purpose, extra) from None
        raise


def missing_dependency(error: BaseException, purpose: str = "this") -> MissingDependency | None:
    """The :class:`MissingDependency` an import of an optional module that failed meant (None for any
    other error), ``purpose`` saying what needed it: the CLI, ``check`` and the lazy exports report it in
    one line naming the package, never as a traceback or a missing attribute."""
    if isinstance(error, ModuleNotFoundError) and (error.name or "").split(".")[0] in OPTIONAL_MODULES:
        return missing_package(error.name or "", purpose, None)
    return None
